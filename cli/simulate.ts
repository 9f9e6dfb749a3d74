/**
 * `npm run simulate`: run a policy on the Cog-Sim environment for a task, print success rate, average turns and
 * mean terminal return with 95% bootstrap intervals, and write the trajectories as JSONL.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { createPolicy, runEpisodes, toJsonl } from '../src/agents';
import { DatasetError } from '../src/data';
import { loadSeedsFromPath } from '../src/data/node';
import { DialogueEnv, type Protocol } from '../src/env';
import { summarizeEpisodes, type EpisodeSummary } from '../src/eval';
import { Rng } from '../src/rng';
import { TASK_IDS, getTask, type Seed, type TaskId } from '../src/tasks';
import { defaultSeeds } from '../src/tasks/defaults';

export const HELP = `Usage: npm run simulate -- --task TASK [options]

Run a policy against the Cog-Sim user simulator (template mode) and report success rate, average turns
and mean terminal return with 95% bootstrap intervals (2,000 resamples, clustered by seed).

Options:
  --task TASK          esconv | p4g | cb (required)
  --seeds PATH         dataset file, P4G folder/CSV, or seed JSONL file (default: the bundled authored seeds)
  --skip-invalid       skip malformed dataset records (counted and reported) instead of stopping
  --policy SPEC        random | replay | fixed:<strategy label> (default: random)
  --episodes N         number of episodes; seeds are cycled (default: one per seed)
  --protocol P         cstpo (terminal utility) | ppdpp (per-turn critic) (default: cstpo)
  --route MODE         stochastic | deterministic processing-route choice (default: stochastic)
  --seed N             base seed of the policy's random streams and of the bootstrap (default: 0)
  --out FILE           write the trajectories as JSONL (one episode a line)
  --json               print the summary as one JSON object on stdout
  -h, --help           show this help

Example:
  npm run simulate -- --task esconv --seeds ../shared/data/esconv/esconv-valid.jsonl --policy random \\
    --episodes 130 --out runs/esconv.jsonl`;

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
  try {
    createPolicy(task, values.policy);
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
  };
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
    const loaded = await loadSeedsFromPath(opts.seeds, opts.task, { skipInvalid: opts.skipInvalid });
    seeds = loaded.seeds;
    skipped = loaded.skipped;
    warnings = loaded.warnings.length;
    for (const w of loaded.warnings.slice(0, 10)) io.stderr(`warning: ${w.file}:${w.line}: ${w.message}\n`);
    if (loaded.warnings.length > 10) io.stderr(`warning: … and ${loaded.warnings.length - 10} more\n`);
    for (const s of skipped) io.stderr(`skipped: ${s.file}:${s.line}: ${s.reason}\n`);
  } else {
    seeds = defaultSeeds(opts.task);
  }
  if (seeds.length === 0)
    throw new UsageError(`no seeds for ${opts.task} in ${opts.seeds ?? 'the bundled seeds'}`);
  const episodes = opts.episodes ?? seeds.length;
  const env = new DialogueEnv(opts.task, { protocol: opts.protocol, routeSampling: opts.route });
  const policy = createPolicy(opts.task, opts.policy);
  const bar =
    io.isTTY && !opts.json && episodes >= 50
      ? new cliProgress.SingleBar(
          { format: 'episodes [{bar}] {value}/{total} {eta}s left', stream: process.stderr },
          cliProgress.Presets.shades_classic,
        )
      : null;
  bar?.start(episodes, 0);
  const records = await runEpisodes(env, policy, seeds, {
    episodes,
    baseSeed: opts.seed,
    onProgress: (done) => bar?.update(done),
  });
  bar?.stop();
  if (opts.out) {
    await mkdir(dirname(opts.out), { recursive: true });
    await writeFile(opts.out, toJsonl(records));
  }
  const summary = summarizeEpisodes(
    records.map((r) => ({ caseId: r.seedId, success: r.success, turns: r.turns.length, return: r.return })),
    { rng: Rng.fromSeed(opts.seed) },
  );
  return {
    task: opts.task,
    policy: policy.name,
    protocol: opts.protocol,
    seedSource: opts.seeds ?? 'bundled authored seeds',
    seeds: seeds.length,
    skipped,
    warnings,
    episodes,
    summary,
    out: opts.out ?? null,
  };
}

const f3 = (v: number) => v.toFixed(3);
const ci = (i: { mean: number; lo: number; hi: number }) => `${f3(i.mean)}  [${f3(i.lo)}, ${f3(i.hi)}]`;

/** The human-readable summary. */
export function formatReport(r: SimulateReport): string {
  const s = r.summary;
  const lines = [
    `${getTask(r.task).title} · policy ${r.policy} · protocol ${r.protocol}`,
    `${r.episodes} episodes on ${r.seeds} seeds from ${r.seedSource}` +
      (r.skipped.length ? ` (${r.skipped.length} invalid records skipped)` : ''),
    `success rate                 ${ci(s.successRate)}`,
    `average turns (all)          ${ci(s.avgTurnsAll)}`,
    `average turns (successful)   ${s.avgTurnsSuccessful ? ci(s.avgTurnsSuccessful) : 'n/a (no success)'}`,
    `mean terminal return         ${ci(s.meanReturn)}`,
    '(95% bootstrap intervals, 2,000 resamples clustered by seed)',
  ];
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
