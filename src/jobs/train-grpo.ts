/**
 * The GRPO train job (`npm run train -- --algo grpo-emollm`): EmoLLM's Stage II on a task's scenarios —
 * trajectory-level GRPO of the trained heads (reasoning gate, response strategy, candidate scorer) over the frozen
 * template ARG actor, realizer and reverse-perspective predictor (src/grpo), every step saved so that `resume`
 * continues exactly; at the end the trained heads are evaluated against their initial weights on held-out seeds
 * (paired episodes, 95% bootstrap intervals clustered by seed, Wilson for success rates; no interval from one seed).
 *
 * Storage goes through a {@link GrpoTrainStorage} (Node: `FolderGrpoStorage` in src/grpo/node.ts, the
 * run folder created whole with `split.json` and the run store's files, then `history.json`, `eval.json`).
 */
import { z } from 'zod';
import { damagedRunFileError } from '../runs/errors';
import type { BackendChoice } from '../gpu/backend';
import type { WasmBackendOptions } from '../gpu/wasm';
import { GrpoSettingsSchema, type GrpoConfig, type GrpoSettingsInput } from '../grpo/config';
import { evaluatePolicy, summarize, type PolicySummary } from '../grpo/evaluate';
import { GrpoNetworks } from '../grpo/networks';
import { GrpoPolicy } from '../grpo/rollout';
import { runGrpoSteps } from '../grpo/session';
import type { GrpoRunTypes } from '../grpo/store';
import type { RunStorage } from '../runs/storage';
import { GrpoTrainer, grpoEnv, type GrpoServices, type GrpoStepRecord } from '../grpo/trainer';
import { Rng } from '../rng';
import { DEFAULT_SPLIT_SEED, splitByKey } from '../seeding';
import { SIMULATOR_VERSION } from '../sim/version';
import { pairedEstimate, type PairedEstimate } from '../stats';
import { TaskIdSchema, type Seed, type TaskId } from '../tasks';
import { defaultSeeds } from '../tasks/defaults';
import { getSeedSet, seedSetNames } from '../tasks/seed-sets';
import { parseJobConfig, type JobOptions } from './common';
import { stepsBelowDoneError, trainResumeConflictError } from './errors';
import type { ResumeConflict } from './train';
import { moveOldFields, openTrainRun, resumeSplit } from './train-common';
import { countOf } from '../errors/plural';
import { CheckpointError } from '../errors';

const int = (min: number, max: number) => z.number().int().min(min).max(max);

/**
 * The GRPO train job's configuration: the job's own fields (seeds, split, evaluation, resume) and, nested as
 * `grpo`, the trainer's whole configuration but the task (src/grpo/config.ts `GrpoSettingsSchema`, its field names
 * and defaults unchanged), as TRL nests a trainer's config in a script's arguments.
 */
export const GrpoTrainJobConfigSchema = z
  .object({
    task: TaskIdSchema.optional().describe('task whose scenarios are played (required unless resuming)'),
    seeds: z
      .string()
      .min(1)
      .default('bundled')
      .describe(
        "seed source: bundled, a named seed set of the task (esconv's emollm, emollm-ed, …: EmoLLM scenario seeds) or a " +
          'name the caller loads (`loadSeeds`: a dataset path, `emollm-ed=PATH` for a scenario file)',
      ),
    evalSeeds: z
      .string()
      .min(1)
      .optional()
      .describe(
        'seed source of the evaluation seeds; when given, every seed of `seeds` is a training seed (at the start: a resumed run keeps its split)',
      ),
    evalFraction: z
      .number()
      .gt(0)
      .lt(1)
      .default(0.25)
      .describe('share of the seeds held out for evaluation (without evalSeeds)'),
    splitSeed: int(0, 0xffffffff).default(DEFAULT_SPLIT_SEED).describe('random seed of the split'),
    evalRepeats: int(1, 1000).default(2).describe('episodes per evaluation seed'),
    grpo: GrpoSettingsSchema.prefault({}).describe(
      "the GRPO trainer's settings (src/grpo/config.ts; with resume, only steps, the new total, may differ)",
    ),
    resume: z.boolean().default(false).describe('continue the stored run'),
    overwrite: z.boolean().default(false).describe('replace the stored run'),
    evaluate: z.boolean().default(true).describe('evaluate the trained heads at the end'),
  })
  .superRefine((c, ctx) => {
    if (c.resume && c.overwrite)
      ctx.addIssue({ code: 'custom', path: ['overwrite'], message: 'give resume or overwrite, not both' });
    if (!c.resume && c.task === undefined)
      ctx.addIssue({ code: 'custom', path: ['task'], message: 'required unless resuming' });
  });

/**
 * The job's fields of earlier versions, now in `grpo` under the trainer's names: still accepted, moved once at
 * the start of {@link trainGrpoJob} with a notice.
 */
export const OLD_GRPO_FIELDS = { steps: 'steps', rngSeed: 'seed' } as const satisfies Record<
  string,
  keyof GrpoSettingsInput
>;

/** The job's configuration as given (old field names still accepted). */
export type GrpoTrainJobConfigInput = z.input<typeof GrpoTrainJobConfigSchema> & {
  /** @deprecated use `grpo.steps` */
  steps?: number;
  /** @deprecated use `grpo.seed` */
  rngSeed?: number;
};

/**
 * Where a GRPO run lives (src/runs/storage.ts `RunStorage`): Node: a folder (`FolderGrpoStorage`); browser:
 * IndexedDB (`IdbGrpoTrainStorage`). Text files are written atomically.
 */
export type GrpoTrainStorage = RunStorage<GrpoRunTypes>;

/** The evaluation of the trained heads against their initial weights. */
export interface GrpoEvaluation {
  seeds: number;
  repeats: number;
  trained: PolicySummary;
  initial: PolicySummary;
  /**
   * Paired per-episode difference of the return, trained − initial (clustered bootstrap; no interval, with a
   * `note`, from one seed or when every pair differs by the same amount).
   */
  returnDifference: PairedEstimate;
}

/** What the job reports. */
export interface GrpoTrainResult {
  runId: string;
  out: string;
  backend: string;
  simulatorVersion: string;
  config: GrpoConfig;
  seeds: { source: string; train: number; eval: number };
  outcome: 'finished' | 'stopped';
  steps: GrpoStepRecord[];
  evaluation: GrpoEvaluation | null;
  files: string[];
}

interface GrpoSplit {
  simulatorVersion: string;
  algo: 'grpo-emollm';
  source: string;
  /** The evaluation seeds' source, when not `source` (the job's `evalSeeds`). */
  evalSource?: string;
  train: string[];
  eval: string[];
}

/** Options of {@link trainGrpoJob}. */
export interface GrpoTrainJobOptions extends JobOptions {
  loadSeeds?: (source: string, task: TaskId) => Promise<Seed[]>;
  /**
   * Language services of the run (src/grpo/language.ts `grpoLanguageServices`): the Stage II reward judge that a
   * run with `grpo.rewards: 'llm'` needs, when it starts and when it is resumed.
   */
  services?: GrpoServices;
  onStep?: (record: GrpoStepRecord) => void;
  onMessage?: (text: string) => void;
  /** Where tfjs's wasm backend finds its binaries (see `OpenTrainRunOptions.wasm` in ./train-common.ts). */
  wasm?: WasmBackendOptions;
  /** A tfjs backend chosen and activated by the caller (see `OpenTrainRunOptions.backend`); default: wasm, else cpu. */
  backend?: BackendChoice;
  /** Stop (resumable) after this step even when more are configured (the step count of the run is unchanged). */
  untilStep?: number;
}

/**
 * Runs (or resumes) one GRPO run on tfjs wasm (else cpu, see ./train-common.ts); the Stage II rewards are the
 * template scorers or, with `grpo.rewards: 'llm'`, the LLM judge of `options.services`. The same configuration
 * (and, with an LLM judge, the same answers) gives the same weights and history.
 * @throws ConfigError (JOB_CONFIG_INVALID) for an invalid configuration; CheckpointError (no run to resume, another simulator version,
 *   missing seeds, fewer than 2 seeds, an LLM-judged run resumed without a judge); CheckpointError (TRAIN_RESUME_CONFLICT) when a
 *   resumed run is given other run-defining settings ({@link grpoResumeConflicts}); InputError (GRPO_INPUT_INVALID) for
 *   `rewards: 'llm'` without a judge; the storage's guard errors; CheckpointError (GRPO_SNAPSHOT_INVALID) for a damaged run; the
 *   judge's errors (e.g. RoleOutputError) from a step.
 */
export async function trainGrpoJob(
  input: GrpoTrainJobConfigInput,
  storage: GrpoTrainStorage,
  options: GrpoTrainJobOptions = {},
): Promise<GrpoTrainResult> {
  const given = moveOldFields(input, 'grpo', OLD_GRPO_FIELDS, 'train-grpo', options.onMessage);
  const c = parseJobConfig(GrpoTrainJobConfigSchema, given, 'train-grpo');
  const steps = given.grpo?.steps;
  const load = async (source: string, task: TaskId): Promise<Seed[]> => {
    if (source === 'bundled') return defaultSeeds(task);
    if (seedSetNames(task).includes(source)) return getSeedSet(task, source).seeds();
    if (!options.loadSeeds)
      throw new CheckpointError('TRAIN_RUN_INVALID', `no loader for the seed source "${source}"`);
    return options.loadSeeds(source, task);
  };
  options.onMessage?.(`${c.resume ? 'resuming' : 'starting'} a GRPO run in ${storage.location}…\n`);
  const opened = await openTrainRun(storage, 'train-grpo', {
    resume: c.resume,
    overwrite: c.overwrite,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.wasm ? { wasm: options.wasm } : {}),
    ...(options.backend ? { backend: options.backend } : {}),
  });
  const backend = opened.backend.summary;
  let trainer: GrpoTrainer;
  let split: GrpoSplit;
  let history: GrpoStepRecord[] = [];
  if (c.resume) {
    const stored = await storage.runs.load(storage.runId);
    if (!stored)
      throw new CheckpointError('TRAIN_RUN_INVALID', `no GRPO run to resume in ${storage.location}`);
    const task = stored.latest.config.task;
    const resumed = await resumeSplit<GrpoSplit>(
      storage,
      'split.json',
      load,
      () => task,
      (found) => {
        const conflicts = grpoResumeConflicts(given, c, stored.latest.config, found);
        if (conflicts.length > 0) throw trainResumeConflictError(storage.location, conflicts);
      },
    );
    if (stored.latest.config.rewards === 'llm' && !options.services?.rewardJudge)
      throw new CheckpointError(
        'TRAIN_RUN_INVALID',
        `the run in ${storage.location} scores its Stage II rewards with an LLM judge (rewards llm): resume it ` +
          'with a language backend on the judge role',
      );
    split = resumed.split;
    const seeds = resumed.seeds;
    if (steps !== undefined && steps < stored.latest.step)
      throw stepsBelowDoneError(storage.location, steps, stored.latest.step, stored.latest.config.steps);
    const latest =
      steps === undefined ? stored.latest : { ...stored.latest, config: { ...stored.latest.config, steps } };
    trainer = await GrpoTrainer.restore(latest, {
      seeds,
      runId: storage.runId,
      ...(options.services ? { services: options.services } : {}),
    }).catch((e: unknown) => {
      // A stored setting that fails its schema: the run's file is damaged (named, with the field), never a dump.
      if (!(e instanceof z.ZodError)) throw e;
      const issue = e.issues[0];
      throw damagedRunFileError(
        `${storage.location}/latest.json`,
        `config.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`,
      );
    });
    history = stored.history;
  } else {
    const task = c.task as TaskId;
    const all = await load(c.seeds, task);
    const least = c.evalSeeds === undefined ? 2 : 1;
    if (all.length < least)
      throw new CheckpointError('TRAIN_RUN_INVALID', `need at least ${least} seeds, got ${all.length}`);
    let train: Seed[];
    let held: Seed[];
    if (c.evalSeeds !== undefined) [train, held] = [all, await load(c.evalSeeds, task)];
    else {
      const nEval = Math.min(all.length - 1, Math.max(1, Math.round(all.length * c.evalFraction)));
      const parts = splitByKey(all, (s) => s.id, nEval, c.splitSeed);
      [train, held] = [parts.rest, parts.heldOut];
    }
    split = {
      simulatorVersion: SIMULATOR_VERSION,
      algo: 'grpo-emollm',
      source: c.seeds,
      ...(c.evalSeeds !== undefined ? { evalSource: c.evalSeeds } : {}),
      train: train.map((s) => s.id),
      eval: held.map((s) => s.id),
    };
    trainer = await GrpoTrainer.create(
      { ...c.grpo, task },
      { seeds: train, runId: storage.runId, ...(options.services ? { services: options.services } : {}) },
    );
    const now = new Date().toISOString();
    // The split with the run, in a place created whole: a run without its split could not be resumed.
    await storage.create(
      {
        id: storage.runId,
        algo: 'grpo-emollm',
        config: trainer.config,
        step: 0,
        status: 'running',
        createdAt: now,
        updatedAt: now,
        backend,
      },
      await trainer.snapshot(),
      { 'split.json': JSON.stringify(split, null, 2) },
      opened.state === 'replace',
    );
  }
  const config = trainer.config;
  if (trainer.step < config.steps)
    options.onMessage?.(
      `GRPO on ${backend}: ${countOf(config.steps - trainer.step, 'step')} to go (from step ${trainer.step + 1}), ` +
        `each playing ${countOf(config.groupsPerStep, 'group')} of ${countOf(config.groupSize, 'trajectory', 'trajectories')} ` +
        'before it updates the heads; a line follows each step\n',
    );
  try {
    // The one GRPO step loop (src/grpo/session.ts), as the trainer worker runs it: each step saved as it ends.
    const outcome = await runGrpoSteps(trainer, storage.runs, storage.runId, {
      ...(options.untilStep !== undefined ? { untilStep: options.untilStep } : {}),
      shouldStop: () => options.signal?.aborted === true,
      onStep: (row) => {
        history = [...history, row];
        options.onProgress?.({ done: row.step, total: config.steps });
        options.onStep?.(row);
      },
    });
    await storage.writeText('history.json', JSON.stringify(history, null, 2));
    const files = ['split.json', 'run.json', 'init.json', 'latest.json', 'history.jsonl', 'history.json'];
    let evaluation: GrpoEvaluation | null = null;
    if (c.evaluate && outcome === 'finished') {
      const byId = new Map((await load(split.evalSource ?? split.source, config.task)).map((s) => [s.id, s]));
      const evalSeeds = split.eval.map((id) => byId.get(id)).filter((s): s is Seed => s !== undefined);
      options.onMessage?.(`evaluating on ${countOf(evalSeeds.length, 'seed')} × ${c.evalRepeats}…\n`);
      evaluation = await evaluateHeads(trainer, evalSeeds, c.evalRepeats, config);
      await storage.writeText('eval.json', JSON.stringify(evaluation, null, 2));
      files.push('eval.json');
    }
    return {
      runId: storage.runId,
      out: storage.location,
      backend,
      simulatorVersion: SIMULATOR_VERSION,
      config,
      seeds: { source: split.source, train: split.train.length, eval: split.eval.length },
      outcome,
      steps: history,
      evaluation,
      files: files.map((f) => storage.pathOf(f)),
    };
  } finally {
    trainer.dispose();
  }
}

/**
 * The run-defining settings given to a resumed run (present in `input`, old names already moved to `grpo`) that
 * differ from the stored run's: task, seed source and every GRPO setting given (`grpo.seed`, `grpo.rewards`,
 * `grpo.groupSize`, …; compared with defaults applied). `grpo.steps` (the new total) and the evaluation settings
 * may differ.
 */
export function grpoResumeConflicts(
  input: z.input<typeof GrpoTrainJobConfigSchema>,
  parsed: z.output<typeof GrpoTrainJobConfigSchema>,
  stored: GrpoConfig,
  split: { source: string },
): ResumeConflict[] {
  const compared: [key: string, given: unknown, was: unknown][] = [
    ['task', input.task, stored.task],
    ['seeds', input.seeds, split.source],
    ...Object.keys(input.grpo ?? {})
      .filter((k) => k !== 'steps')
      .map((k): [string, unknown, unknown] => [
        `grpo.${k}`,
        parsed.grpo[k as keyof typeof parsed.grpo],
        stored[k as keyof GrpoConfig],
      ]),
  ];
  return compared
    .filter(([, given, was]) => given !== undefined && JSON.stringify(given) !== JSON.stringify(was))
    .map(([key, given, was]) => ({ key, given, stored: was }));
}

/** Trained heads against the reference (initial) heads on the same episodes. */
async function evaluateHeads(
  trainer: GrpoTrainer,
  seeds: readonly Seed[],
  repeats: number,
  config: GrpoConfig,
): Promise<GrpoEvaluation> {
  const opts = { repeats, seed: config.seed + 1, env: grpoEnv(config) };
  const parts = trainer.actorServices;
  const trainedRows = await evaluatePolicy(new GrpoPolicy('grpo', trainer.nets, parts, config), seeds, opts);
  const initial = new GrpoNetworks(trainer.nets.dims, Rng.fromSeed(0));
  try {
    initial.params.load(await trainer.reference.params.toWeights());
    const initialRows = await evaluatePolicy(new GrpoPolicy('initial', initial, parts, config), seeds, opts);
    const keyed = (rows: typeof trainedRows) =>
      rows.map((r) => ({ key: `${r.seedId}/${r.repeat}`, value: r.return }));
    return {
      seeds: seeds.length,
      repeats,
      trained: summarize(trainedRows, config.seed + 2),
      initial: summarize(initialRows, config.seed + 2),
      returnDifference: pairedEstimate(keyed(trainedRows), keyed(initialRows), {
        rng: Rng.fromSeed(config.seed + 3),
        clusterOf: (key) => key.slice(0, key.lastIndexOf('/')),
      }),
    };
  } finally {
    initial.dispose();
  }
}
