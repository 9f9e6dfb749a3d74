/**
 * `npm run serve`: the environment server (src/server) for trainers in other processes and on other machines —
 * OpenEnv's wire protocol over the same `DialogueEnv` as `simulate`, with `--workers N` processes sharing one port.
 *
 * Processes: node:cluster, all workers listening on the same port (the primary hands each new connection to a
 * worker in turn). A WebSocket session is one TCP connection, so it stays with the worker that accepted it
 * (sticky by construction); the HTTP routes are stateless (the episode state travels in a sealed checkpoint token
 * that every worker can open: the primary gives them one key), so any worker can answer any request. One port
 * for N workers keeps the trainer's configuration to one URL.
 */
import cluster, { type Worker } from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { boundHeapGrowth } from './heap';
import {
  BACKEND_HELP,
  BACKEND_OPTIONS,
  SEEDS_HELP,
  UsageError,
  bool,
  flagHelp,
  languageConfig,
  languageValues,
  listValues,
  parseCommandLine,
  parseNumber,
  rangeText,
  readFixtures,
  runCommand,
  seedsValues,
  str,
  strs,
  type Io,
} from './options';
import { DATASET_HINTS, loadSeedsArg } from './seeds';
import { resolveRoles, type RolesConfig } from '../src/entries/models';
import {
  EnvServer,
  boundedFetch,
  isLoopback,
  taskEntry,
  type TaskEntry,
  PROTOCOL_VERSION,
} from '../src/entries/server';
import {
  SIMULATOR_VERSION,
  TASK_IDS,
  getSeedSet,
  legacyTaskName,
  legacyTaskNotice,
  seedSetNames,
  type TaskId,
  type TaskName,
} from '../src/entries/simulator';
import { ConfigError } from '../src/entries/errors';
import { portInUseError } from '../src/entries/server';

/** The integer options' ranges and defaults: what the parser enforces and `--help` shows. */
const LIMITS = {
  port: { min: 0, max: 65_535, default: 8000 },
  workers: { min: 1, max: 256, default: 1 },
  'max-sessions': { min: 1, max: 100_000, default: 64 },
  'idle-timeout': { min: 1, max: 86_400, default: 600 },
  'max-message-bytes': { min: 1024, max: 64 * 1024 * 1024, default: 1024 * 1024 },
  'max-llm-requests': { min: 1, max: 10_000, default: 8 },
  'shutdown-grace': { min: 0, max: 3600, default: 30 },
} as const;

/** A `--help` entry of an integer option, with its range and default as the generated options show them. */
function limitHelp(flag: keyof typeof LIMITS, value: string, text: string): string {
  const l = LIMITS[flag];
  const spec = { min: l.min, max: l.max };
  return flagHelp(
    [{ key: flag, flag, help: text, kind: 'integer', range: rangeText(spec), default: l.default, ...spec }],
    { [flag]: value },
  );
}

/** The seed sets `--seed-set` takes, per task, for the help (unions left out: serve one set per entry). */
const SEED_SET_HELP = TASK_IDS.filter((t) => seedSetNames(t).length > 0)
  .map(
    (t) =>
      `${t}'s ${seedSetNames(t)
        .filter((n) => !getSeedSet(t, n).members)
        .join(', ')}`,
  )
  .join('; ');

export const HELP = `Usage: npm run serve -- [options]

Serve the dialogue environment (Cog-Sim user simulator + judges) to trainers over OpenEnv's wire protocol:
WebSocket sessions at /ws (reset / step / state / close, plus checkpoint / restore) and the HTTP routes
/reset /step /state /schema /health /metadata. The client is the actor: it sends { strategy, utterance } and
receives the user's reply, the reward and the judge's verdicts. An episode keyed by (seed, task, seed_id, repeat)
equals the same episode from simulate. Protocol ${PROTOCOL_VERSION}, simulator ${SIMULATOR_VERSION}.

Options:
  --task TASK          task(s) to serve: ${TASK_IDS.join(' | ')}; repeatable or comma-separated; the first
                       is the default of reset (default esconv). The old --task emollm-ed still works, with a notice
  --seed-set LIST      named seed sets of the tasks, each served as its own entry under the set's name (reset's
                       task "emollm-ed") with the set's horizon; repeatable or comma-separated; bundled: the
                       task's default seeds too (a task none of the names belongs to serves its default seeds).
                       Sets: ${SEED_SET_HELP}
${SEEDS_HELP}
  --skip-invalid       skip malformed dataset records instead of stopping
  --protocol P         default reward protocol: cstpo (terminal utility) | ppdpp (per-turn) (default cstpo);
                       a reset may ask for the other
  --route MODE         simulator route sampling: stochastic | deterministic (default stochastic)
  --host HOST          bind address (default 127.0.0.1). Any non-loopback address needs a token (--token-env)
${limitHelp('port', 'N', 'port (0: any free port, printed on stdout)')}
${limitHelp('workers', 'N', 'processes sharing the port (one per core for a trainer node)')}
${limitHelp('max-sessions', 'N', 'WebSocket sessions per process')}
${limitHelp('idle-timeout', 'S', 'close a session idle for S seconds')}
${limitHelp('max-message-bytes', 'N', 'largest WebSocket frame / HTTP body')}
  --allow-critic       allow the critic scope (/ws?scope=critic): the simulator's hidden state for critics.
                       Off by default; a policy must never use it
  --token-env NAME     environment variable holding the shared token (default PDL_ENV_TOKEN); when set,
                       every request but /health needs "Authorization: Bearer <token>". Never logged
${limitHelp(
  'max-llm-requests',
  'N',
  "concurrent requests per process to the OpenAI-compatible engine of the simulator's and judge's language roles",
)}
${limitHelp('shutdown-grace', 'S', 'at SIGTERM / SIGINT, wait at most S seconds for in-flight steps')}
  -h, --help           show this help

${BACKEND_HELP}

Examples:
  npm run serve -- --task esconv --port 8000
  npm run serve -- --task esconv,p4g --workers 2 --port 8000
  npm run serve -- --task esconv --seed-set emollm-ed,emollm-msd --port 8000
  PDL_ENV_TOKEN=… npm run serve -- --host 0.0.0.0 --workers 8 \\
    --backend sim=openai --backend judge=openai --model qwen2.5:7b --base-url http://127.0.0.1:8001/v1
`;

const OPTIONS = {
  task: { type: 'string', multiple: true },
  'seed-set': { type: 'string', multiple: true },
  seeds: { type: 'string', multiple: true },
  'skip-invalid': { type: 'boolean' },
  protocol: { type: 'string' },
  route: { type: 'string' },
  host: { type: 'string' },
  port: { type: 'string' },
  workers: { type: 'string' },
  'max-sessions': { type: 'string' },
  'idle-timeout': { type: 'string' },
  'max-message-bytes': { type: 'string' },
  'allow-critic': { type: 'boolean' },
  'token-env': { type: 'string' },
  'max-llm-requests': { type: 'string' },
  'shutdown-grace': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  ...BACKEND_OPTIONS,
} as const;

/** One entry the server offers: a task's default seeds, or one of its named seed sets. */
export interface ServeEntry {
  /** The entry's name, what a reset's `task` names: the task (`esconv`) or the seed set (`emollm-ed`). */
  name: TaskName;
  task: TaskId;
  seedSet?: string;
}

/** Parsed `serve` options. */
export interface ServeOptions {
  /** The entries' names, in order: the first is reset's default. */
  tasks: TaskName[];
  entries: ServeEntry[];
  /** `--seeds` per entry name: a path or `bundled`. */
  seeds: Record<string, string>;
  skipInvalid: boolean;
  protocol: 'cstpo' | 'ppdpp';
  route?: 'stochastic' | 'deterministic';
  host: string;
  port: number;
  workers: number;
  maxSessions: number;
  idleTimeoutS: number;
  maxMessageBytes: number;
  allowCritic: boolean;
  tokenEnv: string;
  maxLlmRequests: number;
  shutdownGraceS: number;
  language: RolesConfig;
  fixtures?: string;
}

/**
 * The entries of `--task` and `--seed-set`, as evaluate reads them: an old task name (`emollm-ed`) is its task with
 * that seed set (a notice on `io`); each seed set is an entry of its own, named after the set; a task serves its
 * default seeds when none of the sets is its own, or when `bundled` is among them (or the task is also named
 * plainly next to an old name of its sets). Order: the tasks as given, each with its default seeds first, then its
 * sets as given.
 * @throws UsageError for an unknown task, an unknown seed set (listing the valid ones) or a union set (`emollm`).
 */
function serveEntries(
  rawTasks: readonly string[],
  rawSets: readonly string[],
  io: Pick<Io, 'stderr'>,
): ServeEntry[] {
  const olds = rawTasks.map(legacyTaskName);
  for (const old of olds) if (old) io.stderr(legacyTaskNotice(old, 'cli'));
  const given = rawTasks.map((t, i) => olds[i]?.task ?? t);
  for (const t of given)
    if (!(TASK_IDS as readonly string[]).includes(t))
      throw new UsageError(
        `--task ${t}: unknown task; one of ${TASK_IDS.join(', ')} (EmoLLM settings: --task esconv --seed-set emollm-ed, …)`,
      );
  const tasks = [...new Set(given as TaskId[])];
  const setNames = [
    ...rawSets,
    ...olds.flatMap((o) => (o ? [o.seedSet] : [])),
    ...rawTasks.filter((t, i) => !olds[i] && olds.some((o) => o?.task === t)).map(() => 'bundled'),
  ];
  const sets: ServeEntry[] = [];
  for (const name of new Set(setNames)) {
    if (name === 'bundled') continue;
    const task = tasks.find((t) => seedSetNames(t).includes(name));
    if (task === undefined)
      throw new UsageError(
        `--seed-set: unknown seed set "${name}" of ${tasks.join(', ')}; valid seed sets: ` +
          `${[...new Set(tasks.flatMap(seedSetNames)), 'bundled'].join(', ')}`,
      );
    const members = getSeedSet(task, name).members;
    if (members)
      throw new UsageError(
        `--seed-set ${name}: serve one seed set per entry (${members.join(', ')}): list them, comma-separated`,
      );
    sets.push({ name: name as TaskName, task, seedSet: name });
  }
  return tasks.flatMap((task) => [
    ...(setNames.includes('bundled') || !sets.some((s) => s.task === task)
      ? [{ name: task as TaskName, task }]
      : []),
    ...sets.filter((s) => s.task === task),
  ]);
}

/**
 * Parses the command line; notices (an old spelling) go to `io` (a cluster worker, which parses the primary's
 * command line again, passes a silent one).
 * @throws UsageError for a bad option.
 */
export function parseServeArgs(
  argv: string[],
  io: Pick<Io, 'stderr'> = { stderr: (s) => void process.stderr.write(s) },
): ServeOptions | 'help' {
  const values = parseCommandLine(argv, OPTIONS);
  if (bool(values, 'help')) return 'help';
  const tasks = listValues(strs(values, 'task'));
  const entries = serveEntries(
    tasks.length > 0 ? tasks : ['esconv'],
    listValues(strs(values, 'seed-set')),
    io,
  );
  const names = entries.map((e) => e.name);
  const protocol = str(values, 'protocol') ?? 'cstpo';
  if (protocol !== 'cstpo' && protocol !== 'ppdpp')
    throw new UsageError(`--protocol ${protocol}: use cstpo or ppdpp`);
  const route = str(values, 'route');
  if (route !== undefined && route !== 'stochastic' && route !== 'deterministic')
    throw new UsageError(`--route ${route}: use stochastic or deterministic`);
  const int = (flag: keyof typeof LIMITS): number => {
    const raw = str(values, flag);
    const { min, max } = LIMITS[flag];
    return raw === undefined ? LIMITS[flag].default : parseNumber(flag, raw, { integer: true, min, max });
  };
  const lang = languageValues(values);
  return {
    tasks: names,
    entries,
    seeds: seedsValues(strs(values, 'seeds'), names),
    skipInvalid: bool(values, 'skip-invalid'),
    protocol,
    ...(route !== undefined ? { route } : {}),
    host: str(values, 'host') ?? '127.0.0.1',
    port: int('port'),
    workers: int('workers'),
    maxSessions: int('max-sessions'),
    idleTimeoutS: int('idle-timeout'),
    maxMessageBytes: int('max-message-bytes'),
    allowCritic: bool(values, 'allow-critic'),
    tokenEnv: str(values, 'token-env') ?? 'PDL_ENV_TOKEN',
    maxLlmRequests: int('max-llm-requests'),
    shutdownGraceS: int('shutdown-grace'),
    language: languageConfig(lang),
    ...(lang.fixtures !== undefined ? { fixtures: lang.fixtures } : {}),
  };
}

/** The token from the environment, checked against the bind. @throws UsageError for a non-loopback bind without one. */
function tokenOf(opts: ServeOptions): string | undefined {
  const token = process.env[opts.tokenEnv];
  if (token !== undefined && token.length < 16)
    throw new UsageError(`the token in $${opts.tokenEnv} is too short (16 characters at least)`);
  if (!isLoopback(opts.host) && !token)
    throw new UsageError(
      `--host ${opts.host} is not loopback: set a token in $${opts.tokenEnv} (clients send it as a Bearer token), ` +
        'and put TLS in front (README "Past one machine")',
    );
  return token || undefined;
}

/**
 * The task entries of `opts`, by name in order, each with its seeds (`--seeds` for it, or the bundled ones).
 * @throws what `loadSeedsArg` throws for a seed file; ConfigError (SERVER_OPTION_INVALID) from `taskEntry`.
 */
export async function loadEntries(
  opts: Pick<ServeOptions, 'entries' | 'seeds' | 'skipInvalid'>,
  io: Pick<Io, 'stderr'>,
): Promise<Map<string, TaskEntry>> {
  const tasks = new Map<string, TaskEntry>();
  for (const entry of opts.entries) {
    const path = opts.seeds[entry.name] ?? 'bundled';
    const seeds =
      path === 'bundled'
        ? undefined
        : (
            await loadSeedsArg('seeds', path, entry.name, {
              skipInvalid: opts.skipInvalid,
              notice: io.stderr,
            })
          ).seeds;
    tasks.set(entry.name, taskEntry(entry.task, seeds, entry.seedSet));
  }
  return tasks;
}

/** Builds and starts one server process. */
async function startServer(
  opts: ServeOptions,
  io: Io,
  sealKey: Buffer,
  token: string | undefined,
): Promise<{ server: EnvServer; port: number }> {
  const tasks = await loadEntries(opts, io);
  const language = opts.fixtures
    ? { ...opts.language, fixtures: await readFixtures(opts.fixtures) }
    : opts.language;
  const roles = resolveRoles(language, { fetch: boundedFetch(globalThis.fetch, opts.maxLlmRequests) });
  const server = new EnvServer({
    context: {
      tasks,
      protocol: opts.protocol,
      env: roles.env,
      sealKey,
      ...(opts.route ? { routeSampling: opts.route } : {}),
    },
    host: opts.host,
    port: opts.port,
    maxSessions: opts.maxSessions,
    idleTimeoutMs: opts.idleTimeoutS * 1000,
    maxMessageBytes: opts.maxMessageBytes,
    allowCritic: opts.allowCritic,
    shutdownGraceMs: opts.shutdownGraceS * 1000,
    ...(token ? { token } : {}),
    log: (line) => io.stderr(`[serve ${process.pid}] ${line}\n`),
  });
  const { port } = await server.listen();
  return { server, port };
}

/**
 * Settles at the first SIGTERM / SIGINT (in a cluster worker, also at a `shutdown` message from the primary).
 * Registered before the task loads, so a stop asked for while a process starts is kept, not lost.
 */
function stopRequested(): Promise<void> {
  return new Promise<void>((resolve) => {
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
    if (cluster.isWorker)
      process.on('message', (m) => {
        if (m === 'shutdown') resolve();
      });
  });
}

/**
 * Whether `port` on `host` can be listened on, tried before forking the workers (a worker that cannot listen
 * would be replaced again and again). Port 0 (any free port) is not tried.
 * @throws ConfigError (SERVER_PORT_IN_USE) when it is taken.
 */
async function assertPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const { createServer } = await import('node:net');
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (e: NodeJS.ErrnoException) =>
      reject(e.code === 'EADDRINUSE' ? portInUseError(host, port, { cause: e }) : e),
    );
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

/**
 * The cluster primary: forks the workers, prints the port once all of them listen, forwards shutdown (to a
 * worker still starting, once it listens), replaces a crashed worker.
 */
async function runPrimary(opts: ServeOptions, io: Io, stop: Promise<void>): Promise<void> {
  await assertPortFree(opts.host, opts.port);
  const sealKey = randomBytes(32).toString('hex');
  let stopping = false;
  let listeningCount = 0;
  const listening = new Set<Worker>();
  const spawn = (): void => {
    const worker = cluster.fork({ PDL_SERVE_WORKER_KEY: sealKey });
    worker.on('listening', (address) => {
      listening.add(worker);
      listeningCount += 1;
      if (listeningCount === opts.workers)
        io.stdout(`listening on http://${opts.host}:${address.port} (${opts.workers} workers)\n`);
    });
    worker.on('exit', (code) => {
      listening.delete(worker);
      if (!stopping) {
        io.stderr(`[serve] worker ${worker.process.pid} exited (${code}); starting another\n`);
        spawn();
      }
    });
  };
  for (let i = 0; i < opts.workers; i++) spawn();
  io.stderr(`[serve] started ${opts.workers} workers; each loads the task\n`);
  await stop;
  stopping = true;
  const workers = Object.values(cluster.workers ?? {});
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve) => {
          if (w === undefined || w.isDead()) return resolve();
          w.once('exit', () => resolve());
          // A worker that does not listen yet has its handler set but may still be loading its task.
          if (listening.has(w)) w.send('shutdown');
          else w.once('listening', () => w.send('shutdown'));
        }),
    ),
  );
}

/** CLI entry: returns the exit code (0 after a graceful shutdown, 1 failure, 2 usage error). */
export async function main(argv: string[], io: Io): Promise<number> {
  return runCommand(
    io,
    async () => {
      if (cluster.isWorker) {
        // The primary has printed the notices of this command line already.
        const opts = parseServeArgs(argv, { stderr: () => undefined }) as ServeOptions;
        const key = Buffer.from(process.env.PDL_SERVE_WORKER_KEY ?? '', 'hex');
        const stop = stopRequested();
        const { server } = await startServer({ ...opts, workers: 1 }, io, key, tokenOf(opts));
        await stop;
        await server.shutdown();
        return;
      }
      const opts = parseServeArgs(argv, io);
      if (opts === 'help') {
        io.stdout(HELP);
        return;
      }
      const token = tokenOf(opts);
      const stop = stopRequested();
      if (opts.workers > 1) return runPrimary(opts, io, stop);
      const { server, port } = await startServer(opts, io, randomBytes(32), token);
      io.stdout(`listening on http://${opts.host}:${port} (1 worker)\n`);
      await stop;
      await server.shutdown();
    },
    [{ class: ConfigError, codes: ['SERVER_OPTION_INVALID', 'SERVER_PORT_IN_USE'] }],
    DATASET_HINTS,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  boundHeapGrowth();
  const code = await main(process.argv.slice(2), {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    isTTY: Boolean(process.stderr.isTTY),
  });
  process.exit(code);
}
