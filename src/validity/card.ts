/**
 * The simulator card: one Markdown page that says what Cog-Sim is checked against and how it
 * does — the data it was built and checked on, what is fitted, dev and held-out agreement with people against the
 * majority, text-sentiment and traits baselines (95% intervals), dose–response, the exploit table and the variety
 * of the simulated users' replies, each before → after where a "before" record is given. Built from the
 * validate-sim report (`ValidityReport`, read as plain JSON so that sections other versions add are shown too)
 * and from {@link replyRow} measurements; `scripts/simulator-card.ts` (`npm run sim-card`) writes it.
 */
import type { TaskId } from '../tasks/seed';
import type { ReplyRow } from './replies';
import type { FittedParams } from '../fit';
import { COUNTER_MEASURE, COUNTER_NOTE } from './metrics';

/** One dataset file the card lists. */
export interface CardDataFile {
  task: TaskId;
  file: string;
  /** Size in bytes, or null when the file is absent here. */
  bytes: number | null;
  /** Dialogues (or rows) it holds, as read, or null. */
  rows: number | null;
  what: string;
  source: string;
  licence: string;
}

/** Reply variety of one set of episodes (bundled seeds, a dataset's seeds), per task. */
export interface ReplySet {
  /** What was played, e.g. "bundled seeds, 1 episode each". */
  set: string;
  rows: ReplyRow[];
}

/** The "before" record kept beside the card: the figures of an earlier simulator version. */
export interface CardBefore {
  simulatorVersion: string;
  /** The git commit the figures came from. */
  commit: string;
  /** The commands that produced them. */
  commands: string[];
  /** The validate-sim report of that version (plain JSON), or a part of it. */
  report: Record<string, unknown>;
  replies: ReplySet[];
}

/** Everything the card shows. */
export interface CardInput {
  simulatorVersion: string;
  /** The validate-sim report (plain JSON, as `validate-sim --json` writes it). */
  report: Record<string, unknown>;
  /** Where the report was read from. */
  reportPath: string;
  data: CardDataFile[];
  replies: ReplySet[];
  before?: CardBefore;
  /** The fitted parameters in use (`src/sim/fitted/params.ts`, written by `npm run fit-sim`). */
  fitted?: FittedParams;
  /** The command that regenerates the card. */
  command: string;
}

/** What the fitted parameters hold, per task, and the datasets and splits they came from. */
function fittedSection(p: FittedParams): string {
  const out: string[] = [
    `Written by \`${p.command}\` (seed ${p.seed}; content SHA-256 \`${p.contentHash.slice(0, 12)}…\`). Split: ${p.split}.`,
    '',
    table(
      p.datasets.map((d) => ({
        task: d.task,
        file: d.file,
        dialogues: d.dialogues,
        train: d.train,
        validation: d.validation,
        'held-out (never read)': d.heldOut,
        licence: d.licence,
      })),
    ),
    '',
  ];
  const rows = (['esconv', 'p4g', 'cb'] as const).map((task) => {
    const t = p.tasks[task];
    return {
      task,
      'reaction model': `softmax regression over ${t.reaction.buckets} hashed n-gram buckets + ${t.reaction.dense.length} dense inputs → ${t.reaction.classes.join(' / ')} (L2 ${t.reaction.l2}, prior weight ${t.reaction.alpha})`,
      coherence: `bigram LM of the actors' turns; confusing below ${t.coherence.threshold.toFixed(2)} nats/token (≥ ${t.coherence.minTokens} tokens)`,
      'CB prices': t.price
        ? `acceptance (logistic, ${t.price.acceptRows} turns), counter-offer (ridge least squares on ${t.price.counterFeatures.join(' + ')}, ` +
          `chosen on validation; ${t.price.counterRows} turns), counter floor ${t.price.floor.toFixed(3)} of the list price ` +
          `(5th percentile of people's counters), ` +
          `opening concession ${t.price.opening.toFixed(3)} of the list price (mean, ${t.price.openingRows} turns)` +
          (t.agree
            ? `; buyer agreement (logistic over the same inputs as the reactions, ${t.agree.rows} buyer turns, ` +
              `${t.agree.positives} annotated "agree"; L2 ${t.agree.l2}, threshold ${t.agree.threshold})`
            : '')
        : '—',
      'P4G disposition': t.disposition
        ? `logistic regression of donated on ${t.disposition.traits.length} survey items (${t.disposition.rows} train persuadees, L2 ${t.disposition.l2}); tanh(${t.disposition.gain} · logit / 2)`
        : '—',
      'P4G donation': t.donation
        ? `end of episode: logistic regression of donated on ${t.donation.traits.join(', ')} (${t.donation.rows} replayed train dialogues, L2 ${t.donation.l2})`
        : '—',
    };
  });
  out.push(table(rows), '');
  out.push('Validation-split scores of the chosen models:', '', genericSection(p.validation));
  return out.join('\n');
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const f3 = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x.toFixed(3) : 'n/a');

/**
 * A value as a table cell: an interval object (`estimate`/`mean` with `lo`, `hi`) as "x [lo, hi]", a number
 * with three decimals (integers as they are), a list joined with commas, an object as `key: value` pairs.
 */
export function cell(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : f3(v);
  if (typeof v === 'string') return v.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (Array.isArray(v)) return v.length === 0 ? '—' : v.map(cell).join(', ');
  if (isRecord(v)) {
    const point =
      typeof v.estimate === 'number' ? v.estimate : typeof v.mean === 'number' ? v.mean : undefined;
    if (point !== undefined && typeof v.lo === 'number' && typeof v.hi === 'number')
      return `${f3(point)} [${f3(v.lo)}, ${f3(v.hi)}]`;
    return Object.entries(v)
      .map(([k, x]) => `${k}: ${cell(x)}`)
      .join('<br>');
  }
  return String(v);
}

/** A Markdown table of objects: one column per key (in first-seen order), one row per object. */
export function table(rows: readonly Record<string, unknown>[], columns?: readonly string[]): string {
  const keys = columns ?? [...new Set(rows.flatMap((r) => Object.keys(r)))];
  if (rows.length === 0 || keys.length === 0) return '_(empty)_';
  return [
    `| ${keys.join(' | ')} |`,
    `|${keys.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${keys.map((k) => cell(r[k])).join(' | ')} |`),
  ].join('\n');
}

/** A section of unknown shape, shown as well as can be: a table of its records, else its values. */
export function genericSection(value: unknown): string {
  if (Array.isArray(value) && value.every(isRecord)) return table(value);
  if (isRecord(value)) {
    const entries = Object.entries(value);
    if (entries.every(([, v]) => Array.isArray(v) && v.every(isRecord)))
      return entries.map(([k, v]) => `**${k}**\n\n${table(v as Record<string, unknown>[])}`).join('\n\n');
    return table(entries.map(([k, v]) => ({ key: k, value: v })));
  }
  return cell(value);
}

/** The sections of the report the card lays out itself; any other section is shown with {@link genericSection}. */
const KNOWN = new Set([
  'simulatorVersion',
  'split',
  'datasets',
  'rows',
  'dose',
  'replies',
  'policyCheck',
  'success',
]);
/** Sections another version may add, shown under their own headings where present. */
const NAMED: readonly (readonly [string, string])[] = [
  ['fitted', 'What is fitted'],
  ['fit', 'What is fitted'],
  ['parameters', 'Fitted parameters'],
  ['exploits', 'Exploits'],
  ['exploit', 'Exploits'],
];

const rowKey = (r: Record<string, unknown>) => `${r.task}|${r.split}|${r.level}|${r.measure}`;

function estimateOf(v: unknown): number | undefined {
  if (!isRecord(v)) return undefined;
  return typeof v.estimate === 'number' ? v.estimate : typeof v.mean === 'number' ? v.mean : undefined;
}

/** The agreement table: the simulator and each baseline with intervals, what it beats, and the before figure. */
function agreement(
  rows: readonly Record<string, unknown>[],
  before: readonly Record<string, unknown>[],
): string {
  const earlier = new Map(before.map((r) => [rowKey(r), r]));
  const out = [
    '| task | split | level | measure | n (dialogues) | simulator [95% CI] | baselines [95% CI] | sim − baseline [95% CI] | beats | before: simulator (beats) |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const baselines = isRecord(r.baselines) ? r.baselines : {};
    const diffs = isRecord(r.differences) ? r.differences : {};
    const b = earlier.get(rowKey(r));
    out.push(
      `| ${cell(r.task)} | ${cell(r.split)} | ${cell(r.level)} | ${cell(r.measure)} | ${cell(r.n)} (${cell(r.dialogues)}) | ` +
        `${cell(r.simulator)} | ${Object.entries(baselines)
          .map(([k, v]) => `${k}: ${cell(v)}`)
          .join('<br>')} | ${Object.entries(diffs)
          .map(([k, v]) => `${k}: ${cell(v)}`)
          .join('<br>')} | ${cell(Array.isArray(r.beats) && r.beats.length === 0 ? 'none' : r.beats)} | ` +
        `${b ? `${f3(estimateOf(b.simulator))} (${Array.isArray(b.beats) && b.beats.length > 0 ? cell(b.beats) : 'none'})` : '—'} |`,
    );
  }
  return out.join('\n');
}

/** Dose–response: the level means, monotone share, and the before share. */
function dose(rows: readonly Record<string, unknown>[], before: readonly Record<string, unknown>[]): string {
  const earlier = new Map(before.map((r) => [`${r.task}|${r.ladder}`, r]));
  return table(
    rows.map((r) => ({
      task: r.task,
      ladder: r.ladder,
      seeds: r.seeds,
      'level means (low → high)': Array.isArray(r.levelMeans)
        ? r.levelMeans.map((x) => f3(x)).join(' → ')
        : r.levelMeans,
      'means rise': r.monotone,
      'seeds monotone': r.monotoneShare,
      'before: seeds monotone': earlier.get(`${r.task}|${r.ladder}`)?.monotoneShare,
    })),
  );
}

/** Reply variety, before → after, per set and task. */
function variety(after: readonly ReplySet[], before: readonly ReplySet[]): string {
  const earlier = new Map(before.flatMap((s) => s.rows.map((r) => [`${s.set}|${r.task}`, r] as const)));
  const out = [
    '| set | task | episodes | replies | distinct-2 before → after | distinct-1 before → after | same last line before → after | longest recited run (words) before → after | contradictions before → after | form slips | verbatim repeats |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const s of after)
    for (const r of s.rows) {
      const b = earlier.get(`${s.set}|${r.task}`);
      const pair = (x: number | undefined, y: number, fmt: (v: number) => string) =>
        `${x === undefined ? '—' : fmt(x)} → ${fmt(y)}`;
      out.push(
        `| ${s.set} | ${r.task} | ${r.episodes} | ${r.replies} | ${pair(b?.distinct2, r.distinct2, f3)} | ` +
          `${pair(b?.distinct1, r.distinct1, f3)} | ${pair(b?.sameEnding, r.sameEnding, String)} of ${r.episodes} | ` +
          `${pair(b?.longestEcho, r.longestEcho, String)} | ${pair(b?.contradictions, r.contradictions, String)} | ${r.formDefects ?? '—'} | ${r.verbatimRepeats} |`,
      );
    }
  return out.join('\n');
}

/** The rows measured next to the human users ({@link ReplyRow.matched}), or null when none was. */
function matchedTable(sets: readonly ReplySet[]): string | null {
  const rows = sets.flatMap((s) =>
    s.rows.flatMap((r) => (r.matched ? [{ set: s.set, task: r.task, m: r.matched }] : [])),
  );
  if (rows.length === 0) return null;
  return [
    '| set | task | replies compared | distinct-2 simulator | distinct-2 human users | distinct-1 simulator | distinct-1 human users |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      ({ set, task, m }) =>
        `| ${set} | ${task} | ${m.replies} | ${f3(m.distinct2)} | ${f3(m.humanDistinct2)} | ${f3(m.distinct1)} | ${f3(m.humanDistinct1)} |`,
    ),
  ].join('\n');
}

const asRecords = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isRecord) : []);

/**
 * The exploit table of a report (`ExploitTable` of `./exploit-table`, read as plain JSON): each exploit's return
 * against the adaptive script with the paired interval and verdict, the before figure where the before report has
 * one; then the word-salad rate. Null when `value` is not of that shape (another version's table is then shown
 * generically).
 */
function exploitSection(value: unknown, before: unknown): string | null {
  if (!isRecord(value) || !Array.isArray(value.tasks)) return null;
  const earlier = new Map(
    (isRecord(before) ? asRecords(before.tasks) : []).flatMap((t) =>
      asRecords(t.rows).map((r) => [`${t.task}|${r.exploit}`, r] as const),
    ),
  );
  const tasks = asRecords(value.tasks);
  const seeds = (t: Record<string, unknown>) => `${cell(t.seeds)} ${cell(t.seedSource)}`;
  const out: string[] = [];
  if (typeof value.design === 'string') out.push(`Design: ${value.design}.`, '');
  out.push(
    table(
      tasks.flatMap((t) => {
        const script = isRecord(t.script) ? t.script : {};
        return [
          {
            task: t.task,
            seeds: seeds(t),
            policy: 'adaptive script',
            'success rate': script.successRate,
            'mean return': script.meanReturn,
            'exploit − script [95% CI]': '—',
            verdict: '—',
            'accepted Influence turns': '—',
            'before: exploit − script (verdict)': '—',
          },
          ...asRecords(t.rows).map((r) => {
            const b = earlier.get(`${t.task}|${r.exploit}`);
            return {
              task: t.task,
              seeds: seeds(t),
              policy: r.exploit,
              'success rate': r.successRate,
              'mean return': r.meanReturn,
              'exploit − script [95% CI]': r.difference,
              verdict: r.verdict,
              'accepted Influence turns': r.acceptedInfluenceTurns,
              'before: exploit − script (verdict)': b ? `${cell(b.difference)} (${cell(b.verdict)})` : '—',
            };
          }),
        ];
      }),
    ),
    '',
  );
  out.push(
    'Word salad (the task’s persuasive words with no sentence around them): is it an accepted Influence turn — Influence by the mode classifier and judged `accept` — on the first turn, or on any turn of the episode? Target: never accepted on ≥ 95% of seeds. Valence change of the first turn beside the adaptive script’s.',
    '',
    table(
      tasks.map((t) => {
        const w = isRecord(t.wordSalad) ? t.wordSalad : {};
        return {
          task: t.task,
          seeds: w.seeds,
          'word salad': w.utterance,
          'first turn (mode/judgment)': w.firstTurn,
          'first turn accepted': `${cell(w.firstTurnAccepted)} of ${cell(w.seeds)}`,
          'episode with an accepted turn': `${cell(w.episodeAccepted)} of ${cell(w.seeds)}`,
          'never accepted [95% CI]': w.neverAccepted,
          'target met': w.meetsTarget,
          'first-turn valence change': w.firstTurnValenceChange,
          'script’s first-turn valence change': w.scriptFirstTurnValenceChange,
          'valence rises (seeds)': w.firstTurnMoodRises,
        };
      }),
    ),
  );
  return out.join('\n');
}

/** The card as Markdown. */
export function simulatorCard(input: CardInput): string {
  const r = input.report;
  const b = input.before?.report ?? {};
  const out: string[] = [];
  out.push(
    '# Cog-Sim simulator card',
    '',
    `Simulator version: \`${input.simulatorVersion}\`. Validity report: \`${input.reportPath}\` (made by simulator version \`${cell(r.simulatorVersion)}\`${r.simulatorVersion === input.simulatorVersion ? '' : ' — **not the current version: rerun validate-sim**'}).`,
    '',
    `Regenerate: \`${input.command}\`.` +
      (input.before
        ? ` "Before" figures: simulator version \`${input.before.simulatorVersion}\` (commit ${input.before.commit}), kept in \`results/simulator-card.before.json\`, made by ${input.before.commands.map((c) => `\`${c}\``).join(', ')}.`
        : ''),
    '',
  );
  out.push('## Data', '');
  out.push(
    table(
      input.data.map((d) => ({
        task: d.task,
        file: d.file,
        size: d.bytes === null ? 'absent here' : `${(d.bytes / 1024).toFixed(0)} KiB`,
        'dialogues / rows': d.rows,
        what: d.what,
        source: d.source,
        licence: d.licence,
      })),
    ),
    '',
  );
  if (typeof r.split === 'string') out.push(`Split: ${r.split}.`, '');
  if (Array.isArray(r.datasets))
    out.push(
      'Replayed per task (dialogues, dev / held-out, and turns compared):',
      '',
      table(asRecords(r.datasets)),
      '',
    );
  const shown = new Set<string>();
  const fitted = NAMED.filter(([k, h]) => h.includes('fitted') && r[k] !== undefined);
  out.push('## What is fitted', '');
  if (input.fitted) out.push(fittedSection(input.fitted), '');
  else if (fitted.length === 0)
    out.push(
      'This report names no fitted part: the reactions it measures come from the hand-set rules of the version that made it.',
      '',
    );
  for (const [k] of fitted) {
    out.push(genericSection(r[k]), '');
    shown.add(k);
  }
  out.push('## Agreement with people (teacher-forced replay; dev and held-out; 95% intervals)', '');
  out.push(agreement(asRecords(r.rows), asRecords(b.rows)), '');
  if (asRecords(r.rows).some((x) => x.measure === COUNTER_MEASURE)) out.push(COUNTER_NOTE, '');
  out.push('## Dose–response', '');
  out.push(dose(asRecords(r.dose), asRecords(b.dose)), '');
  for (const [k, heading] of NAMED)
    if (!shown.has(k) && !heading.includes('fitted') && r[k] !== undefined) {
      out.push(`## ${heading}`, '', exploitSection(r[k], b[k]) ?? genericSection(r[k]), '');
      shown.add(k);
    }
  if (![...shown].some((k) => k.startsWith('exploit')))
    out.push(
      '## Exploits',
      '',
      'This report holds no exploit table (made with `validate-sim --no-exploits`, or by a version without one).',
      '',
    );
  out.push('## Reply variety (random policy)', '');
  out.push(
    'distinct-n: distinct word n-grams over all n-grams of the replies (Li et al. 2016). Same last line: the episodes that end on the most common closing reply. Longest recited run: the most consecutive words a reply shares with its seed’s situation (ESConv) or listing (CB). Contradictions: replies whose stance, intention or mood words disagree with the simulator’s state (`src/validity/reply-check.ts`). Form slips: replies with a slip of form a reader sees at once — a doubled word, “this children”, “Also, and …”, a bare word after a colon (`src/validity/reply-form.ts`; not measured before).',
    '',
    variety(input.replies, input.before?.replies ?? []),
    '',
  );
  const matched = matchedTable(input.replies);
  if (matched !== null)
    out.push(
      'Next to the human users of the same dialogues, at an equal number of replies (distinct-n falls as more replies are pooled, so only equal counts compare): the first N replies of the simulator, in play order, and the first N user turns of the dialogues the seeds come from, N the smaller count.',
      '',
      matched,
      '',
    );
  if (Array.isArray(r.replies))
    out.push('In the validity report (one episode per dose seed):', '', table(asRecords(r.replies)), '');
  if (Array.isArray(r.policyCheck)) {
    out.push('## Replaying the human actors’ strategies vs random', '');
    out.push(
      table(
        asRecords(r.policyCheck).flatMap((c) =>
          asRecords(c.rows).map((p) => ({
            task: c.task,
            seeds: c.seeds,
            policy: p.policy,
            'success rate': p.successRate,
            turns: p.avgTurns,
            'mean return': p.meanReturn,
            'return − random': p.versusReference,
          })),
        ),
      ),
      '',
    );
  }
  for (const [k, v] of Object.entries(r))
    if (!KNOWN.has(k) && !shown.has(k)) out.push(`## ${k}`, '', genericSection(v), '');
  return `${out.join('\n')}\n`;
}
