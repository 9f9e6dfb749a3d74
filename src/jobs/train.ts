/**
 * The train job: CSTPO training of one run (paper §4; SFT on the training seeds' human labels, then RL steps),
 * its train/evaluation split, learning curves and the final evaluation of the trained policy against its SFT
 * initialisation and the uniform random policy on held-out seeds (95% bootstrap intervals clustered by seed).
 *
 * Everything the run keeps goes through a {@link TrainStorage}: the trainer's run store (every step saved, so
 * `resume` continues an interrupted run exactly) and a few named text files (`split.json`, created with the run, `curves.json`,
 * `curves.svg`, `eval.json`). Node supplies folder storage (`src/jobs/train-node.ts`); a browser can supply
 * IndexedDB storage with the same interface. Seeds are named by a source (`bundled` or a caller-defined name such
 * as a file path) and loaded through the caller's `loadSeeds`, so a resumed run reloads its training seeds by id.
 */
import { z } from 'zod';
import type { WasmBackendOptions } from '../gpu/wasm';
import { resolveConfig, TrainSettingsSchema, type TrainConfig, type TrainSettingsInput } from '../rl/config';
import { evaluateRun, type RunEvaluation } from '../rl/evaluate';
import { learningCurveSvg, learningCurves } from '../rl/plot';
import { TrainingSession } from '../rl/session';
import type { CstpoRunTypes, RunStatus, RunStore } from '../rl/store';
import type { RunStorage } from '../runs/storage';
import type { StepRecord, TrainerOptions } from '../rl/trainer';
import type { RolloutExecutor } from '../rl/executor';
import type { BackendChoice } from '../gpu/backend';
import { DEFAULT_SPLIT_SEED, splitByKey } from '../seeding';
import { SIMULATOR_VERSION } from '../sim/version';
import { getTask, type Seed, type TaskId } from '../tasks';
import { defaultSeeds } from '../tasks/defaults';
import { parseJobConfig, TaskField, type JobOptions } from './common';
import { stepsBelowDoneError, trainResumeConflictError } from './errors';
import { moveOldFields, openTrainRun, resumeSplit } from './train-common';
import { countOf } from '../errors/plural';
import { CheckpointError } from '../errors';

const int = (min: number, max: number) => z.number().int().min(min).max(max);

/**
 * The train job's configuration: the job's own fields (seeds, split, evaluation, resume) and, nested as `cstpo`,
 * the trainer's whole configuration but the task (src/rl/config.ts `TrainSettingsSchema`, its field names and
 * defaults unchanged), as TRL nests a trainer's config in a script's arguments. Each field's description is its
 * command-line `--help` line; every `cstpo` field is a generated flag (cli/train.ts).
 */
export const TrainJobConfigSchema = z
  .object({
    task: TaskField.optional(),
    seeds: z
      .string()
      .min(1)
      .default('bundled')
      .describe('seed source: bundled (the authored seeds) or a name the caller loads (a dataset path)'),
    evalSeeds: z
      .string()
      .min(1)
      .optional()
      .describe(
        'evaluate on these seeds instead (all of seeds then train); with resume: evaluate the run on these ' +
          'seeds as well (written to eval-<name>.json)',
      ),
    evalFraction: z
      .number()
      .gt(0)
      .lt(1)
      .default(0.25)
      .describe('share of the seeds held out for evaluation, in (0, 1)'),
    splitSeed: int(0, 0xffffffff)
      .default(DEFAULT_SPLIT_SEED)
      .describe('random seed of the train/evaluation split'),
    evalRepeats: int(1, 1000).default(4).describe('episodes per evaluation seed'),
    cstpo: TrainSettingsSchema.prefault({}).describe(
      "the CSTPO trainer's settings (src/rl/config.ts; with resume, only steps, the new total, may differ)",
    ),
    resume: z
      .boolean()
      .default(false)
      .describe(
        'continue the stored run (its configuration and split are reused; refused when the run was ' +
          'made by another simulator version)',
      ),
    overwrite: z.boolean().default(false).describe('replace the stored run'),
    evaluate: z.boolean().default(true).describe('evaluate the trained policy at the end'),
  })
  .superRefine((c, ctx) => {
    if (c.resume && c.overwrite)
      ctx.addIssue({ code: 'custom', path: ['overwrite'], message: 'give resume or overwrite, not both' });
    if (!c.resume && c.task === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['task'],
        message: 'required unless resuming (esconv, p4g or cb)',
      });
  });

/**
 * The job's fields of earlier versions, now in `cstpo` under the trainer's names: still accepted, moved once at
 * the start of {@link trainJob} with a notice.
 */
export const OLD_TRAIN_FIELDS = {
  steps: 'steps',
  seedsPerStep: 'seedsPerStep',
  checkpoints: 'checkpoints',
  sftEpochs: 'sftEpochs',
  warmup: 'criticWarmupSteps',
  horizon: 'horizon',
  rngSeed: 'seed',
  ablations: 'ablations',
} as const satisfies Record<string, keyof TrainSettingsInput>;

/** The job fields of earlier versions (see {@link OLD_TRAIN_FIELDS}). */
export interface OldTrainJobFields {
  /** @deprecated use `cstpo.steps` */
  steps?: number;
  /** @deprecated use `cstpo.seedsPerStep` */
  seedsPerStep?: number;
  /** @deprecated use `cstpo.checkpoints` */
  checkpoints?: number;
  /** @deprecated use `cstpo.sftEpochs` */
  sftEpochs?: number;
  /** @deprecated use `cstpo.criticWarmupSteps` */
  warmup?: number;
  /** @deprecated use `cstpo.horizon` */
  horizon?: number;
  /** @deprecated use `cstpo.seed` */
  rngSeed?: number;
  /** @deprecated use `cstpo.ablations` */
  ablations?: TrainSettingsInput['ablations'];
}

/** The train job's configuration as given (defaults not yet applied; old field names still accepted). */
export type TrainJobConfigInput = z.input<typeof TrainJobConfigSchema> & OldTrainJobFields;
/** The train job's configuration (validated, defaults applied). */
export type TrainJobConfig = z.output<typeof TrainJobConfigSchema>;

/**
 * Where a CSTPO run lives (src/runs/storage.ts `RunStorage`): Node: a folder (`FolderTrainStorage` in
 * `./train-node`); browser: IndexedDB (`IdbTrainStorage` in `./stored`). Text files are written atomically: a
 * crash leaves the previous version or the new one, never a mix.
 */
export type TrainStorage = RunStorage<CstpoRunTypes>;

/** The seeds of a run, split into training and evaluation seeds by id (`split.json`). */
export interface TrainSplit {
  /** The simulator the run trains against (`SIMULATOR_VERSION`); a run is resumed only by the same one. */
  simulatorVersion?: string;
  source: string;
  evalSource: string;
  train: string[];
  eval: string[];
  /** The split's settings and the evaluation's repeats (absent in runs made before they were recorded). */
  evalFraction?: number;
  splitSeed?: number;
  evalRepeats?: number;
}

/** One setting given to a resumed run that differs from the stored one (`key`: the job configuration's field). */
export interface ResumeConflict {
  key: string;
  given: unknown;
  stored: unknown;
}

/** Options of {@link trainJob}. `onProgress` counts RL steps; aborting stops between steps. */
export interface TrainJobOptions extends JobOptions {
  /** Loads the seeds of a source other than `bundled` (e.g. a dataset path). Needed for any such source. */
  loadSeeds?: (source: string, task: TaskId) => Promise<Seed[]>;
  /** Human-readable notes while the job runs (phase changes, warnings). */
  onMessage?: (text: string) => void;
  /** Called after each RL step with its figures. */
  onStep?: (record: StepRecord) => void;
  /** Where tfjs's wasm backend finds its binaries (see `OpenTrainRunOptions.wasm` in ./train-common.ts). */
  wasm?: WasmBackendOptions;
  /** A tfjs backend chosen and activated by the caller (see `OpenTrainRunOptions.backend`); default: wasm, else cpu. */
  backend?: BackendChoice;
  /**
   * Makes where the run's rollouts run, for its resolved configuration (default: in this thread; e.g. a pool of
   * rollout workers). Called once the configuration is known; the job disposes what it makes.
   */
  executor?: (config: TrainConfig) => Promise<RolloutExecutor>;
  /** SFT progress (examples replayed, epochs done). */
  onSft?: TrainerOptions['onSft'];
  /** The stored run's status as it changes (running, then finished, stopped or paused). */
  onStatus?: (status: RunStatus) => void;
  /** Train up to this step only (the run then ends `stopped`, resumable); default: the configured steps. */
  untilStep?: number;
}

/**
 * The final evaluation (policy summaries and strategy distributions; per-episode rows left out). `step`: the RL
 * steps the evaluated policy was trained for (a resumed run that trains on without evaluating keeps the older
 * file, which this names as older).
 */
export type TrainEvaluation = Omit<RunEvaluation, 'policies'> & {
  step: number;
  policies: Record<
    string,
    { summary: RunEvaluation['policies']['cstpo']['summary']; strategyDistribution: number[] } | null
  >;
};

/** What the train job reports (the CLI's `--json` output). */
export interface TrainResult {
  runId: string;
  out: string;
  backend: string;
  simulatorVersion: string;
  config: TrainConfig;
  seeds: { source: string; train: number; evalSource: string; eval: number };
  sft: { examples: number; finalLoss: number | null; accuracy: number } | null;
  /** `stopped`: aborted between steps; the run is saved and `resume` continues it. */
  outcome: 'finished' | 'stopped';
  steps: StepRecord[];
  evaluation: TrainEvaluation | null;
  files: string[];
}

const SPLIT_FILE = 'split.json';

/** Split `seeds` into training and evaluation seeds: the library's one split (src/seeding `splitByKey`). */
function splitSeeds(seeds: readonly Seed[], fraction: number, seed: number): { train: Seed[]; eval: Seed[] } {
  const nEval = Math.min(seeds.length - 1, Math.max(1, Math.round(seeds.length * fraction)));
  const parts = splitByKey(seeds, (s) => s.id, nEval, seed);
  return { eval: parts.heldOut, train: parts.rest };
}

/** The title suffix naming the ablations that are off (paper §5.3). */
export function ablationSuffix(a: TrainConfig['ablations']): string {
  const off = [
    !a.cognitiveState && 'w/o Cog-State',
    !a.hierarchicalCritic && 'V only',
    !a.branching && 'no branching',
  ];
  const names = off.filter((x): x is string => typeof x === 'string');
  return names.length ? ` (${names.join(', ')})` : '';
}

/**
 * Runs (or resumes) one CSTPO training run on tfjs wasm (else cpu, see ./train-common.ts), template mode; then writes the learning
 * curves and, when `evaluate` and the run finished, the evaluation (`eval.json`, or `eval-<name>.json` for extra
 * evaluation seeds of a resumed run). The same configuration gives the same weights and history.
 * @throws ConfigError (JOB_CONFIG_INVALID) for an invalid configuration; CheckpointError (no run to resume, another simulator
 * version, missing seeds, fewer than 2 seeds); the storage's guard errors; AbortedError (JOB_ABORTED) when aborted before
 * training starts (aborted during RL, the saved run is reported as `stopped`).
 */
export async function trainJob(
  input: TrainJobConfigInput,
  storage: TrainStorage,
  options: TrainJobOptions = {},
): Promise<TrainResult> {
  const note = (s: string) => options.onMessage?.(s);
  const given = moveOldFields(input, 'cstpo', OLD_TRAIN_FIELDS, 'train', note);
  const c = parseJobConfig(TrainJobConfigSchema, given, 'train');
  const load = async (source: string, task: TaskId): Promise<Seed[]> => {
    if (source === 'bundled') return defaultSeeds(task);
    if (!options.loadSeeds)
      throw new CheckpointError('TRAIN_RUN_INVALID', `no loader for the seed source "${source}"`);
    return options.loadSeeds(source, task);
  };
  const { state, backend: choice } = await openTrainRun(storage, 'train', {
    resume: c.resume,
    overwrite: c.overwrite,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.wasm ? { wasm: options.wasm } : {}),
    ...(options.backend ? { backend: options.backend } : {}),
  });
  const store = storage.runs;
  /** A session made with the caller's executor (disposed when making the session fails). */
  const withExecutor = async (
    config: TrainConfig,
    make: (o: { store: RunStore; backend: string; executor?: RolloutExecutor }) => Promise<TrainingSession>,
  ): Promise<TrainingSession> => {
    const executor = options.executor ? await options.executor(config) : undefined;
    return make({ store, backend: choice.summary, ...(executor ? { executor } : {}) }).catch(
      async (e: unknown) => {
        await executor?.dispose();
        throw e;
      },
    );
  };
  const runId = storage.runId;
  let session: TrainingSession;
  let split: TrainSplit;
  let task: TaskId;
  if (c.resume) {
    const stored = await store.load(runId);
    if (!stored)
      throw new CheckpointError(
        'TRAIN_RUN_INVALID',
        `no run to resume in ${storage.location}` +
          ((await storage.readText(SPLIT_FILE)) !== null
            ? ' (it stopped before its first save; overwrite it to start again)'
            : ''),
      );
    const storedTask = stored.run.config.task;
    task = storedTask;
    const resumed = await resumeSplit<TrainSplit>(
      storage,
      SPLIT_FILE,
      load,
      () => storedTask,
      (found) => {
        const conflicts = resumeConflicts(given, stored.run.config, found);
        if (conflicts.length > 0) throw trainResumeConflictError(storage.location, conflicts);
      },
    );
    split = resumed.split;
    const seeds = resumed.seeds;
    const steps = given.cstpo?.steps;
    if (steps !== undefined && steps < stored.latest.step)
      throw stepsBelowDoneError(storage.location, steps, stored.latest.step, stored.latest.config.steps);
    session = await withExecutor(stored.run.config, (o) =>
      TrainingSession.resume(runId, { ...o, seeds }, given.cstpo?.steps),
    );
  } else {
    task = c.task as TaskId;
    const all = await load(c.seeds, task);
    // Split, the seeds must give one of each; with evaluation seeds of their own, all of them train.
    const least = c.evalSeeds === undefined ? 2 : 1;
    if (all.length < least)
      throw new CheckpointError('TRAIN_RUN_INVALID', `need at least ${least} seeds, got ${all.length}`);
    let trainSeeds: Seed[];
    let evalSeeds: Seed[];
    if (c.evalSeeds !== undefined) {
      trainSeeds = all;
      evalSeeds = await load(c.evalSeeds, task);
    } else {
      ({ train: trainSeeds, eval: evalSeeds } = splitSeeds(all, c.evalFraction, c.splitSeed));
    }
    split = {
      simulatorVersion: SIMULATOR_VERSION,
      source: c.seeds,
      evalSource: c.evalSeeds ?? c.seeds,
      train: trainSeeds.map((s) => s.id),
      eval: evalSeeds.map((s) => s.id),
      ...(c.evalSeeds === undefined ? { evalFraction: c.evalFraction, splitSeed: c.splitSeed } : {}),
      evalRepeats: c.evalRepeats,
    };
    const config = { ...c.cstpo, task };
    note(`SFT on ${trainSeeds.length} training seeds…\n`);
    // The split with the run, in a place created whole after SFT: a run without its split could not be resumed.
    const files = { [SPLIT_FILE]: JSON.stringify(split, null, 2) };
    session = await withExecutor(resolveConfig(config), (o) =>
      TrainingSession.start(runId, config, {
        ...o,
        seeds: trainSeeds,
        ...(options.onSft ? { onSft: options.onSft } : {}),
        create: (run, init) => storage.create(run, init, files, state === 'replace'),
      }),
    );
  }
  // The session's tensors and rollout executor are released however the run ends.
  try {
    const config = session.trainer.config;
    if (config.steps <= config.criticWarmupSteps && config.steps > 0)
      note(
        `notice: ${config.steps} RL steps, all within the critic warm-up of ${config.criticWarmupSteps} steps: ` +
          'only the critic is trained; the actor keeps its SFT weights\n',
      );
    const onAbort = () => session.stop();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    let outcome: 'finished' | 'stopped';
    try {
      if (options.signal?.aborted) session.stop();
      outcome = await session.run(
        {
          onStep: (r) => {
            options.onProgress?.({ done: r.step, total: config.steps });
            options.onStep?.(r);
          },
          ...(options.onStatus ? { onStatus: options.onStatus } : {}),
        },
        options.untilStep,
      );
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
    }
    const stored = await store.load(runId);
    const history = stored?.history ?? session.history;
    const curves = learningCurves(history);
    const title = `${getTask(task).title} · CSTPO${ablationSuffix(config.ablations)}`;
    await storage.writeText('curves.json', JSON.stringify(curves, null, 2));
    await storage.writeText('curves.svg', learningCurveSvg(curves, title));
    const files = [
      'run.json',
      'init.json',
      'latest.json',
      'history.jsonl',
      SPLIT_FILE,
      'curves.json',
      'curves.svg',
    ];

    let evaluation: TrainEvaluation | null = null;
    let evalSummary = { source: split.evalSource, count: split.eval.length };
    // A resumed run evaluates with its stored repeats (a different --eval-repeats is refused above).
    const evalRepeats = c.resume ? (split.evalRepeats ?? c.evalRepeats) : c.evalRepeats;
    if (c.evaluate && outcome === 'finished') {
      // With resume, evalSeeds evaluates the run on other seeds as well (written to eval-<name>.json).
      const extra = c.resume && c.evalSeeds !== undefined ? c.evalSeeds : null;
      let evalSeeds: Seed[];
      if (extra !== null) {
        evalSeeds = await load(extra, task);
        const trained = new Set(split.train);
        const overlap = evalSeeds.filter((s) => trained.has(s.id)).length;
        if (overlap > 0) note(`warning: ${overlap} of the evaluation seeds were training seeds\n`);
      } else {
        const byId = new Map((await load(split.evalSource, task)).map((s) => [s.id, s]));
        evalSeeds = split.eval.map((id) => byId.get(id)).filter((s): s is Seed => s !== undefined);
      }
      const baseName = extra === null ? '' : (extra.split(/[\\/]/).at(-1) ?? extra).replace(/\.[^.]*$/, '');
      const evalFile = extra === null ? 'eval.json' : `eval-${baseName}.json`;
      evalSummary = { source: extra ?? split.evalSource, count: evalSeeds.length };
      note(`evaluating on ${countOf(evalSeeds.length, 'seed')} × ${evalRepeats}…\n`);
      const result = await evaluateRun(
        config,
        {
          trained: (await session.trainer.snapshot()).actor,
          sft: config.sftEpochs > 0 ? session.init.actor : null,
        },
        evalSeeds,
        { repeats: evalRepeats, seed: config.seed + 1 },
      );
      const slim = (p: RunEvaluation['policies']['cstpo'] | null) =>
        p && { summary: p.summary, strategyDistribution: p.strategyDistribution };
      evaluation = {
        step: history.length,
        seeds: result.seeds,
        repeats: result.repeats,
        differences: result.differences,
        beats: result.beats,
        policies: {
          cstpo: slim(result.policies.cstpo),
          sft: slim(result.policies.sft),
          random: slim(result.policies.random),
        },
      };
      await storage.writeText(evalFile, JSON.stringify(evaluation, null, 2));
      files.push(evalFile);
    } else if (c.resume && !c.evaluate) {
      // The run's eval.json (if any) stays; say when it evaluated an earlier policy than this one.
      const step = evaluatedStep(await storage.readText('eval.json'));
      if (step !== undefined && step !== history.length)
        note(
          `notice: ${storage.pathOf('eval.json')} evaluates the policy ${step === null ? 'of an earlier step' : `of step ${step}`}, ` +
            `not this one (step ${history.length}); resume without --no-eval to evaluate this one\n`,
        );
    }
    const sft = session.trainer.sft;
    return {
      runId,
      out: storage.location,
      backend: choice.summary,
      simulatorVersion: SIMULATOR_VERSION,
      config,
      seeds: {
        source: split.source,
        train: split.train.length,
        evalSource: evalSummary.source,
        eval: evalSummary.count,
      },
      sft: sft
        ? { examples: sft.examples, finalLoss: sft.losses.at(-1) ?? null, accuracy: sft.accuracy }
        : null,
      outcome,
      steps: history,
      evaluation,
      files: files.map((f) => storage.pathOf(f)),
    };
  } finally {
    await session.dispose();
  }
}

/**
 * The RL step a stored `eval.json` evaluated (`text`, null when there is none): undefined without a file, null
 * when the file does not say (written before evaluations named their step, or not readable as JSON).
 */
function evaluatedStep(text: string | null): number | null | undefined {
  if (text === null) return undefined;
  try {
    const step = (JSON.parse(text) as { step?: unknown } | null)?.step;
    return typeof step === 'number' ? step : null;
  } catch {
    return null;
  }
}

/** Job fields that define a run, with the stored value each is compared with on resume (and every `cstpo` field). */
const RUN_FIELDS: readonly [
  key: 'task' | 'seeds' | 'evalFraction' | 'splitSeed' | 'evalRepeats',
  stored: (r: TrainConfig, s: TrainSplit) => unknown,
][] = [
  ['task', (r) => r.task],
  ['seeds', (_, s) => s.source],
  ['evalFraction', (_, s) => s.evalFraction],
  ['splitSeed', (_, s) => s.splitSeed],
  ['evalRepeats', (_, s) => s.evalRepeats],
];

/**
 * The settings given to a resumed run (present in `input`, old names already moved to `cstpo`) that differ from
 * the stored run's: its whole configuration and split, not only the random seed; a `cstpo` field is named
 * `cstpo.<field>` and compared with the stored value, defaults applied (an ablation object given in part is
 * completed with the defaults). `cstpo.steps` (the new total) and `evalSeeds` (an extra evaluation) may differ. A
 * setting the run did not record (older runs) is not compared.
 */
export function resumeConflicts(
  input: z.input<typeof TrainJobConfigSchema>,
  stored: TrainConfig,
  split: TrainSplit,
): ResumeConflict[] {
  const out: ResumeConflict[] = [];
  const compare = (key: string, given: unknown, was: unknown) => {
    if (given === undefined || was === undefined) return;
    if (JSON.stringify(given) !== JSON.stringify(was)) out.push({ key, given, stored: was });
  };
  for (const [key, read] of RUN_FIELDS) compare(key, input[key], read(stored, split));
  const settings = input.cstpo ?? {};
  const parsed = TrainSettingsSchema.partial().safeParse(settings);
  const full: Record<string, unknown> = parsed.success ? parsed.data : {};
  for (const key of Object.keys(settings) as (keyof TrainSettingsInput)[]) {
    if (key === 'steps') continue;
    compare(`cstpo.${key}`, full[key], stored[key]);
  }
  return out;
}
