/**
 * `npm run principles -- <command>`: build a principle memory by template self-play, query it, or evaluate the
 * Principles planner against the Standard policy (DESIGN.md "Principles"; Principles paper §3).
 */
import { readFile, rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { RandomPolicy, runEpisodes, type EpisodeRecord, type Policy } from '../src/agents';
import { StandardTemplatePolicy } from '../src/baselines/standard';
import { DatasetError } from '../src/data';
import { ConstructionCheckpointError } from '../src/memory';
import { HashedNgramEmbedder } from '../src/embed';
import { DialogueEnv, type Protocol } from '../src/env';
import {
  formatEstimate,
  pairedDifference,
  summarizeEpisodes,
  type BootstrapInterval,
  type EpisodeSummary,
} from '../src/stats';
import {
  MemoryFileError,
  OnlineConstructionEnv,
  PrincipleMemory,
  PrinciplesPlanner,
  TemplateWriter,
} from '../src/memory';
import { Rng } from '../src/rng';
import { DEFAULT_SPLIT_SEED, splitByKey } from '../src/seeding';
import { OutputConflictError, OutputPathError } from '../src/io';
import { assertOutputAvailable, writeFileAtomic } from '../src/io/node';
import { buildPrinciplesJob, type BuildPrinciplesResult } from '../src/jobs/build-principles';
import { JobAbortedError, JobConfigError, PolicyUnavailableError } from '../src/jobs/errors';
import { queryPrinciplesJob, type QueryPrinciplesResult } from '../src/jobs/query-principles';
import { cliMessage, parseNumber, UsageError, rngSeedValue, type Io as CliIo } from './options';
import { openBuildCheckpoint } from './partial';
import { loadSeedsArg } from './seeds';
import { TASK_IDS, getTask, type Seed, type TaskId } from '../src/tasks';
import { defaultSeeds } from '../src/tasks/defaults';

export const HELP = `Usage: npm run principles -- <command> [options]

Commands:
  build   Build a principle memory by template self-play against Cog-Sim with the per-turn critic
          (backtracking revision, at most --max-attempts revisions per failed turn) and write it as JSON.
  query   Retrieve the top-k principles of a memory file for a situation text (L2 distance of When clauses).
  eval    Compare the Principles planner (memory filtered by origin) with the Standard policy on seeds.

Common options:
  --task TASK          esconv | p4g | cb (required)
  --seeds PATH         dataset file, P4G folder/CSV, or seed JSONL file (default: the bundled authored seeds)
  --skip-invalid       skip malformed dataset records instead of stopping
  --split PART         use only one part of a seeded shuffle of the seeds: build (the first --build-size)
                       or eval (the rest); default: all seeds
  --build-size N       seeds in the build part (default 50)
  --split-seed N       seed of the split, the same split as train's (default 0)
  --json               print the report as one JSON object
  -h, --help           show this help

build:
  --episodes N         self-play episodes, seeds cycled (default 50)
  --out FILE           memory file to write (required)
  --name NAME          memory name (default: the task id)
  --max-attempts N     revision attempts per failed turn (default 3)
  --overwrite          replace an existing --out file and start the build again (otherwise refused before
                       any work)
  --resume             continue an interrupted build: its finished episodes are kept in FILE.checkpoint.jsonl
                       beside --out (written as each finishes; removed when the memory is written)
  --rng-seed N         the integer seeding the self-play streams (default 0; --seed N still works, with a notice)

query:
  --memory FILE        memory file (required)
  --text TEXT          the situation to match (required)
  --k N                principles to return (default 3)

eval:
  --memory FILE        memory file (required unless only --online)
  --episodes N         episodes per policy, seeds cycled (default: one per seed)
  --protocol P         cstpo (terminal utility, horizon 30) | ppdpp (per-turn critic) (default cstpo)
  --origins LIST       comma-separated memory variants: all, success, revision (default all,success,revision)
  --online             also run the planner from an empty memory with online construction (success only,
                       no backtracking; it follows principles within L2 distance 0.4, and with none
                       plays a uniformly random label)
  (Standard is the baseline of the paired differences; random is listed for reference.)
  --rng-seed N         the run's integer seed: each episode's streams come from (rng seed, task, seed id,
                       repeat), as in simulate and evaluate; also seeds the bootstrap (default 0)

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
type Io = Pick<CliIo, 'stdout' | 'stderr'>;

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
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

function integer(name: string, raw: string | undefined, min: number): number {
  if (raw === undefined) throw new UsageError(`--${name} needs a value`);
  return parseNumber(name, raw, { integer: true, min });
}

function required(values: Values, name: 'out' | 'memory' | 'text'): string {
  const v = values[name];
  if (v === undefined || v.trim() === '') throw new UsageError(`--${name} is required for this command`);
  return v;
}

/** The command and its options, checked. @throws UsageError. */
export function parsePrinciplesArgs(
  argv: string[],
  io?: Io,
): { command: string; values: Values; task: TaskId } | 'help' {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help || argv.length === 0) return 'help';
  if (positionals.length === 0) throw new UsageError('give a command: build, query or eval (see --help)');
  // One spelling from here on: --rng-seed (the old --seed still works, with a notice).
  values['rng-seed'] =
    rngSeedValue(values, { stdout: () => {}, stderr: () => {}, isTTY: false, ...io }) ?? '0';
  if (positionals.length > 1) throw new UsageError(`one command expected, got: ${positionals.join(' ')}`);
  const command = positionals[0] as string;
  if (!['build', 'query', 'eval'].includes(command))
    throw new UsageError(`unknown command "${command}"; use build, query or eval`);
  if (!values.task) throw new UsageError('--task is required (esconv, p4g or cb)');
  if (!(TASK_IDS as readonly string[]).includes(values.task))
    throw new UsageError(`unknown task "${values.task}"; use ${TASK_IDS.join(', ')}`);
  if (values.split !== undefined && values.split !== 'build' && values.split !== 'eval')
    throw new UsageError(`--split must be build or eval, got "${values.split}"`);
  if (values.protocol !== 'cstpo' && values.protocol !== 'ppdpp')
    throw new UsageError(`--protocol must be cstpo or ppdpp, got "${values.protocol}"`);
  for (const o of values.origins.split(','))
    if (!['all', 'success', 'revision'].includes(o))
      throw new UsageError(`--origins takes all, success and/or revision, got "${o}"`);
  return { command, values, task: values.task as TaskId };
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
    const loaded = await loadSeedsArg('seeds', values.seeds, task, { skipInvalid: values['skip-invalid'] });
    for (const s of loaded.skipped) io.stderr(`skipped: ${s.file}:${s.line}: ${s.reason}\n`);
    seeds = loaded.seeds;
  } else {
    seeds = defaultSeeds(task);
  }
  let source = values.seeds ?? 'bundled authored seeds';
  if (values.split) {
    const buildSize = integer('build-size', values['build-size'], 1);
    const parts = splitSeeds(seeds, buildSize, integer('split-seed', values['split-seed'], 0));
    seeds = parts[values.split as 'build' | 'eval'];
    source += ` (${values.split} part: ${seeds.length} seeds)`;
  }
  if (seeds.length === 0) throw new UsageError(`no seeds for ${task} in ${source}`);
  return { seeds, source };
}

/** What `build` reports: the job's figures (the memory itself goes to `--out`) and where the seeds came from. */
export type BuildReport = Omit<BuildPrinciplesResult, 'memory'> & { seedSource: string; out: string };

/** The build-principles job (src/jobs/build-principles.ts) with the seeds of the command line, written to --out. */
async function build(values: Values, task: TaskId, io: Io): Promise<BuildReport> {
  const out = required(values, 'out');
  if (values.resume && values.overwrite) throw new UsageError('give --resume or --overwrite, not both');
  await assertOutputAvailable(out, { kind: 'file', overwrite: values.overwrite });
  const episodes = values.episodes === undefined ? 50 : integer('episodes', values.episodes, 1);
  const maxAttempts = integer('max-attempts', values['max-attempts'], 0);
  const rngSeed = integer('rng-seed', values['rng-seed'], 0);
  const { seeds, source } = await loadSeeds(values, task, io);
  const checkpoint = await openBuildCheckpoint(out, values);
  const stop = new AbortController();
  const onSigint = () => stop.abort('interrupted');
  process.once('SIGINT', onSigint);
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
        signal: stop.signal,
        checkpoint,
      },
    );
  } finally {
    process.off('SIGINT', onSigint);
  }
  const { memory, ...figures } = result;
  await writeFileAtomic(out, JSON.stringify(memory) + '\n');
  await rm(checkpoint.source, { force: true });
  return { ...figures, seedSource: source, out };
}

const pct = (a: number, b: number) => (b === 0 ? '0.0' : ((100 * a) / b).toFixed(1));

function formatBuild(r: BuildReport): string {
  const byCount = Object.entries(r.strategies).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return (
    [
      `${getTask(r.task).title} · ${r.episodes} self-play episodes on ${r.seeds} seeds from ${r.seedSource}`,
      `principles written   ${r.written} (from revisions ${r.fromRevision} = ${pct(r.fromRevision, r.written)}%)`,
      `kept after dedup     ${r.kept} (from revisions ${r.keptFromRevision} = ${pct(r.keptFromRevision, r.kept)}%; ${r.duplicates} near-duplicates dropped)`,
      `strategies covered   ${r.labelsCovered} of ${r.labels} labels: ${byCount.map(([s, n]) => `${s} ${n}`).join(', ')}`,
      `turns                success ${r.turns.success}, revised ${r.turns.revised}, failed ${r.turns.failed}`,
      `memory written to ${r.out}`,
    ].join('\n') + '\n'
  );
}

async function loadMemory(values: Values, task: TaskId): Promise<PrincipleMemory> {
  const path = required(values, 'memory');
  const memory = await PrincipleMemory.fromFile(await readFile(path, 'utf8'), new HashedNgramEmbedder(), {
    source: path,
  });
  if (memory.task !== task) throw new UsageError(`${path} is a ${memory.task} memory, not ${task}`);
  return memory;
}

/** What `query` reports: the job's result. */
export type QueryReport = QueryPrinciplesResult;

/** The query-principles job (src/jobs/query-principles.ts) over the memory file of `--memory`. */
async function query(values: Values, task: TaskId): Promise<QueryReport> {
  const path = required(values, 'memory');
  try {
    return await queryPrinciplesJob({
      task,
      memory: await readFile(path, 'utf8'),
      source: path,
      text: required(values, 'text'),
      k: integer('k', values.k, 1),
    });
  } catch (e) {
    if (e instanceof PolicyUnavailableError) throw new UsageError(e.message);
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

/**
 * Largest retrieval distance the online planner follows: chosen on the bundled authored seeds (120 episodes per
 * task, candidates ∞ / 0.5 / 0.4 / 0.3 / 0.2), never on the dataset seeds that `eval --split eval` reports.
 */
export const ONLINE_MAX_DISTANCE = 0.4;

/** One evaluated policy of `eval`. */
export interface EvalRow {
  policy: string;
  principles: number | null;
  summary: EpisodeSummary;
  /** Paired difference against Standard on the same episodes (success and return); null for Standard. */
  vsStandard: { success: BootstrapInterval; return: BootstrapInterval } | null;
}

/** What `eval` reports. */
export interface EvalReport {
  task: TaskId;
  protocol: Protocol;
  seeds: number;
  seedSource: string;
  episodes: number;
  rows: EvalRow[];
}

async function evaluate(values: Values, task: TaskId, io: Io): Promise<EvalReport> {
  const { seeds, source } = await loadSeeds(values, task, io);
  const episodes = values.episodes === undefined ? seeds.length : integer('episodes', values.episodes, 1);
  const protocol = values.protocol as Protocol;
  const baseSeed = integer('rng-seed', values['rng-seed'], 0);
  const origins = values.origins.split(',');
  const policies: { policy: Policy; env: DialogueEnv; size: () => number | null }[] = [
    { policy: new StandardTemplatePolicy(), env: new DialogueEnv(task, { protocol }), size: () => null },
    { policy: new RandomPolicy(task), env: new DialogueEnv(task, { protocol }), size: () => null },
  ];
  if (values.memory !== undefined || !values.online) {
    const memory = await loadMemory(values, task);
    for (const origin of origins) {
      const m = memory.filter(origin, (p) => origin === 'all' || p.provenance.origin === origin);
      const planner = new PrinciplesPlanner({ memory: m, fallback: new StandardTemplatePolicy() });
      policies.push({ policy: planner, env: new DialogueEnv(task, { protocol }), size: () => m.size });
    }
  }
  if (values.online) {
    if (protocol !== 'ppdpp')
      throw new UsageError('--online needs per-turn critic rewards: use --protocol ppdpp');
    // Cold start: with nothing near enough retrieved, the planner explores the task's labels (a Standard
    // fallback would write principles for unlabelled replies, which no later turn can follow). Principles
    // farther than ONLINE_MAX_DISTANCE are not followed, so that a young memory does not lock the agent into
    // its first successes.
    const memory = new PrincipleMemory('online', task, new HashedNgramEmbedder());
    const planner = new PrinciplesPlanner({
      memory,
      fallback: new RandomPolicy(task),
      maxDistance: ONLINE_MAX_DISTANCE,
    });
    const env = new OnlineConstructionEnv(task, { memory, writer: new TemplateWriter() });
    policies.push({ policy: planner, env, size: () => memory.size });
  }
  const rows: EvalRow[] = [];
  let standard: EpisodeRecord[] = [];
  for (const { policy, env, size } of policies) {
    const records = await runEpisodes(env, policy, seeds, { episodes, baseSeed, keepState: false });
    const summary = summarizeEpisodes(
      records.map((r) => ({ caseId: r.seedId, success: r.success, turns: r.turns.length, return: r.return })),
      { rng: Rng.fromSeed(baseSeed) },
    );
    let vsStandard: EvalRow['vsStandard'] = null;
    if (rows.length === 0) standard = records;
    else {
      const keyed = (rs: EpisodeRecord[], f: (r: EpisodeRecord) => number) =>
        rs.map((r, i) => ({ key: `${r.seedId}/${i}`, value: f(r) }));
      const cluster = { clusterOf: (k: string) => k.slice(0, k.lastIndexOf('/')) };
      vsStandard = {
        success: pairedDifference(
          keyed(records, (r) => +r.success),
          keyed(standard, (r) => +r.success),
          {
            rng: Rng.fromSeed(baseSeed + 1),
            ...cluster,
          },
        ),
        return: pairedDifference(
          keyed(records, (r) => r.return),
          keyed(standard, (r) => r.return),
          {
            rng: Rng.fromSeed(baseSeed + 2),
            ...cluster,
          },
        ),
      };
    }
    rows.push({ policy: policy.name, principles: size(), summary, vsStandard });
  }
  return { task, protocol, seeds: seeds.length, seedSource: source, episodes, rows };
}

const ci = formatEstimate;
const signed = (i: { mean: number; lo: number; hi: number }) =>
  `${i.mean >= 0 ? '+' : ''}${i.mean.toFixed(3)} [${i.lo.toFixed(3)}, ${i.hi.toFixed(3)}]`;

function formatEval(r: EvalReport): string {
  const lines = [
    `${getTask(r.task).title} · protocol ${r.protocol} · ${r.episodes} episodes per policy on ${r.seeds} seeds from ${r.seedSource}`,
    `${'policy'.padEnd(22)}${'principles'.padEnd(12)}${'success rate'.padEnd(24)}${'mean return'.padEnd(24)}avg turns`,
  ];
  for (const row of r.rows) {
    const s = row.summary;
    lines.push(
      `${row.policy.padEnd(22)}${String(row.principles ?? '-').padEnd(12)}${ci(s.successRate).padEnd(24)}${ci(s.meanReturn).padEnd(24)}${s.avgTurnsAll.mean.toFixed(1)}`,
    );
  }
  lines.push('paired difference against standard (same seeds and episode order):');
  for (const row of r.rows)
    if (row.vsStandard)
      lines.push(
        `  ${row.policy.padEnd(20)}success ${signed(row.vsStandard.success)}   return ${signed(row.vsStandard.return)}`,
      );
  lines.push('(95% percentile bootstrap intervals, 2,000 resamples clustered by seed)');
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
      err instanceof JobConfigError ||
      err instanceof OutputConflictError ||
      err instanceof OutputPathError ||
      err instanceof ConstructionCheckpointError
    ) {
      io.stderr(`error: ${cliMessage(err.message)}\nRun with --help for the options.\n`);
      return 2;
    }
    if (err instanceof JobAbortedError) {
      io.stderr(
        `error: ${err.message}; the finished episodes are kept: run again with --resume to continue\n`,
      );
      return 1;
    }
    if (err instanceof DatasetError || err instanceof MemoryFileError) {
      io.stderr(`error: ${cliMessage(err.message)}\n`);
      return 1;
    }
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'EACCES') {
      io.stderr(`error: ${cliMessage((err as Error).message)}\n`);
      return 1;
    }
    io.stderr(`error: ${(err as Error).stack ?? String(err)}\n`);
    return 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await main(process.argv.slice(2), {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
  });
}
