/**
 * Re-runs the papers' main studies on the current simulator, small enough for a shared two-core machine:
 *
 * - the baseline table (`baselines`): uniform-random strategy choice, the template prompting baselines (standard,
 *   proactive, ProCoT, ask-an-expert) and EmoLLM's ARG actor (3 candidates, lookahead 3) on every bundled seed of
 *   the task × `--eval-repeats`, with paired return differences against Standard (so ARG vs Standard is a row);
 * - the CSTPO table with its ablations (CSTPO paper §5): full CSTPO, w/o cognitive state (`no-cog`), V-only critic
 *   (`v-only`) and no branching at an equal number of environment returns (`no-branch`), each trained from the
 *   same SFT initialisation and split, and evaluated on the held-out seeds against SFT and random;
 * - Principles vs Standard (Principles paper): a memory built by self-play with backtracking, then the planner
 *   against the Standard policy on the same seeds.
 *
 * Every figure is a mean with a 95% interval as the CLIs report it (cluster bootstrap over seeds; Wilson for
 * success rates). Runs go one after another through the project's own CLIs (`train`, `principles`), so the table
 * is what a researcher gets from those commands. Nothing here is tuned to the papers' numbers.
 *
 * Usage: npm run studies -- [--tasks esconv,p4g,cb] [--studies baselines,cstpo,principles] [--steps 20] [--seeds-per-step 4] [--sft-epochs 100]
 *        [--eval-repeats 4] [--principles-episodes 20] [--rng-seed 0] [--out results/studies] [--overwrite]
 * Writes <out>/studies.json and <out>/studies.md (and the runs under <out>/runs, memories under <out>/memories).
 * `--out` is checked before any work: a new or empty folder, or an earlier studies folder (one holding
 * studies.json) with `--overwrite`, which also lets the runs and memories in it be replaced; anything else exits 2.
 */
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  bool,
  choiceValues,
  parseCommandLine,
  parseNumber,
  rangeText,
  runCommand,
  str,
  type Io,
} from '../cli/options';
import { assertOutputAvailable, writeFileAtomic } from '../src/node';
import { TASK_IDS, type TaskId } from '../src/entries/simulator';
import { OutputConflictError, PathError } from '../src/entries/errors';

const run = promisify(execFile);

/** The studies, in the order they run per task. */
export const STUDY_NAMES = ['baselines', 'cstpo', 'principles'] as const;
type StudyName = (typeof STUDY_NAMES)[number];

/** The baseline table's policies (Standard first: the reference of the paired differences). */
export const BASELINE_POLICIES = [
  'standard',
  'random',
  'proactive',
  'procot',
  'ask-an-expert',
  'arg',
] as const;
/** ARG's candidates and lookahead depth in the baseline table (EmoLLM's G = 3, n = 3, as `studies:emollm`). */
const ARG_CANDIDATES = 3;
const ARG_LOOKAHEAD = 3;

/** The integer options: their flag, default and documented range (the `train` and `principles` jobs' own). */
const NUMBERS = {
  steps: { flag: 'steps', default: 20, min: 1, max: 1_000_000 },
  seedsPerStep: { flag: 'seeds-per-step', default: 4, min: 1, max: 10_000 },
  sftEpochs: { flag: 'sft-epochs', default: 100, min: 0, max: 100_000 },
  evalRepeats: { flag: 'eval-repeats', default: 4, min: 1, max: 1000 },
  principlesEpisodes: { flag: 'principles-episodes', default: 20, min: 1, max: 100_000 },
  rngSeed: { flag: 'rng-seed', default: 0, min: 0, max: 0xffffffff },
} as const;

const range = (key: keyof typeof NUMBERS) =>
  `range ${rangeText(NUMBERS[key])}; default ${NUMBERS[key].default}`;

export const HELP = `Usage: npm run studies -- [options]

Re-runs the papers' main studies on the current simulator through the project's own CLIs (evaluate, train,
principles): the baseline table (random, standard, proactive, ProCoT, ask-an-expert and ARG, paired against
Standard), the CSTPO table with its ablations (no-cog, v-only, no-branch) against SFT and random, and Principles
vs Standard. Writes <out>/studies.json and <out>/studies.md (runs under <out>/runs, memories under <out>/memories).

Options:
  --tasks LIST           tasks, comma-separated: ${TASK_IDS.join(', ')} (default ${TASK_IDS.join(',')})
  --studies LIST         ${STUDY_NAMES.join(', ')} (default all)
  --steps N              RL steps per training run (${range('steps')})
  --seeds-per-step N     seeds per RL step (${range('seedsPerStep')})
  --sft-epochs N         SFT epochs (${range('sftEpochs')})
  --eval-repeats N       episodes per evaluation seed, also of the baseline table (${range('evalRepeats')})
  --principles-episodes N
                         self-play episodes of the principles build (${range('principlesEpisodes')})
  --rng-seed N           seed of the random streams (${range('rngSeed')})
  --out DIR              output folder (default results/studies); checked before any work: a new or empty
                         folder, or an earlier studies folder (one holding studies.json) with --overwrite
  --overwrite            replace an earlier studies folder's files, runs and memories
  -h, --help             show this help
`;

/** The options of a studies run. */
export interface StudiesOptions {
  tasks: TaskId[];
  studies: StudyName[];
  steps: number;
  seedsPerStep: number;
  sftEpochs: number;
  evalRepeats: number;
  principlesEpisodes: number;
  rngSeed: number;
  out: string;
  overwrite: boolean;
}

/**
 * Parses the command line, every value checked before any work.
 * @throws UsageError (cli/options) for an unknown option, task or out-of-range number.
 */
export function parseStudiesArgs(argv: string[]): StudiesOptions | 'help' {
  const values = parseCommandLine(argv, {
    tasks: { type: 'string' },
    studies: { type: 'string' },
    ...Object.fromEntries(Object.values(NUMBERS).map((n) => [n.flag, { type: 'string' as const }])),
    out: { type: 'string' },
    overwrite: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (bool(values, 'help')) return 'help';
  const number = (key: keyof typeof NUMBERS) => {
    const raw = str(values, NUMBERS[key].flag);
    return raw === undefined
      ? NUMBERS[key].default
      : parseNumber(NUMBERS[key].flag, raw, { integer: true, ...NUMBERS[key] });
  };
  return {
    tasks: choiceValues('tasks', str(values, 'tasks') ?? TASK_IDS.join(','), TASK_IDS),
    studies: choiceValues('studies', str(values, 'studies') ?? STUDY_NAMES.join(','), STUDY_NAMES),
    steps: number('steps'),
    seedsPerStep: number('seedsPerStep'),
    sftEpochs: number('sftEpochs'),
    evalRepeats: number('evalRepeats'),
    principlesEpisodes: number('principlesEpisodes'),
    rngSeed: number('rngSeed'),
    out: str(values, 'out') ?? 'results/studies',
    overwrite: bool(values, 'overwrite'),
  };
}

interface Interval {
  mean: number;
  lo: number | null;
  hi: number | null;
}

const VARIANTS = [
  { name: 'CSTPO', ablate: null },
  { name: 'w/o Cog-State', ablate: 'no-cog' },
  { name: 'V-only critic', ablate: 'v-only' },
  { name: 'no branching (equal returns)', ablate: 'no-branch' },
] as const;

/** The JSON object a CLI printed with --json (the last top-level object of its stdout). */
function lastJson(stdout: string): Record<string, unknown> {
  const start = stdout.indexOf('\n{');
  return JSON.parse(stdout.startsWith('{') ? stdout : stdout.slice(start + 1)) as Record<string, unknown>;
}

async function tsx(args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run('npx', ['tsx', ...args], { maxBuffer: 256 * 1024 * 1024 });
  return lastJson(stdout);
}

/** A mean with its interval; a CLI gives no interval (null bounds) where the resamples cannot make one. */
const fmt = (e: Interval | undefined) =>
  !e
    ? '—'
    : e.lo === null || e.hi === null
      ? `${e.mean.toFixed(3)} (no interval)`
      : `${e.mean.toFixed(3)} [${e.lo.toFixed(3)}, ${e.hi.toFixed(3)}]`;

type Summary = { successRate: Interval; meanReturn: Interval; avgTurnsAll: Interval };

/** An `evaluate --json` report, the parts the baseline table reads. */
interface EvaluateReport {
  simulatorVersion: string;
  results: ({ policy: string; episodes: number } & Summary)[];
  paired: ({ policy: string; reference: string; metric: string } & Interval)[];
}

/**
 * The baseline table of one task: every policy of {@link BASELINE_POLICIES} on the task's bundled seeds ×
 * `evalRepeats` through `evaluate` (the same episodes streams for every policy), as Markdown rows and the record.
 */
async function baselineTable(
  task: TaskId,
  o: StudiesOptions,
  replace: string[],
): Promise<{ md: string[]; report: EvaluateReport }> {
  const report = (await tsx([
    'cli/evaluate.ts',
    '--task',
    task,
    '--policy',
    BASELINE_POLICIES.join(','),
    '--reference',
    'standard',
    '--candidates',
    String(ARG_CANDIDATES),
    '--lookahead',
    String(ARG_LOOKAHEAD),
    '--repeats',
    String(o.evalRepeats),
    '--rng-seed',
    String(o.rngSeed),
    '--out',
    join(o.out, 'runs', `${task}-baselines`),
    ...replace,
    '--json',
  ])) as unknown as EvaluateReport;
  const md = [
    `\n## ${task}: baselines and ARG vs Standard (bundled seeds × ${o.evalRepeats}; mean terminal return, success rate, turns)\n`,
    '| policy | episodes | return | success | turns | vs Standard (return) |',
    '|---|---|---|---|---|---|',
  ];
  for (const r of report.results) {
    const d = report.paired.find((x) => x.policy === r.policy && x.metric === 'return');
    md.push(
      `| ${r.policy === 'arg' ? `arg (G = ${ARG_CANDIDATES}, n = ${ARG_LOOKAHEAD})` : r.policy} | ${r.episodes} | ${fmt(r.meanReturn)} | ${fmt(r.successRate)} | ${fmt(r.avgTurnsAll)} | ${r.policy === 'standard' ? '—' : fmt(d)} |`,
    );
  }
  return { md, report };
}

/** Runs the studies of `o` and writes their tables (stdout and `o.out`). */
async function main(o: StudiesOptions, io: Io): Promise<void> {
  const { out, overwrite } = o;
  // studies has no --resume: a refusal names --overwrite only.
  await assertOutputAvailable(out, {
    kind: 'dir',
    ownerMarker: 'studies.json',
    overwrite,
    resumable: false,
  });
  const replace = overwrite ? ['--overwrite'] : [];
  await mkdir(join(out, 'runs'), { recursive: true });
  await mkdir(join(out, 'memories'), { recursive: true });
  const results: Record<string, unknown>[] = [];
  const md: string[] = [];
  let version = '';
  async function cstpoStudy(task: TaskId): Promise<void> {
    md.push(
      `\n## ${task}: CSTPO and ablations (held-out seeds; mean terminal return, success rate, turns)\n`,
    );
    md.push('| variant | return | success | turns | vs SFT (return) | vs random (return) |');
    md.push('|---|---|---|---|---|---|');
    let baselines: Record<string, Summary> = {};
    for (const v of VARIANTS) {
      const dir = join(out, 'runs', `${task}-${v.ablate ?? 'full'}`);
      const started = Date.now();
      const r = await tsx([
        'cli/train.ts',
        '--task',
        task,
        '--steps',
        String(o.steps),
        '--seeds-per-step',
        String(o.seedsPerStep),
        '--sft-epochs',
        String(o.sftEpochs),
        '--eval-repeats',
        String(o.evalRepeats),
        '--rng-seed',
        String(o.rngSeed),
        ...(v.ablate ? ['--ablate', v.ablate] : []),
        '--out',
        dir,
        ...replace,
        '--json',
      ]);
      version = String(r.simulatorVersion);
      const ev = r.evaluation as {
        policies: Record<string, { summary: Summary }>;
        differences: { vsSft: Interval; vsRandom: Interval };
      };
      const s = ev.policies.cstpo?.summary as Summary;
      baselines = {
        SFT: ev.policies.sft?.summary as Summary,
        random: ev.policies.random?.summary as Summary,
      };
      results.push({ study: 'cstpo', task, variant: v.name, summary: s, differences: ev.differences });
      md.push(
        `| ${v.name} | ${fmt(s.meanReturn)} | ${fmt(s.successRate)} | ${fmt(s.avgTurnsAll)} | ${fmt(ev.differences.vsSft)} | ${fmt(ev.differences.vsRandom)} |`,
      );
      io.stderr(`${task} ${v.name}: ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
    }
    for (const [name, s] of Object.entries(baselines))
      if (s)
        md.push(
          `| ${name} (reference) | ${fmt(s.meanReturn)} | ${fmt(s.successRate)} | ${fmt(s.avgTurnsAll)} | | |`,
        );
  }
  async function principlesStudy(task: TaskId): Promise<void> {
    const memory = join(out, 'memories', `${task}.json`);
    const started = Date.now();
    await tsx([
      'cli/principles.ts',
      'build',
      '--task',
      task,
      '--episodes',
      String(o.principlesEpisodes),
      '--rng-seed',
      String(o.rngSeed),
      '--out',
      memory,
      ...replace,
      '--json',
    ]);
    const p = await tsx([
      'cli/principles.ts',
      'eval',
      '--task',
      task,
      '--memory',
      memory,
      '--origins',
      'all',
      '--rng-seed',
      String(o.rngSeed),
      '--json',
    ]);
    results.push({ study: 'principles', task, report: p });
    md.push(`\n## ${task}: Principles vs Standard\n`);
    md.push('| policy | return | success | turns | vs Standard (return) |');
    md.push('|---|---|---|---|---|');
    const rows = (p.rows ?? []) as {
      policy: string;
      summary: Summary;
      vsStandard: { return: Interval } | null;
    }[];
    for (const row of rows)
      md.push(
        `| ${row.policy} | ${fmt(row.summary.meanReturn)} | ${fmt(row.summary.successRate)} | ${fmt(row.summary.avgTurnsAll)} | ${fmt(row.vsStandard?.return)} |`,
      );
    io.stderr(`${task} principles: ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  }
  for (const task of o.tasks) {
    if (o.studies.includes('baselines')) {
      const started = Date.now();
      const b = await baselineTable(task, o, replace);
      version = b.report.simulatorVersion;
      results.push({ study: 'baselines', task, report: b.report });
      md.push(...b.md);
      io.stderr(`${task} baselines: ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
    }
    if (o.studies.includes('cstpo')) await cstpoStudy(task);
    if (o.studies.includes('principles')) await principlesStudy(task);
  }
  const head = [
    `# Studies on simulator ${version}`,
    '',
    `Command: npm run studies -- --tasks ${o.tasks.join(',')} --studies ${o.studies.join(',')} --steps ${o.steps} --seeds-per-step ${o.seedsPerStep} --sft-epochs ${o.sftEpochs} --eval-repeats ${o.evalRepeats} --principles-episodes ${o.principlesEpisodes} --rng-seed ${o.rngSeed}`,
    '',
    'Intervals: 95%, cluster bootstrap over seeds (Wilson for success rates), as the CLIs report them.',
  ];
  await writeFileAtomic(join(out, 'studies.md'), [...head, ...md, ''].join('\n'));
  await writeFileAtomic(
    join(out, 'studies.json'),
    JSON.stringify({ simulatorVersion: version, options: o, results }, null, 1),
  );
  io.stdout([...head, ...md, ''].join('\n'));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const io: Io = {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    isTTY: Boolean(process.stderr.isTTY),
  };
  process.exitCode = await runCommand(io, async () => {
    const o = parseStudiesArgs(process.argv.slice(2));
    if (o === 'help') io.stdout(HELP);
    else await main(o, io);
  }, [OutputConflictError, PathError]);
}
