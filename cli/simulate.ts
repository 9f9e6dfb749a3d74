/**
 * `npm run simulate`: run a policy on the Cog-Sim environment for a task, print success rate, average turns and
 * mean terminal return with 95% bootstrap intervals, and write the trajectories as JSONL. The language roles run
 * in template mode or on a language backend per role (`--backend`), and the LLM calls and tokens are reported.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { toJsonl } from '../src/agents';
import { DatasetError } from '../src/data';
import { loadSeedsFromPath } from '../src/data/node';
import type { Protocol } from '../src/env';
import { formatEstimate, summarizeEpisodes, type EpisodeSummary } from '../src/stats';
import type { ReplayFixture } from '../src/llm/replay';
import { Rng } from '../src/rng';
import {
  BACKEND_KINDS,
  ROLE_KEYS,
  RolesConfigSchema,
  resolveRoles,
  runLanguageJob,
  usesLlm,
  type BackendSpec,
  type RoleKey,
  type RoleUsage,
  type RolesConfig,
} from '../src/roles';
import type { UsageStats } from '../src/llm/usage';
import { TASK_IDS, getTask, type Seed, type TaskId } from '../src/tasks';
import { defaultSeeds } from '../src/tasks/defaults';

export const HELP = `Usage: npm run simulate -- --task TASK [options]

Run a policy against the Cog-Sim user simulator and report success rate, average turns and mean terminal
return with 95% bootstrap intervals (2,000 resamples, clustered by seed). The language roles run in template
mode (fast, deterministic) unless --backend puts them on a language model; then the LLM calls and tokens per
episode are reported too.

Options:
  --task TASK          esconv | p4g | cb (required)
  --seeds PATH         dataset file, P4G folder/CSV, or seed JSONL file (default: the bundled authored seeds)
  --skip-invalid       skip malformed dataset records (counted and reported) instead of stopping
  --policy SPEC        random | replay | fixed:<strategy label> | llm (strategy proposer + realizer roles:
                       template rules unless --backend puts them on an LLM)
                       | arg (EmoLLM's ARG actor, reverse-perspective lookahead) (default: random)
  --episodes N         number of episodes; seeds are cycled (default: one per seed)
  --protocol P         cstpo (terminal utility) | ppdpp (per-turn critic) (default: cstpo)
  --route MODE         stochastic | deterministic processing-route choice (default: stochastic)
  --seed N             base seed of the policy's random streams and of the bootstrap (default: 0)
  --out FILE           write the trajectories as JSONL (one episode a line)
  --json               print the summary as one JSON object on stdout
  -h, --help           show this help

Language backends (any mix per role):
  --backend SPEC       KIND for every role, or ROLE=KIND for one role or group; repeatable, the most specific
                       wins. KIND: template | webllm | openai | replay (default template). ROLE: strategy,
                       realizer, mode, proposer, responder, judge, arg, predictor, or the groups actor
                       (strategy, realizer, arg, predictor) and sim (mode, proposer, responder).
                       webllm runs only in a browser (WebGPU in a Web Worker); use openai or replay here.
  --model NAME         model of the webllm / openai backend (e.g. qwen2.5:0.5b for Ollama)
  --base-url URL       OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1 (loopback only by default)
  --allow-remote       allow a non-loopback --base-url (dialogue text then leaves this machine)
  --fixtures FILE      replay fixture JSON (request key -> answers), or a recorded episode file
                       ({ job, fixture }, as in tests/fixtures/llm/episodes/); required by replay
  --candidates N       candidate replies per turn for --policy llm / arg (default 1)
  --lookahead N        reverse-perspective lookahead depth n for --policy arg (default 3)

Examples:
  npm run simulate -- --task esconv --seeds ../shared/data/esconv/esconv-valid.jsonl --policy random \\
    --episodes 130 --out runs/esconv.jsonl
  npm run simulate -- --task p4g --policy llm --backend replay \\
    --fixtures tests/fixtures/llm/episodes/p4g.replay.json --episodes 1
  npm run simulate -- --task cb --policy llm --backend sim=openai --backend actor=openai --backend judge=template \\
    --base-url http://127.0.0.1:11434/v1 --model qwen2.5:0.5b --episodes 5`;

/** A command-line mistake: printed with the usage hint, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface SimulateOptions {
  task: TaskId;
  seeds?: string;
  skipInvalid: boolean;
  policy: string;
  episodes?: number;
  protocol: Protocol;
  route: 'stochastic' | 'deterministic';
  seed: number;
  out?: string;
  json: boolean;
  /** Backends per role (fixtures not yet loaded: see `fixtures`). */
  language: RolesConfig;
  /** Replay fixture file, read by `simulate`. */
  fixtures?: string;
}

function positiveInt(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`--${name} must be a positive integer, got "${raw}"`);
  return n;
}

/** Parse and validate the command line. @throws UsageError on any mistake. */
export function parseSimulateArgs(argv: string[]): SimulateOptions | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        task: { type: 'string' },
        seeds: { type: 'string' },
        'skip-invalid': { type: 'boolean', default: false },
        policy: { type: 'string', default: 'random' },
        episodes: { type: 'string' },
        protocol: { type: 'string', default: 'cstpo' },
        route: { type: 'string', default: 'stochastic' },
        seed: { type: 'string', default: '0' },
        out: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
        backend: { type: 'string', multiple: true, default: [] },
        model: { type: 'string' },
        'base-url': { type: 'string' },
        'allow-remote': { type: 'boolean', default: false },
        fixtures: { type: 'string' },
        candidates: { type: 'string' },
        lookahead: { type: 'string' },
      },
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.help) return 'help';
  if (!values.task) throw new UsageError('--task is required (esconv, p4g or cb)');
  if (!(TASK_IDS as readonly string[]).includes(values.task)) {
    throw new UsageError(`unknown task "${values.task}"; use ${TASK_IDS.join(', ')}`);
  }
  if (values.protocol !== 'cstpo' && values.protocol !== 'ppdpp') {
    throw new UsageError(`--protocol must be cstpo or ppdpp, got "${values.protocol}"`);
  }
  if (values.route !== 'stochastic' && values.route !== 'deterministic') {
    throw new UsageError(`--route must be stochastic or deterministic, got "${values.route}"`);
  }
  const seed = Number(values.seed);
  if (!Number.isSafeInteger(seed) || seed < 0)
    throw new UsageError(`--seed must be a non-negative integer, got "${values.seed}"`);
  const task = values.task as TaskId;
  const language = languageConfig(values);
  if (values.fixtures !== undefined && !usesReplay(language)) {
    throw new UsageError(
      '--fixtures is only read by the replay backend; add --backend replay (or ROLE=replay)',
    );
  }
  if (values.fixtures === undefined && usesReplay(language)) {
    throw new UsageError('--backend replay needs --fixtures FILE');
  }
  if (!usesLlm(language) && (values.model !== undefined || values['base-url'] !== undefined)) {
    throw new UsageError('--model and --base-url are only used with --backend webllm or openai');
  }
  try {
    // Builds every role now (no request is sent) to catch WebLLM outside a browser, a remote URL, a bad policy.
    const placeholder = usesReplay(language) ? { ...language, fixtures: {} } : language;
    resolveRoles(placeholder).policy(task, values.policy);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  return {
    task,
    ...(values.seeds !== undefined ? { seeds: values.seeds } : {}),
    skipInvalid: values['skip-invalid'],
    policy: values.policy,
    ...(values.episodes !== undefined ? { episodes: positiveInt('episodes', values.episodes) } : {}),
    protocol: values.protocol,
    route: values.route,
    seed,
    ...(values.out !== undefined ? { out: values.out } : {}),
    json: values.json,
    language,
    ...(values.fixtures !== undefined ? { fixtures: values.fixtures } : {}),
  };
}

/** The option values `languageConfig` reads. */
interface LanguageValues {
  backend: string[];
  model?: string;
  'base-url'?: string;
  'allow-remote': boolean;
  candidates?: string;
  lookahead?: string;
}

/** `--backend` and its companions as a roles config (without fixtures). @throws UsageError. */
export function languageConfig(values: LanguageValues): RolesConfig {
  const spec = (kind: string): BackendSpec => {
    if (!(BACKEND_KINDS as readonly string[]).includes(kind)) {
      throw new UsageError(`unknown backend "${kind}"; use ${BACKEND_KINDS.join(', ')}`);
    }
    return {
      kind: kind as BackendSpec['kind'],
      ...(values.model !== undefined ? { model: values.model } : {}),
      ...(values['base-url'] !== undefined ? { baseUrl: values['base-url'] } : {}),
      ...(values['allow-remote'] ? { allowRemote: true } : {}),
    };
  };
  const config: RolesConfig = {};
  const roles: Partial<Record<RoleKey, BackendSpec>> = {};
  for (const entry of values.backend) {
    const eq = entry.indexOf('=');
    if (eq < 0) {
      config.default = spec(entry);
      continue;
    }
    const role = entry.slice(0, eq);
    if (!(ROLE_KEYS as readonly string[]).includes(role)) {
      throw new UsageError(`unknown role "${role}" in --backend ${entry}; use ${ROLE_KEYS.join(', ')}`);
    }
    roles[role as RoleKey] = spec(entry.slice(eq + 1));
  }
  if (Object.keys(roles).length > 0) config.roles = roles;
  const candidates = positiveInt('candidates', values.candidates);
  if (candidates !== undefined) config.candidates = candidates;
  const lookahead = positiveInt('lookahead', values.lookahead);
  if (lookahead !== undefined) config.lookahead = lookahead;
  // Fixtures are loaded later; validate the rest now (model / base URL requirements).
  const checked = RolesConfigSchema.safeParse(usesReplay(config) ? { ...config, fixtures: {} } : config);
  if (!checked.success) {
    throw new UsageError(
      checked.error.issues.map((i) => `${i.path.join('.') || 'backend'}: ${i.message}`).join('; '),
    );
  }
  return config;
}

function usesReplay(config: RolesConfig): boolean {
  return [config.default, ...Object.values(config.roles ?? {})].some((s) => s?.kind === 'replay');
}

/**
 * Reads a replay fixture: a JSON object of request key → answers, or a recorded episode file whose `fixture`
 * member is one. @throws UsageError naming the file when it cannot be read or is not JSON.
 */
export async function readFixtures(path: string): Promise<ReplayFixture> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read --fixtures ${path}: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--fixtures ${path} is not JSON: ${(err as Error).message}`);
  }
  const inner = (json as { fixture?: unknown; job?: unknown }) ?? {};
  return (inner.job !== undefined && inner.fixture !== undefined ? inner.fixture : json) as ReplayFixture;
}

/** What `simulate` reports (also the `--json` output). */
export interface SimulateReport {
  task: TaskId;
  policy: string;
  protocol: Protocol;
  seedSource: string;
  seeds: number;
  skipped: { file: string; line: number; reason: string }[];
  warnings: number;
  episodes: number;
  summary: EpisodeSummary;
  out: string | null;
  /** LLM use, when any role ran on a language backend: per role, and the mean per episode. */
  llm: { roles: RoleUsage[]; perEpisode: Omit<UsageStats, 'callsWithoutUsage'> } | null;
}

interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  isTTY: boolean;
}

/** Run the job described by `opts`. @throws DatasetError, node:fs errors. */
export async function simulate(opts: SimulateOptions, io: Io): Promise<SimulateReport> {
  let seeds: Seed[];
  let skipped: SimulateReport['skipped'] = [];
  let warnings = 0;
  if (opts.seeds) {
    if (!existsSync(opts.seeds)) throw new UsageError(`--seeds: no such file or folder: ${opts.seeds}`);
    const loaded = await loadSeedsFromPath(opts.seeds, opts.task, { skipInvalid: opts.skipInvalid });
    seeds = loaded.seeds;
    skipped = loaded.skipped;
    warnings = loaded.warnings.length;
    for (const w of loaded.warnings.slice(0, 10)) io.stderr(`warning: ${w.file}:${w.line}: ${w.message}\n`);
    if (loaded.warnings.length > 10) io.stderr(`warning: … and ${loaded.warnings.length - 10} more\n`);
    for (const s of skipped.slice(0, 10)) io.stderr(`skipped: ${s.file}:${s.line}: ${s.reason}\n`);
    if (skipped.length > 10) io.stderr(`skipped: … and ${skipped.length - 10} more (all listed in --json)\n`);
  } else {
    seeds = defaultSeeds(opts.task);
  }
  if (seeds.length === 0)
    throw new UsageError(`no seeds for ${opts.task} in ${opts.seeds ?? 'the bundled seeds'}`);
  const episodes = opts.episodes ?? seeds.length;
  const language: RolesConfig = opts.fixtures
    ? { ...opts.language, fixtures: await readFixtures(opts.fixtures) }
    : opts.language;
  const bar =
    io.isTTY && !opts.json && episodes >= 50
      ? new cliProgress.SingleBar(
          { format: 'episodes [{bar}] {value}/{total} {eta}s left', stream: process.stderr },
          cliProgress.Presets.shades_classic,
        )
      : null;
  bar?.start(episodes, 0);
  const run = await runLanguageJob(
    {
      task: opts.task,
      policy: opts.policy,
      seeds,
      episodes,
      protocol: opts.protocol,
      routeSampling: opts.route,
      baseSeed: opts.seed,
      language,
    },
    { onProgress: (done) => bar?.update(done) },
  );
  bar?.stop();
  const records = run.records;
  if (opts.out) {
    await mkdir(dirname(opts.out), { recursive: true });
    await writeFile(opts.out, toJsonl(records));
  }
  const summary = summarizeEpisodes(
    records.map((r) => ({ caseId: r.seedId, success: r.success, turns: r.turns.length, return: r.return })),
    { rng: Rng.fromSeed(opts.seed) },
  );
  const mean = (key: 'calls' | 'promptTokens' | 'completionTokens') =>
    run.episodeUsage.reduce((sum, u) => sum + u[key], 0) / run.episodeUsage.length;
  return {
    task: opts.task,
    policy: records[0]?.policy ?? opts.policy,
    protocol: opts.protocol,
    seedSource: opts.seeds ?? 'bundled authored seeds',
    seeds: seeds.length,
    skipped,
    warnings,
    episodes,
    summary,
    out: opts.out ?? null,
    llm: usesLlm(language)
      ? {
          roles: run.usage,
          perEpisode: {
            calls: mean('calls'),
            promptTokens: mean('promptTokens'),
            completionTokens: mean('completionTokens'),
          },
        }
      : null,
  };
}

const ci = formatEstimate;

/** The human-readable summary. */
export function formatReport(r: SimulateReport): string {
  const s = r.summary;
  const lines = [
    `${getTask(r.task).title} · policy ${r.policy} · protocol ${r.protocol}`,
    `${r.episodes} episodes cycling through ${r.seeds} seeds from ${r.seedSource}` +
      (r.skipped.length
        ? ` (${r.skipped.length} invalid record${r.skipped.length === 1 ? '' : 's'} skipped)`
        : ''),
    `success rate                 ${ci(s.successRate)}`,
    `average turns (all)          ${ci(s.avgTurnsAll)}`,
    `average turns (successful)   ${s.avgTurnsSuccessful ? ci(s.avgTurnsSuccessful) : 'n/a (no success)'}`,
    `mean terminal return         ${ci(s.meanReturn)}`,
    '(95% bootstrap intervals, 2,000 resamples clustered by seed)',
  ];
  if (r.llm) {
    const e = r.llm.perEpisode;
    lines.push(
      `LLM per episode              ${e.calls.toFixed(1)} calls, ${Math.round(e.promptTokens)} prompt + ` +
        `${Math.round(e.completionTokens)} completion tokens`,
    );
    for (const u of r.llm.roles.filter((x) => x.calls > 0)) {
      lines.push(
        `  ${u.role.padEnd(10)} ${u.backend.padEnd(24)} ${u.calls} calls, ${u.promptTokens} + ${u.completionTokens} tokens`,
      );
    }
  }
  if (r.out) lines.push(`trajectories written to ${r.out}`);
  return lines.join('\n') + '\n';
}

/** CLI entry: returns the process exit code (0 ok, 1 failure, 2 usage error). */
export async function main(argv: string[], io: Io): Promise<number> {
  try {
    const opts = parseSimulateArgs(argv);
    if (opts === 'help') {
      io.stdout(HELP + '\n');
      return 0;
    }
    const report = await simulate(opts, io);
    io.stdout(opts.json ? JSON.stringify(report) + '\n' : formatReport(report));
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
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
