/**
 * `npm run train`: CSTPO training in Node on the tfjs cpu backend, template mode. SFT on the training seeds'
 * human labels, then RL steps; every step is saved under `--out`, so `--resume` continues an interrupted run
 * exactly. At the end it writes the learning curves (JSON and SVG) and evaluates the trained policy against its
 * SFT initialisation and the uniform random policy on held-out seeds (95% bootstrap intervals).
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import * as tf from '@tensorflow/tfjs';
import cliProgress from 'cli-progress';
import { formatEstimate } from '../src/stats';
import { DatasetError } from '../src/data';
import { loadSeedsFromPath } from '../src/data/node';
import { selectBackend } from '../src/gpu/backend';
import { assertOutputAvailable, writeFileAtomic } from '../src/io/node';
import { DEFAULT_SPLIT_SEED, splitByKey } from '../src/seeding';
import { SIMULATOR_VERSION } from '../src/sim/version';
import { OutputConflictError, OutputPathError } from '../src/io';
import { UsageError, rngSeedValue, runCommand, type Io } from './options';
import { resolveConfig, type Ablations, type TrainConfigInput } from '../src/rl/config';
import { evaluateRun, type RunEvaluation } from '../src/rl/evaluate';
import { FileRunStore } from '../src/rl/node';
import { learningCurveSvg, learningCurves } from '../src/rl/plot';
import { TrainingSession } from '../src/rl/session';
import type { StepRecord } from '../src/rl/trainer';
import { TASK_IDS, getTask, type Seed, type TaskId } from '../src/tasks';
import { defaultSeeds } from '../src/tasks/defaults';

export const HELP = `Usage: npm run train -- --task TASK --out runs/NAME [options]

Train a CSTPO policy (SFT on human labels, then RL with sparse complete-branch sampling) against the
Cog-Sim simulator in template mode, on the tfjs cpu backend. Every step is saved under --out; --resume
continues a stopped run exactly. At the end: learning curves (curves.json, curves.svg) and an evaluation
of the trained policy against its SFT initialisation and the uniform random policy on held-out seeds
(mean terminal return, 95% bootstrap intervals clustered by seed; eval.json).

Options:
  --task TASK            esconv | p4g | cb (required unless --resume)
  --algo ALGO            cstpo (the only algorithm; ablations below) (default: cstpo)
  --steps N              RL steps (default: 100); with --resume, the new total
  --seeds PATH|bundled   dataset file, P4G folder/CSV or seed JSONL, or bundled (the authored seeds, default)
  --skip-invalid         skip malformed dataset records instead of stopping
  --eval-fraction F      share of the seeds held out for evaluation, in (0, 1) (default: 0.25)
  --split-seed N         random seed of the train/evaluation split (default: 0)
  --eval-seeds PATH      evaluate on these seeds instead ("bundled" for the authored seeds); all of
                         --seeds then train. With --resume: evaluate the run on these seeds as well
                         (written to eval-<name>.json)
  --eval-repeats N       episodes per evaluation seed (default: 4)
  --ablate LIST          comma-separated: no-cog (critic without cognitive-state features), v-only (no
                         hierarchical critic), no-branch (full trajectories at the same number of returns)
  --seeds-per-step N     seeds per RL step (default: 10)
  --checkpoints N        checkpoints per main trajectory (default: ESConv 4, P4G/CB 2)
  --sft-epochs N         SFT epochs (0: no SFT) (default: 300)
  --warmup N             critic warm-up steps (default: 5)
  --horizon N            episode horizon in actor turns (default: the task's, 30)
  --rng-seed N           master random seed, also of the held-out evaluation's case streams (default: 0);
                         --seed N is its old name (still works, with a notice)
  --out DIR              run folder (required); refused when it holds anything but a run
  --resume               continue the run in --out (its configuration and split are reused; refused when
                         the run was made by another simulator version)
  --overwrite            replace the run in --out
  --no-eval              skip the final evaluation
  --json                 print the per-step figures and the final evaluation as one JSON object
  -h, --help             show this help

Example:
  npm run train -- --task esconv --algo cstpo --steps 100 \\
    --seeds ../shared/data/esconv/esconv-valid.jsonl --out runs/esconv-cstpo`;

export { UsageError };

/** Parsed options. */
export interface TrainOptions {
  task?: TaskId;
  steps?: number;
  seeds?: string;
  skipInvalid: boolean;
  evalFraction: number;
  splitSeed: number;
  evalSeeds?: string;
  evalRepeats: number;
  ablations: Ablations;
  seedsPerStep?: number;
  checkpoints?: number;
  sftEpochs?: number;
  warmup?: number;
  horizon?: number;
  seed: number;
  out: string;
  resume: boolean;
  overwrite: boolean;
  evaluate: boolean;
  json: boolean;
}

function integer(name: string, raw: string | undefined, min: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min)
    throw new UsageError(`--${name} must be an integer ≥ ${min}, got "${raw}"`);
  return n;
}

const ABLATIONS = {
  'no-cog': 'cognitiveState',
  'v-only': 'hierarchicalCritic',
  'no-branch': 'branching',
} as const;

/** Parse and validate the command line. @throws UsageError on any mistake. */
export function parseTrainArgs(argv: string[], io?: Io): TrainOptions | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        task: { type: 'string' },
        algo: { type: 'string', default: 'cstpo' },
        steps: { type: 'string' },
        seeds: { type: 'string' },
        'skip-invalid': { type: 'boolean', default: false },
        'eval-fraction': { type: 'string', default: '0.25' },
        'split-seed': { type: 'string', default: String(DEFAULT_SPLIT_SEED) },
        'eval-seeds': { type: 'string' },
        'eval-repeats': { type: 'string', default: '4' },
        ablate: { type: 'string', default: '' },
        'seeds-per-step': { type: 'string' },
        checkpoints: { type: 'string' },
        'sft-epochs': { type: 'string' },
        warmup: { type: 'string' },
        horizon: { type: 'string' },
        seed: { type: 'string' },
        'rng-seed': { type: 'string' },
        out: { type: 'string' },
        resume: { type: 'boolean', default: false },
        overwrite: { type: 'boolean', default: false },
        'no-eval': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.help) return 'help';
  if (values.resume && values.overwrite) throw new UsageError('give --resume or --overwrite, not both');
  const rngSeed = rngSeedValue(values, io ?? { stdout: () => {}, stderr: () => {}, isTTY: false }) ?? '0';
  if (values.algo !== 'cstpo') throw new UsageError(`--algo must be cstpo, got "${values.algo}"`);
  if (!values.out) throw new UsageError('--out is required (the run folder, e.g. runs/esconv-cstpo)');
  if (!values.resume && !values.task) throw new UsageError('--task is required (esconv, p4g or cb)');
  if (values.task !== undefined && !(TASK_IDS as readonly string[]).includes(values.task)) {
    throw new UsageError(`unknown task "${values.task}"; use ${TASK_IDS.join(', ')}`);
  }
  const ablations: Ablations = { cognitiveState: true, hierarchicalCritic: true, branching: true };
  for (const name of values.ablate.split(',').filter((s) => s.trim() !== '')) {
    const key = (ABLATIONS as Record<string, keyof Ablations>)[name.trim()];
    if (!key) throw new UsageError(`unknown ablation "${name}"; use ${Object.keys(ABLATIONS).join(', ')}`);
    ablations[key] = false;
  }
  const evalFraction = Number(values['eval-fraction']);
  if (!(evalFraction > 0 && evalFraction < 1))
    throw new UsageError(`--eval-fraction must be in (0, 1), got "${values['eval-fraction']}"`);
  const opt = <T>(key: string, v: T | undefined) => (v === undefined ? {} : { [key]: v });
  return {
    ...opt('task', values.task as TaskId | undefined),
    ...opt('steps', integer('steps', values.steps, 0)),
    ...opt('seeds', values.seeds),
    skipInvalid: values['skip-invalid'],
    evalFraction,
    splitSeed: integer('split-seed', values['split-seed'], 0) as number,
    ...opt('evalSeeds', values['eval-seeds']),
    evalRepeats: integer('eval-repeats', values['eval-repeats'], 1) as number,
    ablations,
    ...opt('seedsPerStep', integer('seeds-per-step', values['seeds-per-step'], 1)),
    ...opt('checkpoints', integer('checkpoints', values.checkpoints, 0)),
    ...opt('sftEpochs', integer('sft-epochs', values['sft-epochs'], 0)),
    ...opt('warmup', integer('warmup', values.warmup, 0)),
    ...opt('horizon', integer('horizon', values.horizon, 1)),
    seed: integer('rng-seed', rngSeed, 0) as number,
    out: values.out,
    resume: values.resume,
    overwrite: values.overwrite,
    evaluate: !values['no-eval'],
    json: values.json,
  };
}

/** The seeds of a run, split into training and evaluation seeds (ids kept in split.json). */
interface Split {
  /** The simulator the run trains against (`SIMULATOR_VERSION`); a run is resumed only by the same one. */
  simulatorVersion?: string;
  source: string;
  evalSource: string;
  train: string[];
  eval: string[];
}

async function loadSeeds(
  path: string | undefined,
  task: TaskId,
  opts: TrainOptions,
  io: Io,
): Promise<Seed[]> {
  if (path === undefined || path === 'bundled') return defaultSeeds(task);
  const loaded = await loadSeedsFromPath(path, task, { skipInvalid: opts.skipInvalid });
  for (const s of loaded.skipped) io.stderr(`skipped: ${s.file}:${s.line}: ${s.reason}\n`);
  if (loaded.warnings.length) io.stderr(`${loaded.warnings.length} dataset warnings\n`);
  return loaded.seeds;
}

/** Split `seeds` into training and evaluation seeds: the library's one split (src/seeding `splitByKey`). */
function splitSeeds(seeds: readonly Seed[], fraction: number, seed: number): { train: Seed[]; eval: Seed[] } {
  const nEval = Math.min(seeds.length - 1, Math.max(1, Math.round(seeds.length * fraction)));
  const parts = splitByKey(seeds, (s) => s.id, nEval, seed);
  return { eval: parts.heldOut, train: parts.rest };
}

/** What `train` reports (the `--json` output). */
export interface TrainReport {
  runId: string;
  out: string;
  backend: string;
  config: ReturnType<typeof resolveConfig>;
  seeds: { source: string; train: number; evalSource: string; eval: number };
  sft: { examples: number; finalLoss: number | null; accuracy: number } | null;
  outcome: 'finished' | 'stopped';
  steps: StepRecord[];
  evaluation:
    | (Omit<RunEvaluation, 'policies'> & {
        policies: Record<
          string,
          { summary: RunEvaluation['policies']['cstpo']['summary']; strategyDistribution: number[] } | null
        >;
      })
    | null;
  files: string[];
}

/** Run training as described by `opts`. @throws UsageError, DatasetError, node:fs errors. */
export async function train(opts: TrainOptions, io: Io): Promise<TrainReport> {
  // Production mode only silences tfjs's console warnings (here: the banner suggesting the native Node backend,
  // which this project does not use).
  const state = await assertOutputAvailable(opts.out, {
    kind: 'dir',
    ownerMarker: 'run.json',
    resume: opts.resume,
    overwrite: opts.overwrite,
  });
  if (opts.resume && state !== 'resume') throw new UsageError(`no run to resume in ${opts.out}`);
  tf.enableProdMode();
  const choice = await selectBackend(tf, { prefer: ['cpu'] });
  const out = resolve(opts.out);
  const store = new FileRunStore(dirname(out));
  const runId = basename(out);
  const splitPath = join(out, 'split.json');
  let session: TrainingSession;
  let split: Split;
  let task: TaskId;
  if (opts.resume) {
    const stored = await store.load(runId);
    if (!stored) throw new UsageError(`no run to resume in ${opts.out}`);
    task = stored.run.config.task;
    split = JSON.parse(await readFile(splitPath, 'utf8')) as Split;
    if (split.simulatorVersion !== SIMULATOR_VERSION)
      throw new UsageError(
        `the run in ${opts.out} was made by simulator version ${split.simulatorVersion ?? '(unrecorded, older)'}; ` +
          `this is ${SIMULATOR_VERSION}: resuming would train one policy against two simulators. Start a new run ` +
          '(or --overwrite this one)',
      );
    const trainSeeds = await loadSeeds(split.source, task, opts, io);
    const byId = new Map(trainSeeds.map((s) => [s.id, s]));
    const seeds = split.train.map((id) => {
      const s = byId.get(id);
      if (!s) throw new UsageError(`training seed ${id} of the stored split is missing from ${split.source}`);
      return s;
    });
    session = await TrainingSession.resume(runId, { store, seeds, backend: choice.summary }, opts.steps);
  } else {
    task = opts.task as TaskId;
    const all = await loadSeeds(opts.seeds, task, opts, io);
    if (all.length < 2) throw new UsageError(`need at least 2 seeds, got ${all.length}`);
    let trainSeeds: Seed[];
    let evalSeeds: Seed[];
    if (opts.evalSeeds !== undefined) {
      trainSeeds = all;
      evalSeeds = await loadSeeds(opts.evalSeeds, task, opts, io);
    } else {
      ({ train: trainSeeds, eval: evalSeeds } = splitSeeds(all, opts.evalFraction, opts.splitSeed));
    }
    split = {
      simulatorVersion: SIMULATOR_VERSION,
      source: opts.seeds ?? 'bundled',
      evalSource: opts.evalSeeds ?? opts.seeds ?? 'bundled',
      train: trainSeeds.map((s) => s.id),
      eval: evalSeeds.map((s) => s.id),
    };
    const config: TrainConfigInput = {
      task,
      ablations: opts.ablations,
      seed: opts.seed,
      ...(opts.steps !== undefined ? { steps: opts.steps } : {}),
      ...(opts.seedsPerStep !== undefined ? { seedsPerStep: opts.seedsPerStep } : {}),
      ...(opts.checkpoints !== undefined ? { checkpoints: opts.checkpoints } : {}),
      ...(opts.sftEpochs !== undefined ? { sftEpochs: opts.sftEpochs } : {}),
      ...(opts.warmup !== undefined ? { criticWarmupSteps: opts.warmup } : {}),
      ...(opts.horizon !== undefined ? { horizon: opts.horizon } : {}),
    };
    if (state === 'replace') await store.deleteRun(runId);
    // The split first: a run folder without its split could not be resumed.
    await writeFileAtomic(splitPath, JSON.stringify(split, null, 2));
    if (!opts.json) io.stderr(`SFT on ${trainSeeds.length} training seeds…\n`);
    session = await TrainingSession.start(runId, config, {
      store,
      seeds: trainSeeds,
      backend: choice.summary,
    });
  }
  const config = session.trainer.config;
  const bar =
    io.isTTY && !opts.json
      ? new cliProgress.SingleBar(
          { format: 'RL [{bar}] {value}/{total} return {ret} {eta}s left', stream: process.stderr },
          cliProgress.Presets.shades_classic,
        )
      : null;
  bar?.start(config.steps, session.step, { ret: '-' });
  const onSigint = () => session.stop();
  process.once('SIGINT', onSigint);
  let outcome: 'finished' | 'stopped';
  try {
    outcome = await session.run({
      onStep: (r) => {
        if (bar) bar.update(r.step, { ret: r.meanReturn.toFixed(3) });
        else if (!opts.json)
          io.stderr(
            `step ${r.step}/${config.steps} ${r.phase} return ${r.meanReturn.toFixed(3)} ` +
              `critic ${r.losses.criticLoss.toFixed(4)} (${((r.rolloutMs + r.updateMs) / 1000).toFixed(1)} s)\n`,
          );
      },
    });
  } finally {
    process.off('SIGINT', onSigint);
    bar?.stop();
  }
  const stored = await store.load(runId);
  const history = stored?.history ?? session.history;
  const curves = learningCurves(history);
  const title = `${getTask(task).title} · CSTPO${ablationSuffix(config.ablations)}`;
  await writeFileAtomic(join(out, 'curves.json'), JSON.stringify(curves, null, 2));
  await writeFileAtomic(join(out, 'curves.svg'), learningCurveSvg(curves, title));
  const files = [
    'run.json',
    'init.json',
    'latest.json',
    'history.jsonl',
    'split.json',
    'curves.json',
    'curves.svg',
  ];

  let evaluation: TrainReport['evaluation'] = null;
  let evalFile = 'eval.json';
  let evalSummary = { source: split.evalSource, count: split.eval.length };
  if (opts.evaluate && outcome === 'finished') {
    // With --resume, --eval-seeds evaluates the run on other seeds as well (written to eval-<name>.json).
    const extra = opts.resume && opts.evalSeeds !== undefined ? opts.evalSeeds : null;
    let evalSeeds: Seed[];
    if (extra !== null) {
      evalSeeds = await loadSeeds(extra, task, opts, io);
      const train = new Set(split.train);
      const overlap = evalSeeds.filter((s) => train.has(s.id)).length;
      if (overlap > 0) io.stderr(`warning: ${overlap} of the evaluation seeds were training seeds\n`);
    } else {
      const evalAll = await loadSeeds(split.evalSource, task, opts, io);
      const byId = new Map(evalAll.map((s) => [s.id, s]));
      evalSeeds = split.eval.map((id) => byId.get(id)).filter((s): s is Seed => s !== undefined);
    }
    evalFile = extra === null ? 'eval.json' : `eval-${basename(extra).replace(/\.[^.]*$/, '')}.json`;
    evalSummary = { source: extra ?? split.evalSource, count: evalSeeds.length };
    if (!opts.json) io.stderr(`evaluating on ${evalSeeds.length} seeds × ${opts.evalRepeats}…\n`);
    const result = await evaluateRun(
      config,
      {
        trained: (await session.trainer.snapshot()).actor,
        sft: config.sftEpochs > 0 ? session.init.actor : null,
      },
      evalSeeds,
      { repeats: opts.evalRepeats, seed: config.seed + 1 },
    );
    const slim = (p: RunEvaluation['policies']['cstpo'] | null) =>
      p && { summary: p.summary, strategyDistribution: p.strategyDistribution };
    evaluation = {
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
    await writeFileAtomic(join(out, evalFile), JSON.stringify(evaluation, null, 2));
    files.push(evalFile);
  }
  await session.dispose();
  store.close();
  const sft = session.trainer.sft;
  return {
    runId,
    out,
    backend: choice.summary,
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
    files: files.map((f) => join(out, f)),
  };
}

function ablationSuffix(a: Ablations): string {
  const off = [
    !a.cognitiveState && 'w/o Cog-State',
    !a.hierarchicalCritic && 'V only',
    !a.branching && 'no branching',
  ];
  const names = off.filter((x): x is string => typeof x === 'string');
  return names.length ? ` (${names.join(', ')})` : '';
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
    lines.push(`evaluation: ${e.seeds} seeds × ${e.repeats} episodes, mean terminal return [95% CI]`);
    for (const [name, p] of Object.entries(e.policies))
      if (p) lines.push(`  ${name.padEnd(8)} ${ci(p.summary.meanReturn)}`);
    if (e.differences.vsSft) lines.push(`  cstpo − sft     ${ci(e.differences.vsSft)}`);
    lines.push(`  cstpo − random  ${ci(e.differences.vsRandom)}`);
    lines.push(
      `  intervals clear of: sft ${e.beats.sft === null ? 'n/a' : e.beats.sft ? 'yes' : 'no'}, random ${e.beats.random ? 'yes' : 'no'}`,
    );
  }
  lines.push(`files: ${r.files.join(', ')}`);
  return lines.join('\n') + '\n';
}

/** CLI entry: returns the process exit code (0 ok, 1 failure, 2 usage error). */
export async function main(argv: string[], io: Io): Promise<number> {
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
    },
    [OutputConflictError, OutputPathError],
    [{ error: DatasetError, hint: '(use --skip-invalid to skip bad records)' }],
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await main(process.argv.slice(2), {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    isTTY: Boolean(process.stderr.isTTY),
  });
}
