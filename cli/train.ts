/**
 * `npm run train`: the train job (src/jobs/train.ts) from the command line — parse, run, format. CSTPO training
 * in Node on tfjs wasm (else cpu), template mode; every step is saved under `--out`, so `--resume` continues an
 * interrupted run exactly; learning curves and the evaluation against SFT and random at the end.
 */
import { ESTIMATE_METHOD_NAMES, formatEstimate } from '../src/entries/evaluation';
import {
  ablationSuffix,
  trainJob,
  TrainJobConfigSchema,
  type TrainJobConfigInput,
  type TrainResult,
  TrainSettingsSchema,
  type Ablations,
} from '../src/entries/training';
import { TASK_IDS, getTask, type Seed, type TaskId } from '../src/entries/simulator';
import {
  DAMAGED_RUN_HINT,
  diskFullMessage,
  exitOnStrayInterrupt,
  listenForInterrupt,
  TrainStoppedError,
} from './interrupt';
import { startProgress } from './progress';
import {
  UsageError,
  bool,
  flagHelp,
  flagValues,
  seedsItems,
  flagsFromSchema,
  flagsFromSettings,
  parseArgsOptions,
  renamedFlags,
  parseCommandLine,
  refuseOutputOverInputs,
  resumeConflictUsage,
  rngSeedValue,
  runCommand,
  SEEDS_HELP,
  seedsValues,
  str,
  strs,
  usageFromSchema,
  type Io,
  SUCCESS_HELP,
} from './options';
import { grpoMain } from './train-grpo';
import { DATASET_HINTS, loadSeedsArg } from './seeds';
import { FolderTrainStorage } from '../src/entries/training-node';
import {
  AbortedError,
  CheckpointError,
  ConfigError,
  countOf,
  DiskFullError,
  hasCode,
  OutputConflictError,
  PathError,
} from '../src/entries/errors';

/** The job's own options (seeds, split, evaluation, resume), generated from its schema. */
const JOB_FLAGS = flagsFromSchema(TrainJobConfigSchema.shape, [
  'seeds',
  'evalFraction',
  'splitSeed',
  'evalSeeds',
  'evalRepeats',
  'resume',
  'overwrite',
]);

/**
 * Every CSTPO setting (src/rl/config.ts `TrainSettingsSchema`) as a generated option of the job's `cstpo` field,
 * named after its field; the master seed is `--rng-seed` as in every command, the ablations `--ablate`.
 */
export const CSTPO_FLAGS = flagsFromSettings(TrainSettingsSchema.shape, 'cstpo', {
  names: { seed: 'rng-seed' },
  skip: ['ablations'],
});

const FLAGS = [...JOB_FLAGS, ...CSTPO_FLAGS];

/** Old spellings, still read with a notice. */
const OLD_FLAGS = { warmup: 'critic-warmup-steps' };

export const HELP = `Usage: npm run train -- --task TASK --out runs/NAME [options]

Train a CSTPO policy (SFT on human labels, then RL with sparse complete-branch sampling) against the
Cog-Sim simulator in template mode, on tfjs wasm (else cpu; the reason is printed). Every step is saved
under --out; --resume continues a stopped run exactly. At the end: learning curves (curves.json, curves.svg) and an evaluation
of the trained policy against its SFT initialisation and the uniform random policy on held-out seeds
(mean terminal return, 95% bootstrap intervals clustered by seed; eval.json).

Options:
  --task TASK          esconv | p4g | cb (required unless --resume)
  --algo ALGO          cstpo (ablations below) or grpo-emollm (EmoLLM Stage II; its own options:
                       npm run train -- --algo grpo-emollm --help) (default: cstpo)
${SEEDS_HELP}
${flagHelp(
  JOB_FLAGS.filter((f) => f.key !== 'seeds'),
  { evalSeeds: '[TASK=]PATH', evalFraction: 'F' },
)}

CSTPO settings (the Cog-Sim paper §3.3, §B.2; with --resume only --steps may differ: the total to reach,
not below the steps the run has done):
${flagHelp(CSTPO_FLAGS)}
  --ablate LIST        comma-separated: no-cog (critic without cognitive-state features), v-only (no
                       hierarchical critic), no-branch (full trajectories at the same number of returns)
  --skip-invalid       skip malformed dataset records instead of stopping
  --out DIR            run folder (required); refused when it holds anything but a run
  --no-eval            skip the final evaluation
  --json               print the per-step figures and the final evaluation as one JSON object
  --seed N             old name of --rng-seed (still works, with a notice)
  --warmup N           old name of --critic-warmup-steps (still works, with a notice)
  -h, --help           show this help

${SUCCESS_HELP}

Example:
  npm run train -- --task esconv --algo cstpo --steps 100 \\
    --seeds ../shared/data/esconv/esconv-valid.jsonl --out runs/esconv-cstpo`;

export { UsageError };

/** Parsed options: the job configuration (validated) and what the CLI does around it. */
export type TrainOptions = TrainJobConfigInput & {
  task?: TaskId;
  out: string;
  skipInvalid: boolean;
  json: boolean;
};

const ABLATIONS = {
  'no-cog': 'cognitiveState',
  'v-only': 'hierarchicalCritic',
  'no-branch': 'branching',
} as const;

/** Parse and validate the command line. @throws UsageError on any mistake. */
export function parseTrainArgs(argv: string[], io?: Io): TrainOptions | 'help' {
  const quiet: Io = io ?? { stdout: () => {}, stderr: () => {}, isTTY: false };
  const given = parseCommandLine(argv, {
    ...parseArgsOptions(FLAGS),
    seeds: { type: 'string', multiple: true },
    'eval-seeds': { type: 'string', multiple: true },
    task: { type: 'string' },
    algo: { type: 'string' },
    ablate: { type: 'string' },
    seed: { type: 'string' },
    warmup: { type: 'string' },
    'skip-invalid': { type: 'boolean' },
    out: { type: 'string' },
    'no-eval': { type: 'boolean' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (bool(given, 'help')) return 'help';
  const values = renamedFlags(given, OLD_FLAGS, quiet);
  if (bool(values, 'resume') && bool(values, 'overwrite'))
    throw new UsageError('give --resume or --overwrite, not both');
  const rngSeed = rngSeedValue(values, quiet);
  const algo = str(values, 'algo') ?? 'cstpo';
  if (algo !== 'cstpo') throw new UsageError(`--algo must be cstpo or grpo-emollm, got "${algo}"`);
  const out = str(values, 'out');
  if (!out) throw new UsageError('--out is required (the run folder, e.g. runs/esconv-cstpo)');
  const task = str(values, 'task');
  if (!bool(values, 'resume') && !task) throw new UsageError('--task is required (esconv, p4g or cb)');
  if (task !== undefined && !(TASK_IDS as readonly string[]).includes(task))
    throw new UsageError(
      `unknown task "${task}"; use ${TASK_IDS.join(', ')}` +
        (task.startsWith('emollm') ? ' (EmoLLM settings train with --algo grpo-emollm)' : ''),
    );
  const ablations: Ablations = { cognitiveState: true, hierarchicalCritic: true, branching: true };
  const ablate = str(values, 'ablate');
  for (const name of (ablate ?? '').split(',').filter((s) => s.trim() !== '')) {
    const key = (ABLATIONS as Record<string, keyof Ablations>)[name.trim()];
    if (!key) throw new UsageError(`unknown ablation "${name}"; use ${Object.keys(ABLATIONS).join(', ')}`);
    ablations[key] = false;
  }
  const { cstpo, ...fields } = flagValues(FLAGS, {
    ...values,
    ...(rngSeed !== undefined ? { 'rng-seed': rngSeed } : {}),
  }) as { cstpo?: Record<string, unknown> } & Record<string, unknown>;
  const seeds = seedsArg(values, 'seeds', task as TaskId | undefined);
  const evalSeeds = seedsArg(values, 'eval-seeds', task as TaskId | undefined);
  const config = {
    ...fields,
    ...(seeds !== undefined ? { seeds } : {}),
    ...(evalSeeds !== undefined ? { evalSeeds } : {}),
    ...(task ? { task } : {}),
    // Only the settings given (the ablations only with --ablate): a resumed run keeps its own.
    cstpo: { ...cstpo, ...(ablate !== undefined ? { ablations } : {}) },
    evaluate: !bool(values, 'no-eval'),
  };
  const parsed = TrainJobConfigSchema.safeParse(config);
  if (!parsed.success) throw usageFromSchema(parsed.error, FLAGS);
  return {
    ...(config as TrainJobConfigInput),
    out,
    skipInvalid: bool(values, 'skip-invalid'),
    json: bool(values, 'json'),
  };
}

/** What `train` reports (the `--json` output): the job's result. */
export type TrainReport = TrainResult;

/**
 * Run the train job described by `opts` in the folder `--out`, holding the folder's lock (a second process on it
 * is refused, naming the first).
 * @throws LockHeldError (OUTPUT_LOCKED); job errors, DataFormatError (DATASET_INVALID), fs errors; TrainStoppedError when the disk filled up.
 */
export async function train(opts: TrainOptions, io: Io): Promise<TrainReport> {
  const storage = new FolderTrainStorage(opts.out);
  const lock = await storage.lock();
  try {
    return await trainLocked(opts, io, storage);
  } finally {
    await lock.release();
  }
}

async function trainLocked(opts: TrainOptions, io: Io, storage: FolderTrainStorage): Promise<TrainReport> {
  const { out, skipInvalid, json, ...config } = opts;
  // Never over an input: the run folder itself, or (with --overwrite, which replaces it whole) one that holds one.
  await refuseOutputOverInputs({ path: out, replaced: () => config.overwrite === true }, [
    { option: 'seeds', value: config.seeds },
    { option: 'eval-seeds', value: config.evalSeeds },
  ]);
  const loadSeeds = async (path: string, task: TaskId): Promise<Seed[]> => {
    const option = path === config.evalSeeds && path !== config.seeds ? 'eval-seeds' : 'seeds';
    const loaded = await loadSeedsArg(option, path, task, { skipInvalid, notice: io.stderr });
    for (const s of loaded.skipped) io.stderr(`skipped: ${s.file}:${s.line}: ${s.reason}\n`);
    if (loaded.warnings.length) io.stderr(`${loaded.warnings.length} dataset warnings\n`);
    return loaded.seeds;
  };
  // Without a terminal, each step's line (below) is the progress.
  const progress = startProgress(io, json || !io.isTTY, 'RL steps');
  // Ctrl-C stops between steps; the run is saved and reported as stopped (--resume continues it).
  const interrupt = listenForInterrupt();
  let saved = 0;
  let total = 0;
  try {
    return await trainJob(config, storage, {
      loadSeeds,
      signal: interrupt.signal,
      onMessage: (text) => {
        if (!json || /^(warning|notice)/.test(text)) io.stderr(text);
      },
      onProgress: (p) => {
        total = p.total;
      },
      onStep: (r) => {
        saved = r.step;
        progress.update(r.step, total, `return ${r.meanReturn.toFixed(3)}`);
        if (!io.isTTY && !json)
          io.stderr(
            `step ${r.step} ${r.phase} return ${r.meanReturn.toFixed(3)} ` +
              `critic ${r.losses.criticLoss.toFixed(4)} (${((r.rolloutMs + r.updateMs) / 1000).toFixed(1)} s)\n`,
          );
      },
    });
  } catch (e) {
    if (hasCode(e, CheckpointError, 'TRAIN_RESUME_CONFLICT')) throw resumeConflictUsage(e, RESUME_FLAGS);
    if (e instanceof DiskFullError)
      throw new TrainStoppedError(
        diskFullMessage(
          e,
          saved > 0
            ? `the run in ${out} keeps its steps up to step ${saved}`
            : `no step of this run was saved`,
          saved > 0 || opts.resume === true,
        ),
        { cause: e },
      );
    throw e;
  } finally {
    interrupt.dispose();
    progress.stop();
    storage.close();
  }
}

/** The command-line option of each job field a resumed run compares. */
const RESUME_FLAGS: Record<string, string> = { task: 'task', 'cstpo.ablations': 'ablate' };
for (const f of FLAGS) RESUME_FLAGS[f.key] = f.flag;

/**
 * `--seeds` / `--eval-seeds` as `[TASK=]PATH|bundled`: a bare value is for the task (or, resuming without
 * `--task`, for the stored run's task). @throws UsageError (see `seedsValues`).
 */
function seedsArg(
  values: Parameters<typeof strs>[0],
  flag: string,
  task: TaskId | undefined,
): string | undefined {
  const raw = strs(values, flag);
  if (raw.length === 0) return undefined;
  if (task !== undefined) return seedsValues(raw, [task], flag)[task];
  const items = seedsItems(raw, flag);
  if (items.length !== 1)
    throw new UsageError(`--${flag} takes one [TASK=]PATH|bundled, got ${items.join(', ')}`);
  const item = items[0] as string;
  const named = TASK_IDS.find((t) => item.startsWith(`${t}=`));
  // Named: checked for that task. Bare, resuming without --task: the stored run's task is not known yet; the path
  // is checked to exist (seedsValues with any one task) and the job compares it with the stored source.
  const forTask = named ?? TASK_IDS[0];
  return seedsValues([item], [forTask], flag)[forTask];
}

const f3 = (v: number) => v.toFixed(3);
const ci = formatEstimate;

/** The human-readable report. */
export function formatReport(r: TrainReport): string {
  const last = r.steps.slice(-10);
  const avg = last.length ? last.reduce((s, x) => s + x.meanReturn, 0) / last.length : NaN;
  const lines = [
    `${getTask(r.config.task).title} · CSTPO${ablationSuffix(r.config.ablations)} · backend ${r.backend}`,
    `seeds: ${r.seeds.train} training (${r.seeds.source}), ${r.seeds.eval} evaluation (${r.seeds.evalSource})`,
    r.sft
      ? `SFT: ${r.sft.examples} examples, final loss ${r.sft.finalLoss?.toFixed(3)}, accuracy ${f3(r.sft.accuracy)}`
      : 'SFT: none',
    `RL: ${r.steps.length}/${r.config.steps} steps (${r.outcome}); mean return of the last ${last.length} steps ${f3(avg)}`,
  ];
  const e = r.evaluation;
  if (e) {
    lines.push(
      `evaluation: ${countOf(e.seeds, 'seed')} × ${countOf(e.repeats, 'episode')}, mean terminal return [95% CI]`,
    );
    for (const [name, p] of Object.entries(e.policies))
      if (p) lines.push(`  ${name.padEnd(8)} ${ci(p.summary.meanReturn)}`);
    if (e.differences.vsSft) lines.push(`  cstpo − sft     ${ci(e.differences.vsSft)}`);
    lines.push(`  cstpo − random  ${ci(e.differences.vsRandom)}`);
    lines.push(
      `  intervals: ${ESTIMATE_METHOD_NAMES['cluster-bootstrap']} over seeds (none from a single seed)`,
    );
    lines.push(
      `  cstpo better (difference interval above 0): sft ${e.beats.sft === null ? 'n/a' : e.beats.sft ? 'yes' : 'no'}, random ${e.beats.random ? 'yes' : 'no'}`,
    );
  }
  lines.push(`files: ${r.files.join(', ')}`);
  return lines.join('\n') + '\n';
}

/** Whether the command line asks for `--algo grpo-emollm` (handled by cli/train-grpo.ts). */
function wantsGrpo(argv: readonly string[]): boolean {
  return argv.some((a, i) => a === '--algo=grpo-emollm' || (a === '--algo' && argv[i + 1] === 'grpo-emollm'));
}

/** CLI entry: returns the process exit code (0 ok, 1 failure, 2 usage error). */
export async function main(argv: string[], io: Io): Promise<number> {
  if (wantsGrpo(argv)) return grpoMain(argv, io);
  return runCommand(
    io,
    async () => {
      const opts = parseTrainArgs(argv, io);
      if (opts === 'help') {
        io.stdout(HELP + '\n');
        return;
      }
      const report = await train(opts, io);
      io.stdout(opts.json ? JSON.stringify(report) + '\n' : formatReport(report));
      if (report.outcome === 'stopped')
        throw new AbortedError(
          'JOB_ABORTED',
          `train stopped: interrupted; the steps done are saved in ${opts.out}; run the same command again with ` +
            '--resume to continue',
        );
    },
    [
      { class: ConfigError, codes: ['JOB_CONFIG_INVALID'] },
      { class: CheckpointError, codes: ['TRAIN_RUN_INVALID', 'TRAIN_RESUME_CONFLICT'] },
      { class: OutputConflictError, codes: ['OUTPUT_CONFLICT', 'TRAIN_RUN_EXISTS'] },
      { class: PathError, codes: ['OUTPUT_PATH_INVALID'] },
      { class: CheckpointError, codes: ['RUN_KIND_MISMATCH'] },
    ],
    [
      ...DATASET_HINTS,
      {
        error: { class: CheckpointError, codes: ['RUN_KIND_MISMATCH'] },
        hint: '(use --algo grpo-emollm for a grpo-emollm run)',
      },
      { error: { class: CheckpointError, codes: ['RL_RUN_DAMAGED'] }, hint: DAMAGED_RUN_HINT },
    ],
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  exitOnStrayInterrupt('train', (s) => process.stderr.write(s));
  process.exitCode = await main(process.argv.slice(2), {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    isTTY: Boolean(process.stderr.isTTY),
  });
}
