/**
 * Report formats: JSON (machine-readable, everything), CSV (one row per task, seed set and policy) and a
 * Markdown summary (tables of results, paired differences, strategy prediction and simulator validation).
 *
 * CSV follows RFC 4180 (comma separator, CRLF line ends, fields with a comma, quote or line break quoted and
 * quotes doubled); it is written here because no CSV writer is among the project's dependencies (csv-parse
 * reads it back in the tests).
 */
import type { BootstrapInterval } from '../stats/bootstrap';
import type { Estimate, PairedEstimate } from '../stats/intervals';
import type { EvalReport } from './report';
import { endingPhrases, SUCCESS_TEXT } from '../tasks/success';
import { doseMarkdown } from './dose';
import { emollmMarkdown } from './emollm-metrics-report';
import { seedSetNames } from '../tasks/seed-sets';
import type { TaskId } from '../tasks/seed';
import { countOf } from '../errors/plural';

/** What the person ran, by name: a named seed set of the task shows its name (`emollm-ed`), not `esconv`. */
function namedTask(r: { task: string; seedSet: string }): string {
  return isNamedSet(r.task, r.seedSet) ? r.seedSet : r.task;
}

/** Whether `seedSet` is one of `task`'s named seed sets (a file's or the bundled set is not). */
function isNamedSet(task: string, seedSet: string): boolean {
  return seedSetNames(task as TaskId).includes(seedSet);
}

/** The report as indented JSON, with a final newline. */
export function reportToJson(report: EvalReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A metric's four CSV columns: value, interval bounds, method. */
const ci4 = <M extends string>(m: M) => [m, `${m}_lo`, `${m}_hi`, `${m}_method`] as const;

/**
 * The EmoLLM columns of {@link reportToCsv} (empty on rows of seed sets without EmoLLM scenarios): the scorer
 * (`template` or `llm-judge`), SR (a proportion in [0, 1], Wilson), AT over successful episodes, ES (1–5), EG per
 * turn, EA (1–5), FA (percent; bootstrap) and the number of episodes FA is over — see EMOLLM_METRIC_DEFINITIONS.
 */
export const EMOLLM_CSV_COLUMNS = [
  'emollm_scorer',
  ...ci4('emollm_success_rate'),
  ...ci4('emollm_avg_turns'),
  ...ci4('emollm_emotional_state'),
  ...ci4('emollm_gain_per_turn'),
  ...ci4('emollm_empathic'),
  ...ci4('emollm_factual'),
  'emollm_factual_episodes',
] as const;

/**
 * Columns of {@link reportToCsv}, in order. Interval columns come as `<metric>`, `<metric>_lo`, `<metric>_hi`,
 * `<metric>_method` (`wilson` or `cluster-bootstrap`, see `ESTIMATE_METHOD_NAMES`; `_lo`/`_hi` are empty when
 * the estimate has no interval). The other columns are point values.
 */
export const CSV_COLUMNS = [
  'task',
  'seed_set',
  'policy',
  'protocol',
  'mode',
  'episodes',
  'cases',
  'success_rate',
  'success_rate_lo',
  'success_rate_hi',
  'success_rate_method',
  'avg_turns_all',
  'avg_turns_all_lo',
  'avg_turns_all_hi',
  'avg_turns_all_method',
  'avg_turns_successful',
  'avg_turns_successful_lo',
  'avg_turns_successful_hi',
  'avg_turns_successful_method',
  'mean_return',
  'mean_return_lo',
  'mean_return_hi',
  'mean_return_method',
  'strategy_entropy',
  'macro_f1',
  'weighted_f1',
  'f1_contexts',
  'endings',
  'ending_contradictions',
  ...EMOLLM_CSV_COLUMNS,
] as const;

/**
 * One row per (task, seed set, policy); F1 columns repeat the task's strategy prediction (empty without); EmoLLM
 * columns hold the set's EmoLLM metrics (empty without).
 */
export function reportToCsv(report: EvalReport): string {
  const ci = (i: Estimate | null) => (i ? [i.mean, i.lo, i.hi, i.method] : [null, null, null, null]);
  const rows = report.results.map((r) => {
    const f1 = report.strategyPrediction.find((s) => s.task === r.task && s.policy === r.policy);
    const e = report.emollm?.find(
      (m) => m.task === r.task && m.seedSet === r.seedSet && m.policy === r.policy,
    );
    return [
      r.task,
      r.seedSet,
      r.policy,
      report.config.protocol,
      report.config.mode,
      r.episodes,
      r.cases,
      ...ci(r.successRate),
      ...ci(r.avgTurnsAll),
      ...ci(r.avgTurnsSuccessful),
      ...ci(r.meanReturn),
      r.strategyEntropy,
      f1?.macroF1 ?? null,
      f1?.weightedF1 ?? null,
      f1?.contexts ?? null,
      endingPhrases(r.endings),
      r.endings.contradictions,
      e?.scorer ?? null,
      ...ci(e?.successRate ?? null),
      ...ci(e?.avgTurns ?? null),
      ...ci(e?.emotionalState ?? null),
      ...ci(e?.gainPerTurn ?? null),
      ...ci(e?.empathic ?? null),
      ...ci(e?.factual ?? null),
      e?.factualEpisodes ?? null,
    ];
  });
  return [CSV_COLUMNS, ...rows].map((row) => row.map((v) => csvField(v)).join(',')).join('\r\n') + '\r\n';
}

const f3 = (v: number) => v.toFixed(3);
const f2 = (v: number) => v.toFixed(2);
const interval = (i: BootstrapInterval | Estimate | PairedEstimate | null, f = f3) =>
  !i
    ? '–'
    : i.lo === null || i.hi === null || i.nClusters < 2
      ? 'note' in i && i.note
        ? `${f(i.mean)} n/a (${i.note})`
        : `${f(i.mean)} n/a (${i.nClusters} seed${i.nClusters === 1 ? '' : 's'})`
      : `${f(i.mean)} [${f(i.lo)}, ${f(i.hi)}]`;
const maybe = (v: number | null, f = f3) => (v === null ? '–' : f(v));

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/**
 * What the Results table's Task SR counts, in words: under CSTPO the judge's verdict by each task's own rule
 * (SUCCESS_TEXT), under PPDPP the per-turn critic (as `outcomeSuccess` decides).
 */
function taskSuccess(report: EvalReport): string {
  if (report.config.protocol !== 'cstpo')
    return 'ended on a last per-turn critic reward above 0.5 (PPDPP protocol)';
  // A named seed set (emollm-ed) is played, and judged, as its task: the Task column shows its name.
  const sets = report.config.seedSets;
  const rules = [...new Set(sets.map((s) => s.task))].map((t) => {
    const named = sets.filter((s) => s.task === t && isNamedSet(t, s.name)).map((s) => s.name);
    return `${[t, ...named].join(', ')}: ${SUCCESS_TEXT[t]}`;
  });
  return `the evaluation judge rates successful by the task’s own rule (${rules.join('; ')})`;
}

/** A Markdown summary of the report (see the module comment). */
export function reportToMarkdown(report: EvalReport): string {
  const c = report.config;
  const m = report.methods;
  const parts: string[] = [
    `# Evaluation report`,
    '',
    `${report.library.name} ${report.library.version} · simulator ${report.simulatorVersion} · ${c.mode} mode · ` +
      `protocol ${c.protocol} · ${c.repeats} repeat(s) per seed · rng seed ${c.baseSeed} · generated ${report.generatedAt}`,
    '',
    `Seed sets: ${c.seedSets.map((s) => `${isNamedSet(s.task, s.name) ? s.name : `${s.task}/${s.name}`} (${countOf(s.seeds, 'seed')})`).join(', ')}.`,
    `Task SR = share of episodes that ${taskSuccess(report)}, a proportion in [0, 1]; ` +
      'AT = average actor turns over all episodes / over successful ones; ' +
      (c.protocol === 'cstpo'
        ? 'return = terminal utility in [0, 1]; '
        : 'return = sum of per-turn critic rewards; ') +
      'H = entropy (nats) of the strategy labels the policy’s turns used.',
    'A “–” is no value: H of a policy that plays no strategy label (e.g. standard, which replies without ' +
      'one), AT (successful) when no episode succeeded.',
    '',
    '## Results',
    '',
    table(
      ['Task', 'Seeds', 'Policy', 'N', 'Task SR', 'AT (all)', 'AT (successful)', 'Return', 'H'],
      report.results.map((r) => [
        namedTask(r),
        r.seedSet,
        r.policy,
        String(r.episodes),
        interval(r.successRate),
        interval(r.avgTurnsAll, f2),
        interval(r.avgTurnsSuccessful, f2),
        interval(r.meanReturn),
        maybe(r.strategyEntropy),
      ]),
    ),
    '',
    `Methods: Task SR — ${m.successRate}. AT — ${m.avgTurns}. Return — ${m.meanReturn}. H — ${m.strategyEntropy}.`,
    '',
    '## Endings beside the judge',
    '',
    table(
      [
        'Task',
        'Seeds',
        'Policy',
        'Endings (simulator’s ending, judge’s verdict: episodes)',
        'Contradictions',
      ],
      report.results.map((r) => [
        namedTask(r),
        r.seedSet,
        r.policy,
        endingPhrases(r.endings),
        String(r.endings.contradictions),
      ]),
    ),
    '',
    `Method: ${m.endings}.`,
  ];
  if (report.paired.length > 0) {
    const rows: string[][] = [];
    for (const d of report.paired.filter((p) => p.metric === 'return')) {
      const success = report.paired.find(
        (p) =>
          p.metric === 'success' && p.task === d.task && p.seedSet === d.seedSet && p.policy === d.policy,
      );
      rows.push([
        namedTask(d),
        d.seedSet,
        `${d.policy} − ${d.reference}`,
        String(d.n),
        interval(d),
        interval(success ?? null),
      ]);
    }
    parts.push(
      '',
      '## Paired differences (same seeds and repeats)',
      '',
      table(['Task', 'Seeds', 'Difference', 'Pairs', 'Δ return', 'Δ success'], rows),
      '',
      `Method: ${m.paired}.`,
    );
  }
  if (report.strategyPrediction.length > 0) {
    parts.push(
      '',
      '## Strategy prediction against human labels',
      '',
      'H = entropy (nats) of the labels the policy predicted; – where it plans no strategy (Turns: n/a).',
      '',
      table(
        ['Task', 'Policy', 'Turns', 'Macro F1', 'Weighted F1', 'Accuracy', 'H'],
        report.strategyPrediction.map((s) => [
          s.task,
          s.policy,
          s.contexts === null ? 'n/a (no strategy)' : String(s.contexts),
          maybe(s.macroF1),
          maybe(s.weightedF1),
          maybe(s.accuracy),
          maybe(s.entropy),
        ]),
      ),
      '',
      `Method: ${m.strategyPrediction}.` +
        (report.strategyPrediction.some((s) => s.policy === 'replay')
          ? ' The replay policy plays the human labels, so its accuracy and weighted F1 are 1; its macro F1 ' +
            'averages over every label of the task, including labels absent from these turns (whose F1 is 0), so ' +
            'it can be below 1.'
          : ''),
    );
  }
  if (report.validation.length > 0) {
    parts.push(
      '',
      '## Simulator validation (dose–response)',
      '',
      doseMarkdown(report.validation),
      '',
      `Method: ${m.validation}.`,
    );
  }
  const emollm = emollmMarkdown(report.emollm, `the episodes that ${taskSuccess(report)}`);
  if (emollm !== '') parts.push(emollm);
  return `${parts.join('\n')}\n`;
}
