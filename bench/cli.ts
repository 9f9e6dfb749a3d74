/**
 * The benchmark runner behind `npm run bench` (bench/run.ts): parses the command line, runs the selected
 * benchmarks in registration order and writes their entries as one JSON array (github-action-benchmark custom
 * format) to stdout or a file. Progress and errors go to stderr only.
 */
import { cliMessage, rngSeedValue, UsageError as OptionError, type Io } from '../cli/options';
import { assertOutputAvailable, writeFileAtomic } from '../src/node';
import { parseArgs } from 'node:util';
import { BenchEntrySchema, type BenchEntry, type Benchmark } from './types';
import { hasCode, OutputConflictError, PathError } from '../src/entries/errors';

export const USAGE = `Usage: npm run bench -- [options]

Runs the registered benchmarks (bench/registry.ts) and prints a JSON array of
{ "name", "unit", "value", "extra" } entries (github-action-benchmark custom format).

Options:
  --filter REGEX        run only benchmarks whose name matches REGEX (JavaScript syntax)
  --out FILE            write the JSON to FILE instead of stdout (an existing FILE is refused before any
                        benchmark runs, unless --overwrite)
  --overwrite           replace an existing --out FILE
  --direction WHICH     keep entries that are "smaller" or "bigger" is better, or "all" (default all);
                        one github-action-benchmark tool reads one direction
  --runs N              timed runs per measurement (integer ≥ 1), honoured by every timed benchmark
                        (llm/overhead's two sub-millisecond setup timings make 4 × N); without it 20, and
                        the slow measurements their own counts: env/episodes 7; eval/throughput,
                        server/episodes, memory/load, memory/browser's tfjs timings and memory/webgpu on a
                        software adapter 5; cli/help-latency and memory/retrieval's plain and tfjs-cpu scans
                        10; rl/step-time 3
  --warmup N            untimed warm-up calls per measurement (default 3)
  --rng-seed N          seed for generated benchmark inputs (default 1)
  --seed N              old name of --rng-seed (still works, with a notice)
  --list                print the benchmark names and exit
  --help                print this help and exit

Exit status: 0 on success, 1 when a benchmark failed (the others are still written), 2 on a usage error.`;

/** Where the runner writes; `process.stdout`/`process.stderr` in bench/run.ts, buffers in tests. */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

class UsageError extends Error {
  override readonly name = 'UsageError';
}

interface CliOptions {
  filter?: RegExp;
  out?: string;
  overwrite: boolean;
  direction: 'all' | 'smaller' | 'bigger';
  /** `--runs`, or undefined when not given (each measurement's own count; 20 where it has none). */
  runs: number | undefined;
  warmup: number;
  seed: number;
  list: boolean;
  help: boolean;
}

/**
 * Runs the CLI over `argv` (arguments after the script name) with the given benchmark list.
 *
 * @returns the exit status: 0 success, 1 a benchmark failed or the output could not be written, 2 usage error.
 */
export async function main(
  argv: readonly string[],
  benchmarks: readonly Benchmark[],
  io: CliIo,
): Promise<number> {
  let options: CliOptions;
  try {
    options = parseOptions(argv, io);
    checkRegistry(benchmarks);
  } catch (error) {
    io.stderr.write(
      `bench: ${(error as Error).message}\n${error instanceof UsageError ? `\n${USAGE}\n` : ''}`,
    );
    return 2;
  }
  if (options.help) {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const selected = benchmarks.filter((b) => (options.filter ? options.filter.test(b.name) : !b.explicit));
  if (!options.filter && !options.list)
    for (const b of benchmarks.filter((x) => x.explicit))
      io.stderr.write(`bench: ${b.name} skipped (it runs only when asked: --filter ${b.name})\n`);
  if (options.list) {
    io.stdout.write(selected.map((b) => `${b.name}\n`).join(''));
    return 0;
  }
  if (selected.length === 0) {
    io.stderr.write(`bench: no benchmark matches --filter ${options.filter}; try --list\n`);
    return 2;
  }
  if (options.out) {
    try {
      await assertOutputAvailable(options.out, { kind: 'file', overwrite: options.overwrite });
    } catch (error) {
      if (!(
        hasCode(error, OutputConflictError, 'OUTPUT_CONFLICT') ||
        hasCode(error, PathError, 'OUTPUT_PATH_INVALID')
      ))
        throw error;
      io.stderr.write(`bench: ${cliMessage(error)}\n`);
      return 2;
    }
  }

  const log = (message: string): void => void io.stderr.write(`${message}\n`);
  const entries: BenchEntry[] = [];
  const seen = new Set<string>();
  let failed = 0;
  const cpuSeconds = (): number => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };
  const [runStart, runCpu] = [performance.now(), cpuSeconds()];
  for (const [i, bench] of selected.entries()) {
    log(`[${i + 1}/${selected.length}] ${bench.name}`);
    const [start, cpu] = [performance.now(), cpuSeconds()];
    try {
      const produced = await bench.run({
        seed: options.seed,
        timing: { runs: options.runs ?? DEFAULT_RUNS, warmup: options.warmup },
        runsGiven: options.runs !== undefined,
        log: (message) => log(`  ${message}`),
      });
      for (const entry of checkEntries(bench.name, produced)) {
        if (seen.has(entry.name))
          throw new Error(`entry name ${JSON.stringify(entry.name)} is reported twice`);
        seen.add(entry.name);
        entries.push(entry);
      }
      log(
        `  done in ${((performance.now() - start) / 1000).toFixed(1)} s (CPU ${(cpuSeconds() - cpu).toFixed(1)} s)`,
      );
    } catch (error) {
      failed++;
      log(`  FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }

  // The whole run (aim: every benchmark in under 5 minutes); CPU of this process only (Chromium's is not counted).
  log(
    `bench: ${selected.length} benchmark(s) in ${((performance.now() - runStart) / 1000).toFixed(1)} s ` +
      `(CPU ${(cpuSeconds() - runCpu).toFixed(1)} s)`,
  );
  const kept = entries.filter(
    (e) => options.direction === 'all' || (options.direction === 'bigger') === (e.biggerIsBetter ?? false),
  );
  const json = `${JSON.stringify(
    kept.map(({ name, unit, value, extra }) => ({ name, unit, value, extra: extra ?? '' })),
    null,
    2,
  )}\n`;
  if (options.out) {
    try {
      await writeFileAtomic(options.out, json);
    } catch (error) {
      log(`bench: cannot write ${options.out}: ${(error as Error).message}`);
      return 1;
    }
    log(`wrote ${kept.length} entries to ${options.out}`);
  } else {
    io.stdout.write(json);
  }
  if (failed > 0) log(`${failed} benchmark(s) failed`);
  return failed > 0 ? 1 : 0;
}

/** Timed runs per measurement without `--runs`, where a benchmark has no count of its own. */
const DEFAULT_RUNS = 20;

function parseOptions(argv: readonly string[], io: CliIo): CliOptions {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        filter: { type: 'string' },
        out: { type: 'string' },
        overwrite: { type: 'boolean', default: false },
        direction: { type: 'string', default: 'all' },
        runs: { type: 'string' },
        warmup: { type: 'string', default: '3' },
        'rng-seed': { type: 'string' },
        seed: { type: 'string' },
        list: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const direction = values.direction as string;
  if (direction !== 'all' && direction !== 'smaller' && direction !== 'bigger') {
    throw new UsageError(`--direction must be all, smaller or bigger, got ${JSON.stringify(direction)}`);
  }
  let filter: RegExp | undefined;
  if (values.filter !== undefined) {
    try {
      filter = new RegExp(values.filter as string);
    } catch (error) {
      throw new UsageError(`--filter is not a valid regular expression: ${(error as Error).message}`);
    }
  }
  const notices: Io = {
    stdout: (t) => void io.stdout.write(t),
    stderr: (t) => void io.stderr.write(t),
    isTTY: false,
  };
  let seed: string;
  try {
    seed = rngSeedValue(values, notices) ?? '1';
  } catch (error) {
    if (!(error instanceof OptionError)) throw error;
    throw new UsageError(error.message);
  }
  return {
    filter,
    out: values.out as string | undefined,
    overwrite: values.overwrite === true,
    direction,
    runs: values.runs === undefined ? undefined : integerOption('runs', values.runs as string, 1),
    warmup: integerOption('warmup', values.warmup as string, 0),
    seed: integerOption(values.seed === undefined ? 'rng-seed' : 'seed', seed, 0),
    list: values.list === true,
    help: values.help === true,
  };
}

function integerOption(name: string, text: string, min: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < min) {
    throw new UsageError(`--${name} must be an integer ≥ ${min}, got ${JSON.stringify(text)}`);
  }
  return value;
}

function checkRegistry(benchmarks: readonly Benchmark[]): void {
  const names = new Set<string>();
  for (const b of benchmarks) {
    if (names.has(b.name)) throw new Error(`two registered benchmarks are named ${JSON.stringify(b.name)}`);
    names.add(b.name);
  }
}

function checkEntries(benchName: string, produced: unknown): BenchEntry[] {
  if (!Array.isArray(produced))
    throw new Error(`${benchName} returned ${typeof produced}, not an array of entries`);
  return produced.map((entry, i) => {
    const parsed = BenchEntrySchema.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(
        `${benchName} entry ${i}${issue?.path.length ? `.${issue.path.join('.')}` : ''}: ${issue?.message}`,
      );
    }
    return parsed.data;
  });
}
