/**
 * `npm run evaluate`: evaluate policies on tasks (template mode), with bootstrap intervals, paired differences,
 * strategy F1 and simulator validation; writes report.json, report.csv, report.md and the trajectories into an
 * output folder, and resumes an interrupted evaluation from it.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { modelFromJson, modelToJson, PpdppModelError, type PpdppModel } from '../src/baselines/ppdpp/model';
import { trainPpdpp } from '../src/baselines/ppdpp/train';
import { DatasetError } from '../src/data';
import { loadSeedsFromPath } from '../src/data/node';
import { EvalConfigError, planEvaluation, type EvalConfig, type SeedSet } from '../src/eval/harness';
import { esconvDialogues, p4gAnnotatedDialogues } from '../src/eval/harness-dialogues';
import { evaluate } from '../src/eval/harness-evaluate';
import {
  contextObservation,
  f1ContextsFromDialogue,
  f1ContextsFromSeeds,
  type F1Context,
} from '../src/eval/harness-f1';
import { createNodePool, FileEpisodeStore, prepareOutputFolder } from '../src/eval/harness-node';
import { InlineExecutor } from '../src/eval/harness-run';
import { reportToCsv, reportToJson, reportToMarkdown } from '../src/eval/report-format';
import { TASK_IDS, type TaskId } from '../src/tasks';
import { defaultSeeds } from '../src/tasks/defaults';

export const HELP = `Usage: npm run evaluate -- --task TASKS --policies POLICIES [options]

Evaluate policies against the Cog-Sim user simulator (template mode): success rate, average turns (all and
successful episodes), mean return with 95% bootstrap intervals (clustered by seed), paired differences against
a reference policy, strategy entropy, and optionally strategy F1 against human labels and simulator
dose-response validation. Writes report.json, report.csv, report.md and trajectories/<task>/<policy>.jsonl
into the output folder; running again with the same folder resumes (finished episodes are not run again).

Options:
  --task LIST          tasks, comma-separated: esconv, p4g, cb (required)
  --policies LIST      policies, comma-separated (required): random, replay, fixed:<label>, standard,
                       proactive, procot, ask-an-expert, ppdpp (icl-aif and mi-prompt need a language model)
  --seeds SPEC         TASK=PATH (dataset file, P4G folder/CSV or seed JSONL), repeatable or comma-separated;
                       tasks without one use the bundled authored seeds
  --skip-invalid       skip malformed dataset records instead of stopping
  --episodes N         seeds used per task (the first N; default all)
  --repeats N          episodes per seed, with different simulator streams (default 1)
  --protocol P         cstpo (terminal utility) | ppdpp (per-turn critic) (default cstpo)
  --route MODE         stochastic | deterministic processing-route choice (default stochastic)
  --seed N             base seed of the policies' streams and of the bootstrap (default 0)
  --reference POLICY   paired differences against this policy (default: the first policy)
  --f1                 strategy F1 against human labels (esconv, p4g), at the labelled turns of the seeds
  --f1-data SPEC       TASK=PATH of whole labelled dialogues for F1 (ESConv JSONL, annotated P4G CSV)
  --validate           simulator dose-response validation on each task's seeds
  --ppdpp-model SPEC   TASK=PATH of a trained PPDPP planner (JSON); without one, ppdpp is trained here
                       (SFT on the labelled turns of the training seeds, then REINFORCE) and saved as
                       <out>/ppdpp-<task>.json, which later runs in the same folder reuse
  --ppdpp-train SPEC   TASK=PATH of the seeds to train PPDPP on (default: the evaluation seeds)
  --ppdpp-steps N      REINFORCE steps (default 40)
  --ppdpp-episodes N   episodes per REINFORCE step (default 8)
  --resamples N        bootstrap resamples (default 2000)
  --keep-state         keep the simulator state of every turn in the trajectories
  --workers N          worker threads (default 1: the main thread)
  --out DIR            output folder (default reports)
  --json               print the report as JSON instead of Markdown
  -h, --help           show this help

Example:
  npm run evaluate -- --task esconv,p4g,cb --policies random,standard,proactive --repeats 2 --out reports/`;

/** A command-line or configuration mistake: printed with the usage hint, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Parsed command line. */
export interface EvaluateArgs {
  tasks: TaskId[];
  policies: string[];
  seeds: Partial<Record<TaskId, string>>;
  f1Data: Partial<Record<TaskId, string>>;
  ppdppModel: Partial<Record<TaskId, string>>;
  ppdppTrain: Partial<Record<TaskId, string>>;
  ppdppSteps: number;
  ppdppEpisodes: number;
  skipInvalid: boolean;
  episodes?: number;
  repeats: number;
  protocol: 'cstpo' | 'ppdpp';
  route: 'stochastic' | 'deterministic';
  seed: number;
  reference?: string;
  f1: boolean;
  validate: boolean;
  resamples: number;
  keepState: boolean;
  workers: number;
  out: string;
  json: boolean;
}

function count(name: string, raw: string | undefined, min = 1): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < min)
    throw new UsageError(`--${name} must be an integer ≥ ${min}, got "${raw}"`);
  return n;
}

function list(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function taskPaths(option: string, raw: readonly string[]): Partial<Record<TaskId, string>> {
  const out: Partial<Record<TaskId, string>> = {};
  for (const item of raw.flatMap((r) => list(r))) {
    const eq = item.indexOf('=');
    const task = item.slice(0, eq) as TaskId;
    if (eq < 1 || !(TASK_IDS as readonly string[]).includes(task))
      throw new UsageError(
        `--${option} takes TASK=PATH with TASK one of ${TASK_IDS.join(', ')}, got "${item}"`,
      );
    if (out[task]) throw new UsageError(`--${option} gives ${task} twice`);
    out[task] = item.slice(eq + 1);
  }
  return out;
}

/** Parse the command line. @throws UsageError on any mistake. */
export function parseEvaluateArgs(argv: string[]): EvaluateArgs | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        task: { type: 'string' },
        policies: { type: 'string' },
        seeds: { type: 'string', multiple: true },
        'f1-data': { type: 'string', multiple: true },
        'ppdpp-model': { type: 'string', multiple: true },
        'ppdpp-train': { type: 'string', multiple: true },
        'ppdpp-steps': { type: 'string', default: '40' },
        'ppdpp-episodes': { type: 'string', default: '8' },
        'skip-invalid': { type: 'boolean', default: false },
        episodes: { type: 'string' },
        repeats: { type: 'string', default: '1' },
        protocol: { type: 'string', default: 'cstpo' },
        route: { type: 'string', default: 'stochastic' },
        seed: { type: 'string', default: '0' },
        reference: { type: 'string' },
        f1: { type: 'boolean', default: false },
        validate: { type: 'boolean', default: false },
        resamples: { type: 'string', default: '2000' },
        'keep-state': { type: 'boolean', default: false },
        workers: { type: 'string', default: '1' },
        out: { type: 'string', default: 'reports' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.help) return 'help';
  const tasks = list(values.task);
  if (tasks.length === 0) throw new UsageError('--task is required (esconv, p4g, cb; comma-separated)');
  for (const t of tasks)
    if (!(TASK_IDS as readonly string[]).includes(t))
      throw new UsageError(`unknown task "${t}"; use ${TASK_IDS.join(', ')}`);
  const policies = list(values.policies);
  if (policies.length === 0) throw new UsageError('--policies is required (comma-separated policy names)');
  if (values.protocol !== 'cstpo' && values.protocol !== 'ppdpp')
    throw new UsageError(`--protocol must be cstpo or ppdpp, got "${values.protocol}"`);
  if (values.route !== 'stochastic' && values.route !== 'deterministic')
    throw new UsageError(`--route must be stochastic or deterministic, got "${values.route}"`);
  const f1Data = taskPaths('f1-data', values['f1-data'] ?? []);
  return {
    tasks: tasks as TaskId[],
    policies,
    seeds: taskPaths('seeds', values.seeds ?? []),
    f1Data,
    ppdppModel: taskPaths('ppdpp-model', values['ppdpp-model'] ?? []),
    ppdppTrain: taskPaths('ppdpp-train', values['ppdpp-train'] ?? []),
    ppdppSteps: count('ppdpp-steps', values['ppdpp-steps'], 0) as number,
    ppdppEpisodes: count('ppdpp-episodes', values['ppdpp-episodes']) as number,
    skipInvalid: values['skip-invalid'],
    ...(values.episodes !== undefined ? { episodes: count('episodes', values.episodes) } : {}),
    repeats: count('repeats', values.repeats) as number,
    protocol: values.protocol,
    route: values.route,
    seed: count('seed', values.seed, 0) as number,
    ...(values.reference !== undefined ? { reference: values.reference } : {}),
    f1: values.f1 || Object.keys(f1Data).length > 0,
    validate: values.validate,
    resamples: count('resamples', values.resamples) as number,
    keepState: values['keep-state'],
    workers: count('workers', values.workers) as number,
    out: values.out,
    json: values.json,
  };
}

interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  isTTY: boolean;
}

/** A seed-set name from a path: its file or folder name without extension, limited to safe characters. */
function setName(path: string): string {
  return basename(path, extname(path)).replace(/[^A-Za-z0-9._-]/g, '_') || 'seeds';
}

async function loadSeedSets(args: EvaluateArgs, io: Io): Promise<SeedSet[]> {
  const sets: SeedSet[] = [];
  for (const task of args.tasks) {
    const path = args.seeds[task];
    if (!path) {
      sets.push({ task, name: 'bundled', seeds: defaultSeeds(task) });
      continue;
    }
    const loaded = await loadSeedsFromPath(path, task, { skipInvalid: args.skipInvalid });
    if (loaded.skipped.length > 0) io.stderr(`${path}: ${loaded.skipped.length} invalid records skipped\n`);
    sets.push({ task, name: setName(path), seeds: loaded.seeds });
  }
  return sets;
}

async function loadF1Contexts(args: EvaluateArgs): Promise<Partial<Record<TaskId, F1Context[]>>> {
  const out: Partial<Record<TaskId, F1Context[]>> = {};
  for (const [task, path] of Object.entries(args.f1Data) as [TaskId, string][]) {
    const text = await readFile(path, 'utf8');
    const dialogues =
      task === 'esconv'
        ? esconvDialogues(text, path)
        : task === 'p4g'
          ? p4gAnnotatedDialogues(text, path)
          : (() => {
              throw new UsageError(`--f1-data: ${task} has no human strategy labels (use esconv or p4g)`);
            })();
    out[task] = dialogues.flatMap(f1ContextsFromDialogue);
  }
  return out;
}

/**
 * The PPDPP planner of each task: loaded from --ppdpp-model, or from <out>/ppdpp-<task>.json of an earlier run,
 * or trained now on the training seeds (and saved there).
 */
async function ppdppPlanners(
  args: EvaluateArgs,
  seedSets: SeedSet[],
  io: Io,
): Promise<Partial<Record<TaskId, PpdppModel>>> {
  const out: Partial<Record<TaskId, PpdppModel>> = {};
  for (const task of args.tasks) {
    const saved = join(args.out, `ppdpp-${task}.json`);
    const path = args.ppdppModel[task] ?? (existsSync(saved) ? saved : undefined);
    if (path) {
      out[task] = modelFromJson(await readFile(path, 'utf8'));
      io.stderr(`ppdpp ${task}: planner loaded from ${path}\n`);
      continue;
    }
    const trainPath = args.ppdppTrain[task];
    const seeds = trainPath
      ? (await loadSeedsFromPath(trainPath, task, { skipInvalid: args.skipInvalid })).seeds
      : (seedSets.find((s) => s.task === task) as SeedSet).seeds;
    if (seeds.length === 0) throw new UsageError(`--ppdpp-train: no seeds for ${task} in ${trainPath}`);
    if (!trainPath)
      io.stderr(`ppdpp ${task}: training on the evaluation seeds (give --ppdpp-train for held-out ones)\n`);
    const labelled = f1ContextsFromSeeds(seeds).map((c) => ({
      observation: contextObservation(c),
      label: c.label,
    }));
    const { model, steps } = await trainPpdpp({
      task,
      seeds,
      labelled,
      seed: args.seed,
      rlSteps: args.ppdppSteps,
      episodesPerStep: args.ppdppEpisodes,
    });
    const last = steps.slice(-5);
    const mean = last.reduce((s, x) => s + x.meanReturn, 0) / Math.max(1, last.length);
    io.stderr(
      `ppdpp ${task}: SFT on ${model.training.sftExamples} labelled turns (accuracy ${model.training.sftAccuracy.toFixed(2)}), ` +
        `${steps.length} REINFORCE steps (mean return of the last ${last.length}: ${mean.toFixed(2)}); saved to ${saved}\n`,
    );
    await mkdir(args.out, { recursive: true });
    await writeFile(saved, modelToJson(model));
    out[task] = model;
  }
  return out;
}

/**
 * Run the evaluation described by `args`: validate everything, then run.
 * @returns the Markdown (or JSON) report text.
 * @throws UsageError / EvalConfigError for a bad configuration (before any episode), DatasetError, fs errors.
 */
export async function runEvaluateCli(args: EvaluateArgs, io: Io): Promise<string> {
  const seedSets = await loadSeedSets(args, io);
  const f1Contexts = args.f1 ? await loadF1Contexts(args) : {};
  const config: EvalConfig = {
    tasks: args.tasks,
    policies: args.policies,
    seedSets,
    repeats: args.repeats,
    ...(args.episodes !== undefined ? { episodes: args.episodes } : {}),
    protocol: args.protocol,
    routeSampling: args.route,
    baseSeed: args.seed,
    resamples: args.resamples,
    keepState: args.keepState,
    ...(args.reference !== undefined ? { reference: args.reference } : {}),
    validate: args.validate,
    ...(args.f1
      ? {
          f1:
            Object.keys(args.f1Data).length > 0
              ? { contexts: Object.fromEntries(args.tasks.map((t) => [t, f1Contexts[t] ?? []])) }
              : true,
        }
      : {}),
  };
  let planners: Partial<Record<TaskId, PpdppModel>> = {};
  if (args.policies.includes('ppdpp')) {
    // Check the rest of the configuration before training plays any episode.
    const others = args.policies.filter((p) => p !== 'ppdpp');
    planEvaluation({
      ...config,
      policies: others.length > 0 ? others : ['random'],
      ...(config.reference === 'ppdpp' ? { reference: undefined } : {}),
    });
    planners = await ppdppPlanners(args, seedSets, io);
  }
  const plan = planEvaluation({ ...config, ppdpp: planners });
  await prepareOutputFolder(args.out, plan);
  const store = new FileEpisodeStore(args.out);
  const pool = args.workers > 1 ? createNodePool(args.workers) : null;
  const bar =
    io.isTTY && !args.json
      ? new cliProgress.SingleBar(
          { format: 'episodes [{bar}] {value}/{total} {eta}s left', stream: process.stderr },
          cliProgress.Presets.shades_classic,
        )
      : null;
  bar?.start(plan.episodes.length, 0);
  try {
    const { report, run } = await evaluate(plan, {
      executor: pool ?? new InlineExecutor(),
      store,
      onProgress: (done) => bar?.update(done),
    });
    bar?.stop();
    io.stderr(`${run.ran} episodes run, ${run.reused} found finished in ${args.out}\n`);
    await writeFile(join(args.out, 'report.json'), reportToJson(report));
    await writeFile(join(args.out, 'report.csv'), reportToCsv(report));
    const markdown = reportToMarkdown(report);
    await writeFile(join(args.out, 'report.md'), markdown);
    return args.json ? reportToJson(report) : markdown;
  } finally {
    bar?.stop();
    await pool?.close();
  }
}

/** CLI entry: returns the process exit code (0 ok, 1 failure, 2 usage or configuration error). */
export async function main(argv: string[], io: Io): Promise<number> {
  try {
    const args = parseEvaluateArgs(argv);
    if (args === 'help') {
      io.stdout(`${HELP}\n`);
      return 0;
    }
    io.stdout(await runEvaluateCli(args, io));
    return 0;
  } catch (err) {
    if (err instanceof UsageError || err instanceof EvalConfigError || err instanceof PpdppModelError) {
      io.stderr(`error: ${err.message}\nRun with --help for the options.\n`);
      return 2;
    }
    if (err instanceof DatasetError) {
      io.stderr(`error: ${err.message}\n(use --skip-invalid to skip bad records)\n`);
      return 1;
    }
    io.stderr(`error: ${(err as Error).message}\n`);
    return 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const code = await main(process.argv.slice(2), {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    isTTY: Boolean(process.stderr.isTTY),
  });
  process.exitCode = code;
}
