/**
 * The validity report of `validate-sim` (docs/architecture.md "Simulator validation"): the teacher-forced
 * replay table (dev and held-out), the dose–response of each task, the replay-vs-random check and the exploit
 * table (held-out seeds), as one JSON-safe object and as Markdown. Every report names the simulator version that
 * produced it.
 */
import { RandomPolicy, ReplayPolicy } from '../agents/policies';
import type { SimRoles } from '../sim/roles';
import { SIMULATOR_VERSION } from '../sim/version';
import type { BootstrapInterval } from '../stats/bootstrap';
import { formatEstimate, type Estimate } from '../stats/intervals';
import type { StatisticInterval } from '../stats/cluster-bootstrap';
import { TASK_IDS, type Seed, type TaskId } from '../tasks/seed';
import { SUCCESS_TEXT } from '../tasks/success';
import {
  HELD_OUT_MODULUS,
  replayDialogues,
  splitOf,
  splitSeeds,
  type ReplayDialogue,
  type ValidityFiles,
} from './datasets';
import { doseMarkdown, doseRow, type DoseRow } from '../eval/dose';
import type { LadderFile } from './ladder';
import { COUNTER_MEASURE, COUNTER_NOTE, validityRowTasks, type ValidityRow } from './metrics';
import { AbortedError } from '../errors';
import { countOf } from '../errors/plural';
import { buildExploitTable, SALAD_TARGET, type ExploitTable } from './exploit-table';
import { comparePolicies, policyRow } from './policy-check';
import { replyRow, type ReplyRow } from './replies';
import { replayDialogue, type ReplayedDialogue } from './replay';

/** The replay-vs-random check of one task. */
export interface PolicyCheck {
  task: TaskId;
  seeds: number;
  rows: ReturnType<typeof policyRow>[];
}

/** The whole report. */
export interface ValidityReport {
  simulatorVersion: string;
  /** How dialogues are split: the held-out share and rule. */
  split: string;
  /** Per task: dialogues replayed (dev / held-out) and turns compared. */
  datasets: { task: TaskId; purpose: 'turns' | 'outcome'; dev: number; heldOut: number; steps: number }[];
  rows: ValidityRow[];
  dose: DoseRow[];
  /** Variety of the template user's replies per task (random policy, one episode per dose seed). */
  replies: ReplyRow[];
  policyCheck: PolicyCheck[];
  /**
   * Each exploit against the adaptive script on held-out seeds, and how the user takes word salad
   * (`./exploit-table`); absent when skipped (`exploitSeeds: 0`).
   */
  exploits?: ExploitTable;
  success: Record<TaskId, string>;
  /**
   * Present only when the replay was cut (`sample` / `maxTurns` of {@link ValidityReportOptions}): how. A report
   * without it replayed every dialogue whole.
   */
  sample?: { dialoguesPerSplit: number | null; maxTurns: number | null };
  /**
   * Present only when the teacher-forced replay ran on language-model roles (the caller fills it): which backend
   * played each simulator role, its calls and tokens, and what each backend records about its model (file,
   * SHA-256, settings). Without it, every role was the template's.
   */
  language?: ValidityLanguage;
}

/** Which roles of the teacher-forced replay ran on which backend (see {@link ValidityReport.language}). */
export interface ValidityLanguage {
  /** What ran on these roles (the teacher-forced replay; dose–response, reply variety and the check stay template). */
  scope: string;
  /** One row per simulator role: `template` or the backend's name, and its calls and tokens. */
  roles: {
    role: string;
    backend: string;
    calls: number;
    promptTokens: number;
    completionTokens: number;
  }[];
  /** What each backend records about its model (`ChatBackend.info`). */
  models: Record<string, unknown>[];
}

/** Options of {@link buildValidityReport}. */
export interface ValidityReportOptions {
  files: ValidityFiles;
  /** A researcher's ladders by task; tasks without one use the project's own. */
  ladder?: LadderFile;
  /** Dev seeds per task for dose–response (default 20). */
  doseSeeds?: number;
  /** Dev seeds per task for the replay-vs-random check (default 20; 0 skips it). */
  checkSeeds?: number;
  /**
   * Held-out seeds per task for the exploit table (default 20; 0 skips it): the first this many held-out
   * dialogues' seeds, or the bundled seeds of a task whose files hold no held-out dialogue.
   */
  exploitSeeds?: number;
  /** Bootstrap resamples (default 2,000). */
  resamples?: number;
  /** Progress messages (e.g. to stderr). */
  onProgress?: (message: string) => void;
  /**
   * Score the whole of the given files as held-out (an outside test file: no internal split). Dose and
   * check seeds are then drawn from these files too.
   */
  allHeldOut?: boolean;
  /** Called after each human dialogue is replayed: `done` of `total` (for a progress bar with an ETA). */
  onReplayed?: (done: number, total: number) => void;
  /** Called after each row of the validity table is bootstrapped: `done` of `total` (each about a second). */
  onRow?: (done: number, total: number) => void;
  /**
   * Simulator roles of the teacher-forced replay (default: the template roles). Dose–response, reply variety and
   * the replay-vs-random check always use the template roles. The responder's reply is discarded by the replay
   * (the human's reply goes into the history), so only the mode classifier and the change proposer decide.
   */
  roles?: SimRoles;
  /**
   * Replay only the first `sample` dialogues (file order) of each task, purpose and split (dev, held-out), ≥ 1:
   * a small run for a slow model. Dose–response and the check draw their seeds from every dialogue as before.
   */
  sample?: number;
  /**
   * Replay only the first `maxTurns` actor turns of each dialogue (≥ 1); dialogue-level rows then read the
   * simulator's state at the cut.
   */
  maxTurns?: number;
  /**
   * Stops the report at its next safe point (between replayed dialogues, table rows, tasks and phases; at most
   * about a second apart): it then rejects with {@link AbortedError} (JOB_ABORTED) and returns nothing.
   */
  signal?: AbortSignal;
}

/**
 * A safe-point check for a long synchronous computation: throws when `signal` is aborted; when at least 100 ms
 * have passed since the last pause, first lets pending events run (an interrupt's handler among them). Without a
 * signal it never pauses.
 * @throws AbortedError (JOB_ABORTED) once `signal` is aborted.
 */
function safePoints(signal: AbortSignal | undefined): () => Promise<void> {
  let last = Date.now();
  const check = (): void => {
    if (signal?.aborted)
      throw new AbortedError('JOB_ABORTED', `validity report stopped: ${String(signal.reason ?? 'aborted')}`);
  };
  return async () => {
    check();
    if (!signal || Date.now() - last < 100) return;
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    last = Date.now();
    check();
  };
}

/**
 * The dialogues to replay: the first `sample` of each task, purpose and split, each cut to `maxTurns` steps
 * (either left out: no limit).
 */
function sampleDialogues(
  dialogues: readonly ReplayDialogue[],
  options: Pick<ValidityReportOptions, 'sample' | 'maxTurns' | 'allHeldOut'>,
): ReplayDialogue[] {
  const taken = new Map<string, number>();
  const out: ReplayDialogue[] = [];
  for (const d of dialogues) {
    const key = `${d.task}/${d.purpose}/${options.allHeldOut ? 'held-out' : splitOf(d.id)}`;
    const n = taken.get(key) ?? 0;
    if (options.sample !== undefined && n >= options.sample) continue;
    taken.set(key, n + 1);
    out.push(options.maxTurns === undefined ? d : { ...d, steps: d.steps.slice(0, options.maxTurns) });
  }
  return out;
}

/** Dev seeds of a task's turn-level dialogues (`withReference`: only those with the human actor's strategies). */
function devSeeds(
  dialogues: readonly ReplayDialogue[],
  task: TaskId,
  n: number,
  withReference: boolean,
  allHeldOut = false,
): Seed[] {
  return splitSeeds(dialogues, task, n, 'dev', {
    allHeldOut,
    keep: (d) => d.purpose === 'turns' && (!withReference || (d.seed.reference?.strategies.length ?? 0) > 0),
  });
}

/**
 * Replay every dialogue of `files`, compute the table, run dose–response and the replay-vs-random check.
 * @throws InputError (VALIDITY_INPUT) / DataFormatError (DATASET_INVALID) for bad files; errors of the simulator's
 *   roles; AbortedError (JOB_ABORTED) when `options.signal` aborts.
 */
export async function buildValidityReport(options: ValidityReportOptions): Promise<ValidityReport> {
  const progress = options.onProgress ?? (() => undefined);
  const pause = safePoints(options.signal);
  const dialogues = replayDialogues(options.files);
  const cut = options.sample !== undefined || options.maxTurns !== undefined;
  const sampled = cut ? sampleDialogues(dialogues, options) : dialogues;
  progress(`replaying ${sampled.length} human dialogues teacher-forced`);
  const replayed: ReplayedDialogue[] = [];
  for (const d of sampled) {
    replayed.push(await replayDialogue(d, options.roles ? { roles: options.roles } : {}));
    options.onReplayed?.(replayed.length, sampled.length);
    await pause();
  }
  const datasets: ValidityReport['datasets'] = [];
  for (const task of TASK_IDS)
    for (const purpose of ['turns', 'outcome'] as const) {
      const list = sampled.filter((d) => d.task === task && d.purpose === purpose);
      if (list.length === 0) continue;
      const held = options.allHeldOut ? list.length : list.filter((d) => splitOf(d.id) === 'held-out').length;
      datasets.push({
        task,
        purpose,
        dev: list.length - held,
        heldOut: held,
        steps: list.reduce((s, d) => s + d.steps.length, 0),
      });
    }
  progress('bootstrapping the validity table');
  const rows: ValidityRow[] = [];
  const rowTasks = validityRowTasks(replayed, {
    resamples: options.resamples,
    ...(options.allHeldOut ? { allHeldOut: true } : {}),
  });
  for (const [i, task] of rowTasks.entries()) {
    await pause();
    const row = task();
    if (row !== null) rows.push(row);
    options.onRow?.(i + 1, rowTasks.length);
  }
  const tasks = TASK_IDS.filter((t) => dialogues.some((d) => d.task === t && d.purpose === 'turns'));
  const dose: DoseRow[] = [];
  const replies: ReplyRow[] = [];
  for (const task of tasks) {
    const seeds = devSeeds(dialogues, task, options.doseSeeds ?? 20, false, options.allHeldOut);
    if (seeds.length === 0) continue;
    await pause();
    progress(`dose–response on ${task} (${countOf(seeds.length, 'seed')})`);
    const ladder = options.ladder?.[task];
    dose.push(await doseRow(task, seeds, ladder));
    await pause();
    progress(`reply variety on ${task} (${countOf(seeds.length, 'episode')})`);
    replies.push(await replyRow(task, seeds));
  }
  const policyCheck: PolicyCheck[] = [];
  const checkSeeds = options.checkSeeds ?? 20;
  for (const task of checkSeeds > 0 ? tasks : []) {
    const seeds = devSeeds(dialogues, task, checkSeeds, true, options.allHeldOut);
    if (seeds.length === 0) continue;
    await pause();
    progress(`replay vs random on ${task} (${countOf(seeds.length, 'seed')})`);
    const results = await comparePolicies(
      task,
      seeds,
      { random: () => new RandomPolicy(task), replay: () => new ReplayPolicy(task) },
      { resamples: options.resamples, reference: 'random' },
    );
    policyCheck.push({ task, seeds: seeds.length, rows: results.map(policyRow) });
  }
  const exploitSeeds = options.exploitSeeds ?? 20;
  await pause();
  const exploits =
    exploitSeeds > 0
      ? await buildExploitTable(
          dialogues,
          TASK_IDS.filter((t) => dialogues.some((d) => d.task === t)),
          {
            seeds: exploitSeeds,
            ...(options.resamples !== undefined ? { resamples: options.resamples } : {}),
            ...(options.allHeldOut ? { allHeldOut: true } : {}),
            onProgress: progress,
          },
        )
      : undefined;
  return {
    simulatorVersion: SIMULATOR_VERSION,
    split: options.allHeldOut
      ? 'held-out: every dialogue of the given files (--all-held-out: an outside test file, no internal split)'
      : `held-out: dialogues whose FNV-1a hash of "validity-split:<dialogue id>" is 0 mod ${HELD_OUT_MODULUS} (about ${Math.round(100 / HELD_OUT_MODULUS)}%); never used to choose rules`,
    datasets,
    rows,
    dose,
    replies,
    policyCheck,
    ...(exploits ? { exploits } : {}),
    success: { ...SUCCESS_TEXT },
    ...(cut
      ? { sample: { dialoguesPerSplit: options.sample ?? null, maxTurns: options.maxTurns ?? null } }
      : {}),
  };
}

const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');
const ci = (s: StatisticInterval | Estimate) =>
  'estimate' in s ? `${f3(s.estimate)} [${f3(s.lo)}, ${f3(s.hi)}]` : formatEstimate(s);
const diff = (d: Pick<BootstrapInterval, 'mean' | 'lo' | 'hi'>) => `${f3(d.mean)} [${f3(d.lo)}, ${f3(d.hi)}]`;

/**
 * The report as Markdown: one table for the replay, one for dose–response, one for reply variety, one for the
 * policy check, and the exploit tables.
 */
export function reportMarkdown(r: ValidityReport): string {
  const out: string[] = [];
  out.push(
    `# Cog-Sim validity report`,
    '',
    `Simulator version: \`${r.simulatorVersion}\``,
    '',
    `Split: ${r.split}.`,
    '',
  );
  if (r.sample)
    out.push(
      `Sample: ${r.sample.dialoguesPerSplit === null ? 'every dialogue' : `the first ${r.sample.dialoguesPerSplit} dialogue${r.sample.dialoguesPerSplit === 1 ? '' : 's'} of each task, purpose and split`}` +
        `${r.sample.maxTurns === null ? '' : `, each cut to its first ${r.sample.maxTurns} actor turn${r.sample.maxTurns === 1 ? '' : 's'} (dialogue-level rows read the state at the cut)`}.`,
      '',
    );
  if (r.language) {
    out.push(`Language roles (${r.language.scope}):`, '');
    for (const x of r.language.roles)
      out.push(
        `- ${x.role}: ${x.backend} (${x.calls} calls, ${x.promptTokens} prompt + ${x.completionTokens} answer tokens)`,
      );
    for (const m of r.language.models) out.push(`- model: \`${JSON.stringify(m)}\``);
    out.push('');
  }
  out.push('## Teacher-forced replay against real human reactions', '');
  out.push(
    '| task | split | level | measure | n (dialogues) | simulator [95% CI] | baselines [95% CI] | sim − baseline [95% CI] | beats |',
  );
  out.push('|---|---|---|---|---|---|---|---|---|');
  for (const row of r.rows) {
    const names = Object.keys(row.baselines);
    out.push(
      `| ${row.task} | ${row.split} | ${row.level} | ${row.measure} | ${row.n} (${row.dialogues}) | ${ci(row.simulator)} | ` +
        `${names.map((n) => `${n}: ${ci(row.baselines[n] as StatisticInterval)}`).join('<br>')} | ` +
        `${names.map((n) => `${n}: ${ci(row.differences[n] as StatisticInterval)}`).join('<br>')} | ` +
        `${row.beats.length > 0 ? row.beats.join(', ') : 'none'} |`,
    );
  }
  if (r.rows.some((row) => row.measure === COUNTER_MEASURE)) out.push('', COUNTER_NOTE);
  out.push('', '## Dose–response', '');
  out.push(doseMarkdown(r.dose));
  out.push('', '## Variety of the user’s replies (random policy, one episode per dose seed)', '');
  out.push(
    '| task | episodes | replies | distinct-1 | distinct-2 | verbatim repeats of the previous reply |',
  );
  out.push('|---|---|---|---|---|---|');
  for (const x of r.replies)
    out.push(
      `| ${x.task} | ${x.episodes} | ${x.replies} | ${f3(x.distinct1)} | ${f3(x.distinct2)} | ${x.verbatimRepeats} |`,
    );
  if (r.policyCheck.length > 0) {
    out.push('', '## Replaying the human actors’ strategies vs random (a check, not a target)', '');
    out.push(
      '| task | policy | seeds | success rate | turns | mean return | return − random | endings (contradictions) |',
    );
    out.push('|---|---|---|---|---|---|---|---|');
    for (const c of r.policyCheck)
      for (const p of c.rows)
        out.push(
          `| ${c.task} | ${p.policy} | ${c.seeds} | ${ci(p.successRate)} | ${ci(p.avgTurns)} | ${ci(p.meanReturn)} | ` +
            `${p.versusReference ? diff(p.versusReference) : '—'} | ` +
            `${Object.entries(p.endings.byLabel)
              .map(([k, v]) => `${k}: ${v}`)
              .join('; ')} (${p.endings.contradictions}) |`,
        );
  }
  if (r.exploits) out.push('', exploitMarkdown(r.exploits));
  out.push('', '## What success means', '');
  // The tasks this report holds (every task when it replayed none).
  const reported = TASK_IDS.filter((t) => r.datasets.some((d) => d.task === t));
  for (const t of reported.length > 0 ? reported : TASK_IDS) out.push(`- **${t}**: ${r.success[t]}`);
  return `${out.join('\n')}\n`;
}

/**
 * The exploit table as Markdown: per task, each exploit's return against the adaptive script with the paired
 * interval and verdict; then how the user takes word salad.
 */
export function exploitMarkdown(t: ExploitTable): string {
  const out: string[] = ['## Exploits against the adaptive script', '', `Design: ${t.design}.`, ''];
  out.push(
    '| task | seeds | exploit | success rate | mean return | exploit − script [95% CI] | verdict | accepted Influence turns |',
  );
  out.push('|---|---|---|---|---|---|---|---|');
  for (const x of t.tasks) {
    const seeds = `${x.seeds} ${x.seedSource}`;
    out.push(
      `| ${x.task} | ${seeds} | adaptive script | ${ci(x.script.successRate)} | ${ci(x.script.meanReturn)} | — | — | — |`,
    );
    for (const row of x.rows)
      out.push(
        `| ${x.task} | ${seeds} | ${row.exploit} | ${ci(row.successRate)} | ${ci(row.meanReturn)} | ` +
          `${diff(row.difference)} | ${row.verdict} | ${f3(row.acceptedInfluenceTurns)} |`,
      );
  }
  out.push(
    '',
    `### Word salad: an accepted Influence turn? (target: not on ≥ ${Math.round(SALAD_TARGET * 100)}% of seeds)`,
    '',
  );
  out.push(
    '| task | seeds | word salad | first turn (mode/judgment: seeds) | first turn accepted | episode with an accepted turn | never accepted [95% CI] | target met | first-turn valence change: salad vs script |',
  );
  out.push('|---|---|---|---|---|---|---|---|---|');
  for (const x of t.tasks) {
    const w = x.wordSalad;
    out.push(
      `| ${x.task} | ${w.seeds} | ${w.utterance} | ${Object.entries(w.firstTurn)
        .map(([k, v]) => `${k}: ${v}`)
        .join('; ')} | ${w.firstTurnAccepted}/${w.seeds} | ${w.episodeAccepted}/${w.seeds} | ` +
        `${ci(w.neverAccepted)} | ${w.meetsTarget ? 'yes' : 'no'} | ` +
        `${diff(w.firstTurnValenceChange)} vs ${diff(w.scriptFirstTurnValenceChange)} (rises on ${w.firstTurnMoodRises}/${w.seeds}) |`,
    );
  }
  return out.join('\n');
}
