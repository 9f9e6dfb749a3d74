/**
 * `npm run evaluate`: the evaluate job (src/jobs/evaluate.ts) from the command line — policies × tasks × seeds
 * with bootstrap intervals, paired differences, strategy F1 and simulator validation; writes report.json,
 * report.csv, report.md and the trajectories into an output folder, and resumes an interrupted evaluation there.
 */
import {
  nodeRuntime,
  appendText,
  lockOutput,
  assertOutputAvailable,
  readTextFile,
  writeFileAtomic,
} from '../src/node';
import {
  createNodePool,
  FileEpisodeStore,
  prepareOutputFolder,
  trajectoryFile,
} from '../src/entries/evaluation-node';
import { modelFromJson, modelToJson, type PpdppModel } from '../src/entries/policies';
import {
  planEvaluation,
  type SeedSet,
  esconvDialogues,
  p4gAnnotatedDialogues,
  contextObservation,
  f1ContextsFromDialogue,
  f1ContextsFromSeeds,
  type F1Context,
  reportToCsv,
  reportToJson,
  reportToMarkdown,
  EvaluateConfigSchema,
  evaluateJob,
  type EvaluateConfig,
  type EpisodeStore,
} from '../src/entries/evaluation';
import { checkRoles, type RolesConfig } from '../src/entries/models';
import {
  legacyTaskName,
  legacyTaskNotice,
  seedSetNames,
  seedSetParts,
  TASK_IDS,
  type TaskId,
  type TaskName,
  defaultSeeds,
} from '../src/entries/simulator';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { exitOnStrayInterrupt, listenForInterrupt } from './interrupt';
import { startProgress } from './progress';
import {
  BACKEND_HELP,
  BACKEND_OPTIONS,
  cliMessage,
  concurrencyValue,
  POLICIES_HELP,
  SEEDS_HELP,
  UsageError,
  bool,
  cutUtterancesNotice,
  flagHelp,
  flagValues,
  flagsFromSchema,
  languageConfig,
  languageValues,
  listValues,
  maxWorkers,
  parseArgsOptions,
  parseCommandLine,
  parseNumber,
  policyValues,
  readFixtures,
  refuseOutputOverInputs,
  rngSeedValue,
  runCommand,
  seedsValues,
  str,
  strs,
  type Io,
  SUCCESS_HELP,
} from './options';
import { checkPolicyArg, loadPolicyResources } from './resources';
import { boundHeapGrowth } from './heap';
import { DATASET_HINTS, loadSeedsArg } from './seeds';
import { checkResumeSettings, evaluateSettings, writeSettings } from './evaluate-settings';
import {
  AbortedError,
  CheckpointError,
  ConfigError,
  countOf,
  DataFormatError,
  DiskFullError,
  hasCode,
  LabError,
  ModelFileError,
  OutputConflictError,
  PathError,
  PolicySpecError,
} from '../src/entries/errors';

export { UsageError };

const FLAGS = flagsFromSchema(EvaluateConfigSchema.shape, [
  'episodes',
  'repeats',
  'horizon',
  'protocol',
  'route',
  'rngSeed',
  'reference',
  'resamples',
  'level',
  'judgeRepeats',
  'keepState',
  'f1',
  'validate',
  'candidates',
  'lookahead',
]);

export const HELP = `Usage: npm run evaluate -- --task TASKS --policy POLICIES [options]

Evaluate policies against the Cog-Sim user simulator: success rate, average turns (all and successful
episodes), mean return with bootstrap intervals (95% by default, clustered by seed), paired differences against a reference
policy, strategy entropy, and optionally strategy F1 against human labels and simulator dose-response
validation. Writes report.json, report.csv, report.md and trajectories/<task>/<policy>.jsonl into the output
folder; --resume continues an interrupted evaluation there (finished episodes are not run again). The same
--rng-seed plays the same episodes as simulate.

Options:
  --task LIST          tasks, comma-separated: esconv, p4g, cb (required)
  --seed-set LIST      named seed sets of the tasks, comma-separated, each evaluated as its own set: esconv's
                       EmoLLM settings emollm-ed, emollm-msd, emollm-medd, emollm-iclr (8-turn cap) or emollm
                       (all four); bundled: the default seeds too (a task none of the names belongs to plays its
                       default seeds). The old --task emollm-ed still works, with a notice
  --policy LIST        policies, repeatable or comma-separated (required; see Policies below)
${SEEDS_HELP}
  --skip-invalid       skip malformed dataset records instead of stopping
${flagHelp(FLAGS, { protocol: 'P', route: 'MODE', reference: 'POLICY' })}
  --f1-data SPEC       TASK=PATH of whole labelled dialogues for F1 (ESConv JSONL, annotated P4G CSV)
  --ppdpp-model SPEC   TASK=PATH of a trained PPDPP planner (JSON); without one, ppdpp is trained here
                       (SFT on the labelled turns of the training seeds, then REINFORCE) and saved as
                       <out>/ppdpp-<task>.json, which later runs in the same folder reuse
  --ppdpp-train SPEC   TASK=PATH of the seeds to train PPDPP on (default: the evaluation seeds)
  --ppdpp-steps N      REINFORCE steps (range 0 to 10,000; default 40)
  --ppdpp-episodes N   episodes per REINFORCE step (range 1 to 1,000; default 8)
  --workers N          worker threads for template policies (range 1 to 1,000,000, capped to the
                       machine's cores; default 1)
  --out DIR            output folder (default reports); refused when it holds anything but an evaluation
  --resume             continue the evaluation in --out (same settings, same seeds)
  --overwrite          replace the evaluation in --out
  --json               print the report as JSON instead of Markdown
  --policies LIST      old name of --policy; --seed N: old name of --rng-seed (both still work, with a notice)
  -h, --help           show this help

${BACKEND_HELP}

${POLICIES_HELP}

${SUCCESS_HELP}

Example:
  npm run evaluate -- --task esconv,p4g,cb --policy random,standard,proactive --repeats 2 --out reports/`;

/** Parsed command line. */
export interface EvaluateArgs {
  /** The Cog-Sim tasks played. */
  tasks: TaskId[];
  /** Named seed sets asked for (`--seed-set`, or an old `--task emollm-ed`), each with its task. */
  emollm: { task: TaskId; name: string }[];
  /** Tasks whose default seeds are evaluated (their bundled or `--seeds` set): those without a named set, or with `bundled`. */
  named: TaskId[];
  policies: string[];
  /** Per task or named seed set (an EmoLLM setting: its scenario JSONL): a path or `bundled`. */
  seeds: Partial<Record<TaskName, string>>;
  f1Data: Partial<Record<TaskId, string>>;
  ppdppModel: Partial<Record<TaskId, string>>;
  ppdppTrain: Partial<Record<TaskId, string>>;
  ppdppSteps: number;
  ppdppEpisodes: number;
  skipInvalid: boolean;
  /** The job's fields from the generated options (episodes, repeats, protocol, route, rngSeed, …). */
  fields: Record<string, unknown>;
  rngSeed: number;
  f1: boolean;
  workers: number;
  out: string;
  resume: boolean;
  overwrite: boolean;
  json: boolean;
  language: RolesConfig;
  fixtures?: string;
  /** Episodes in flight at once against the language backends (`--concurrency`, default 1). */
  concurrency: number;
}

function count(name: string, raw: string | undefined, min: number, max: number): number | undefined {
  return raw === undefined ? undefined : parseNumber(name, raw, { integer: true, min, max });
}

function taskPaths(option: string, raw: readonly string[]): Partial<Record<TaskId, string>> {
  const out: Partial<Record<TaskId, string>> = {};
  for (const item of listValues(raw)) {
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
export function parseEvaluateArgs(argv: string[], io?: Io): EvaluateArgs | 'help' {
  const quiet: Io = io ?? { stdout: () => {}, stderr: () => {}, isTTY: false };
  const values = parseCommandLine(argv, {
    ...parseArgsOptions(FLAGS),
    task: { type: 'string' },
    'seed-set': { type: 'string', multiple: true },
    policy: { type: 'string', multiple: true },
    policies: { type: 'string' },
    seed: { type: 'string' },
    seeds: { type: 'string', multiple: true },
    'f1-data': { type: 'string', multiple: true },
    'ppdpp-model': { type: 'string', multiple: true },
    'ppdpp-train': { type: 'string', multiple: true },
    'ppdpp-steps': { type: 'string' },
    'ppdpp-episodes': { type: 'string' },
    'skip-invalid': { type: 'boolean' },
    workers: { type: 'string' },
    out: { type: 'string' },
    resume: { type: 'boolean' },
    overwrite: { type: 'boolean' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
    ...BACKEND_OPTIONS,
  });
  if (bool(values, 'help')) return 'help';
  const names = listValues(str(values, 'task'));
  if (names.length === 0) throw new UsageError('--task is required (esconv, p4g, cb; comma-separated)');
  // The normalising edge: an old task name (`emollm-ed`) is task esconv with that seed set, with a notice; a task
  // also given by its own name then keeps its default seeds, as before.
  const olds = names.map(legacyTaskName);
  for (const old of olds) if (old) quiet.stderr(legacyTaskNotice(old, 'cli'));
  const given = names.map((t, i) => olds[i]?.task ?? t);
  for (const t of given)
    if (!(TASK_IDS as readonly string[]).includes(t))
      throw new UsageError(`unknown task "${t}"; use ${TASK_IDS.join(', ')}`);
  const tasks = [...new Set(given as TaskId[])];
  const setNames = [
    ...listValues(strs(values, 'seed-set')),
    ...olds.flatMap((o) => (o ? [o.seedSet] : [])),
    ...names.filter((t, i) => !olds[i] && olds.some((o) => o?.task === t)).map(() => 'bundled'),
  ];
  for (const name of setNames)
    if (name !== 'bundled' && !tasks.some((t) => seedSetNames(t).includes(name)))
      throw new UsageError(
        `--seed-set: unknown seed set "${name}" of ${tasks.join(', ')}; valid seed sets: ` +
          `${[...new Set(tasks.flatMap(seedSetNames)), 'bundled'].join(', ')}`,
      );
  const emollm = [...new Set(setNames.filter((n) => n !== 'bundled'))].map((name) => ({
    task: tasks.find((t) => seedSetNames(t).includes(name)) as TaskId,
    name,
  }));
  const named = tasks.filter((t) => setNames.includes('bundled') || !emollm.some((s) => s.task === t));
  const policies = policyValues(values, quiet);
  if (policies.length === 0) throw new UsageError('--policy is required (repeatable or comma-separated)');
  const rngSeed = rngSeedValue(values, quiet);
  const fields = flagValues(FLAGS, { ...values, ...(rngSeed !== undefined ? { 'rng-seed': rngSeed } : {}) });
  const f1Data = taskPaths('f1-data', strs(values, 'f1-data'));
  const lv = languageValues(values);
  const language = languageConfig(lv);
  try {
    // Checks every role's backend without building it (the job builds them once): WebLLM outside a browser or a
    // remote URL is a usage error now; languageConfig has validated the config.
    checkRoles(language, nodeRuntime());
  } catch (err) {
    throw new UsageError(cliMessage(err), { cause: err });
  }
  for (const task of tasks as TaskId[])
    for (const policy of policies) if (policy !== 'ppdpp') checkPolicyArg(task, policy, language);
  const workersRaw = count('workers', str(values, 'workers'), 1, 1_000_000) ?? 1;
  const workers = Math.min(workersRaw, maxWorkers());
  if (workers < workersRaw)
    quiet.stderr(`notice: --workers ${workersRaw} capped to the ${workers} cores of this machine\n`);
  if (bool(values, 'resume') && bool(values, 'overwrite'))
    throw new UsageError('give --resume or --overwrite, not both');
  return {
    tasks,
    emollm,
    named,
    policies,
    seeds: seedsValues(strs(values, 'seeds'), [...named, ...emollm.map((s) => s.name as TaskName)]),
    f1Data,
    ppdppModel: taskPaths('ppdpp-model', strs(values, 'ppdpp-model')),
    ppdppTrain: taskPaths('ppdpp-train', strs(values, 'ppdpp-train')),
    ppdppSteps: count('ppdpp-steps', str(values, 'ppdpp-steps'), 0, 10_000) ?? 40,
    ppdppEpisodes: count('ppdpp-episodes', str(values, 'ppdpp-episodes'), 1, 1000) ?? 8,
    skipInvalid: bool(values, 'skip-invalid'),
    fields,
    rngSeed: (fields.rngSeed as number | undefined) ?? 0,
    f1: fields.f1 === true || Object.keys(f1Data).length > 0,
    workers,
    out: str(values, 'out') ?? 'reports',
    resume: bool(values, 'resume'),
    overwrite: bool(values, 'overwrite'),
    json: bool(values, 'json'),
    language,
    ...(lv.fixtures !== undefined ? { fixtures: lv.fixtures } : {}),
    concurrency: concurrencyValue(lv),
  };
}

/** A seed-set name from a path: its file or folder name without extension, limited to safe characters. */
function setName(path: string): string {
  return basename(path, extname(path)).replace(/[^A-Za-z0-9._-]/g, '_') || 'seeds';
}

async function loadSeedSets(args: EvaluateArgs, io: Io): Promise<SeedSet[]> {
  const sets: SeedSet[] = [];
  // A file's set is named after the file; an EmoLLM setting's after the setting, which the report then shows.
  const load = async (name: TaskName, path: string): Promise<SeedSet> => {
    const loaded = await loadSeedsArg('seeds', path, name, {
      skipInvalid: args.skipInvalid,
      notice: io.stderr,
    });
    if (loaded.skipped.length > 0) io.stderr(`${path}: ${loaded.skipped.length} invalid records skipped\n`);
    const set = args.emollm.find((s) => s.name === name);
    return { task: set?.task ?? (name as TaskId), name: set?.name ?? setName(path), seeds: loaded.seeds };
  };
  for (const task of args.named) {
    const path = args.seeds[task] ?? 'bundled';
    sets.push(
      path === 'bundled' ? { task, name: 'bundled', seeds: defaultSeeds(task) } : await load(task, path),
    );
  }
  // An EmoLLM setting: its bundled seeds (one set per setting), or the user's scenario file.
  for (const { task, name } of args.emollm) {
    const path = args.seeds[name as TaskName] ?? 'bundled';
    if (path === 'bundled') sets.push(...seedSetParts(task, name));
    else sets.push(await load(name as TaskName, path));
  }
  return sets;
}

async function loadF1Contexts(args: EvaluateArgs): Promise<Partial<Record<TaskId, F1Context[]>>> {
  const out: Partial<Record<TaskId, F1Context[]>> = {};
  for (const [task, path] of Object.entries(args.f1Data) as [TaskId, string][]) {
    const text = await readTextFile(path);
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
      try {
        out[task] = modelFromJson(await readTextFile(path), path);
      } catch (e) {
        // The user's --ppdpp-model that is damaged or not a planner is an option to fix (exit 2); the planner this
        // evaluation saved in its own folder is damaged stored data (exit 1).
        if (args.ppdppModel[task] !== undefined) {
          if (hasCode(e, DataFormatError, 'FILE_DAMAGED'))
            throw new UsageError(`--ppdpp-model: ${e.message}`, { cause: e });
          throw e;
        }
        if (hasCode(e, DataFormatError, 'FILE_DAMAGED') || hasCode(e, ModelFileError, 'PPDPP_MODEL_INVALID'))
          throw damagedStoredFile(args.out, e.message, e);
        throw e;
      }
      io.stderr(`ppdpp ${task}: planner loaded from ${path}\n`);
      continue;
    }
    const trainPath = args.ppdppTrain[task];
    const seeds = trainPath
      ? (await loadSeedsArg('ppdpp-train', trainPath, task, { skipInvalid: args.skipInvalid })).seeds
      : (seedSets.find((s) => s.task === task) as SeedSet).seeds;
    if (!trainPath)
      io.stderr(`ppdpp ${task}: training on the evaluation seeds (give --ppdpp-train for held-out ones)\n`);
    const labelled = f1ContextsFromSeeds(seeds).map((c) => ({
      observation: contextObservation(c),
      label: c.label,
    }));
    // Loaded only here: training brings in tfjs (about 60 MB of a process that evaluates template policies).
    const { trainPpdpp } = await import('../src/entries/training');
    const { model, steps } = await trainPpdpp({
      task,
      seeds,
      labelled,
      seed: args.rngSeed,
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
    await writeFileAtomic(saved, modelToJson(model));
    out[task] = model;
  }
  return out;
}

/**
 * Run the evaluation described by `args`: check the output folder and the configuration, then run the
 * evaluate job (src/jobs/evaluate.ts) with a resumable folder store.
 * @returns the Markdown (or JSON) report text.
 * @throws UsageError / ConfigError (EVAL_CONFIG_INVALID) / OutputConflictError (OUTPUT_CONFLICT) for a bad configuration or output (before any
 *   episode), DataFormatError (DATASET_INVALID), fs errors.
 */
export async function runEvaluateCli(args: EvaluateArgs, io: Io): Promise<string> {
  const lock = await lockOutput(args.out);
  try {
    return await runEvaluateLocked(args, io);
  } finally {
    await lock.release();
  }
}

/** {@link runEvaluateCli} once the folder's lock is held. */
async function runEvaluateLocked(args: EvaluateArgs, io: Io): Promise<string> {
  // Never over an input: the folder itself, or one of the files of it that this evaluation writes (or clears).
  await refuseOutputOverInputs({ path: args.out, replaced: (inside) => writesInFolder(inside, args) }, [
    ...Object.values(args.seeds).map((value) => ({ option: 'seeds', value })),
    ...Object.values(args.f1Data).map((value) => ({ option: 'f1-data', value })),
    ...Object.values(args.ppdppModel).map((value) => ({ option: 'ppdpp-model', value })),
    ...Object.values(args.ppdppTrain).map((value) => ({ option: 'ppdpp-train', value })),
    { option: 'fixtures', value: args.fixtures },
  ]);
  const state = await assertOutputAvailable(args.out, {
    kind: 'dir',
    ownerMarker: 'manifest.json',
    ownerFiles: ['settings.json', 'trajectories', 'report.json'],
    resume: args.resume,
    overwrite: args.overwrite,
  });
  const settings = evaluateSettings(args, FLAGS);
  if (state === 'resume') await checkResumeSettings(args.out, settings);
  const seedSets = await loadSeedSets(args, io);
  const f1Contexts = args.f1 ? await loadF1Contexts(args) : {};
  const language: RolesConfig = args.fixtures
    ? { ...args.language, fixtures: await readFixtures(args.fixtures) }
    : args.language;
  const resources = await loadPolicyResources(args.policies, io.stderr);
  const config: EvaluateConfig = {
    ...args.fields,
    tasks: args.tasks,
    policies: args.policies,
    seedSets,
    ...(args.f1 ? { f1: true } : {}),
    ...(Object.keys(args.f1Data).length > 0
      ? { f1Contexts: Object.fromEntries(args.tasks.map((t) => [t, f1Contexts[t] ?? []])) }
      : {}),
    language,
    resources,
  };
  if (args.policies.includes('ppdpp')) {
    // Check the rest of the configuration before training plays any episode.
    const others = args.policies.filter((p) => p !== 'ppdpp');
    planEvaluation({
      tasks: args.tasks,
      policies: others.length > 0 ? others : ['random'],
      seedSets,
      ...(args.fields.episodes !== undefined ? { episodes: args.fields.episodes as number } : {}),
      ...(args.fields.repeats !== undefined ? { repeats: args.fields.repeats as number } : {}),
      checkPolicy: () => undefined,
    });
  }
  if (state === 'replace') await clearEvaluationFolder(args.out);
  if (args.policies.includes('ppdpp'))
    config.resources = { ...resources, ppdpp: await ppdppPlanners(args, seedSets, io) };
  const files = new FileEpisodeStore(args.out, io.stderr);
  let cut = 0;
  // Finished episodes in the folder (found from an earlier run, or written by this one): what an interruption keeps.
  let kept = 0;
  const store: EpisodeStore = {
    load: (task, policy) => files.load(task, policy),
    async *records(task, policy) {
      for await (const record of files.records(task, policy)) {
        kept += 1;
        yield record;
      }
    },
    append: async (record) => {
      cut += record.cutUtterances ?? 0;
      // One write per episode; a write cut by a full disk is cut off again (no partial line is left).
      await appendText(trajectoryFile(args.out, record.task, record.policy), `${JSON.stringify(record)}\n`);
      kept += 1;
    },
  };
  const pool = args.workers > 1 ? createNodePool(args.workers) : null;
  const progress = startProgress(io, args.json, 'episodes');
  // Ctrl-C stops before the next episode; the finished ones stay in the folder (--resume continues there).
  const interrupt = listenForInterrupt();
  try {
    const { report, run } = await evaluateJob(config, {
      ...(pool ? { executor: pool } : {}),
      store,
      signal: interrupt.signal,
      runtime: nodeRuntime(),
      concurrency: args.concurrency,
      onPlan: async (plan) => {
        try {
          await prepareOutputFolder(args.out, plan);
        } catch (e) {
          // The folder's own manifest.json cut short or not JSON: a damaged stored evaluation, not an option to fix.
          if (hasCode(e, DataFormatError, 'FILE_DAMAGED')) throw damagedStoredFile(args.out, e.message, e);
          throw e;
        }
        await writeSettings(args.out, settings);
      },
      onProgress: ({ done, total }) => progress.update(done, total),
    });
    progress.stop();
    io.stderr(`${countOf(run.ran, 'episode')} run, ${run.reused} found finished in ${args.out}\n`);
    if (cut > 0) io.stderr(cutUtterancesNotice(cut));
    await writeFileAtomic(join(args.out, 'report.json'), reportToJson(report));
    await writeFileAtomic(join(args.out, 'report.csv'), reportToCsv(report));
    const markdown = reportToMarkdown(report);
    await writeFileAtomic(join(args.out, 'report.md'), markdown);
    return args.json ? reportToJson(report) : markdown;
  } catch (e) {
    if (hasCode(e, AbortedError, 'JOB_ABORTED'))
      throw new EvaluateInterruptedError(
        `${e.message}\n${countOf(kept, 'finished episode')} kept in ${join(args.out, 'trajectories')}; ` +
          'run the same command again with --resume to continue',
        { cause: e },
      );
    if (e instanceof DiskFullError)
      throw new EvaluateInterruptedError(
        `${e.message}: ${countOf(kept, 'finished episode')} ${kept === 1 ? 'is' : 'are'} kept in ` +
          `${join(args.out, 'trajectories')}; free some space, then run the same command again with --resume`,
        { cause: e },
      );
    throw e;
  } finally {
    interrupt.dispose();
    progress.stop();
    await pool?.close();
  }
}

/**
 * A file an evaluation wrote into its own folder (`manifest.json`, a saved `ppdpp-<task>.json`) that is damaged:
 * stored data (exit 1), never a usage error. `message` names the file and what is wrong; the error adds what to do.
 */
function damagedStoredFile(folder: string, message: string, cause: unknown): CheckpointError {
  return new CheckpointError(
    'RUN_FILE_DAMAGED',
    `${message}; the evaluation in ${folder} is damaged and cannot be resumed: move the folder away, or pass ` +
      '--overwrite to start it again',
    { path: folder, reason: message, cause },
  );
}

/** An evaluation stopped by Ctrl-C: its finished episodes stay in the output folder for `--resume`. */
export class EvaluateInterruptedError extends LabError {
  override name = 'EvaluateInterruptedError';
  override readonly code = 'EVALUATE_INTERRUPTED';
}

/** The names of what an evaluation writes into its folder (its top level), which --overwrite clears. */
const EVALUATION_FILES =
  /^(manifest\.json|settings\.json|report\.(json|csv|md)|trajectories|ppdpp-[a-z0-9]+\.json)$/;

/**
 * Whether this evaluation writes over `inside` (a path in its folder, `/`-separated): what --overwrite clears, or
 * what any run rewrites (its reports, manifest, settings, trajectories; a saved PPDPP planner is only read again).
 */
function writesInFolder(inside: string, args: Pick<EvaluateArgs, 'overwrite'>): boolean {
  const top = inside.split('/')[0] ?? '';
  return EVALUATION_FILES.test(top) && (args.overwrite || !top.startsWith('ppdpp-'));
}

/** Removes what an evaluation wrote into its folder (for --overwrite); leaves anything else. */
async function clearEvaluationFolder(folder: string): Promise<void> {
  for (const name of await readdir(folder))
    if (EVALUATION_FILES.test(name)) await rm(join(folder, name), { recursive: true, force: true });
}

/**
 * What to do with a `principles:FILE` memory built with another embedder: evaluate embeds with the hashed
 * embedder only, and `principles eval` takes `--embedder`.
 */
const EMBEDDER_HINT = {
  error: { class: ConfigError, codes: ['MEMORY_OPTION_INVALID'] },
  hint:
    'evaluate embeds principles:FILE memories with the hashed embedder (the default of principles build); ' +
    'evaluate a memory built with --embedder minilm with npm run principles -- eval --memory FILE --embedder minilm',
};

/** CLI entry: returns the process exit code (0 ok, 1 failure, 2 usage or configuration error). */
export async function main(argv: string[], io: Io): Promise<number> {
  return runCommand(
    io,
    async () => {
      const args = parseEvaluateArgs(argv, io);
      if (args === 'help') {
        io.stdout(`${HELP}\n`);
        return;
      }
      io.stdout(await runEvaluateCli(args, io));
    },
    [
      // MEMORY_OPTION_INVALID: a principles:FILE memory built with another embedder than evaluate's hashed one.
      { class: ConfigError, codes: ['EVAL_CONFIG_INVALID', 'JOB_CONFIG_INVALID', 'MEMORY_OPTION_INVALID'] },
      { class: ModelFileError, codes: ['PPDPP_MODEL_INVALID'] },
      PolicySpecError,
      { class: OutputConflictError, codes: ['OUTPUT_CONFLICT'] },
      { class: PathError, codes: ['OUTPUT_PATH_INVALID', 'FILE_UNREADABLE', 'PATH_KIND_MISMATCH'] },
    ],
    [...DATASET_HINTS, EMBEDDER_HINT],
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  boundHeapGrowth();
  exitOnStrayInterrupt('evaluate', (s) => process.stderr.write(s));
  const code = await main(process.argv.slice(2), {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    isTTY: Boolean(process.stderr.isTTY),
  });
  process.exitCode = code;
}
