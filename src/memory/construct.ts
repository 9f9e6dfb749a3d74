/**
 * Offline construction of Principles by self-play with backtracking revision (Principles paper §3.1, appendix A,
 * Algorithm 1), against the Cog-Sim environment under the PPDPP protocol (a per-turn critic reward r_t).
 *
 * Per turn t, from the state s_t (checkpointed first):
 * 1. the self-play actor picks a strategy σ_t and utterance a_t; the simulator replies u_t; the critic gives r_t;
 * 2. success (r_t > r_{t−1}): write a principle from (s_t, σ_t, a_t, u_t); keep the turn;
 * 3. failure: up to `maxAttempts` (3) times, restore the checkpoint of s_t, ask the reviser for a new strategy
 *    told every failed trial so far (the original one included), realise it, re-simulate and re-judge. The
 *    first attempt with r'_t > r_{t−1} yields a principle with a "rather than" clause and its continuation is
 *    kept; if none succeeds, the state after the original turn is restored and the dialogue goes on from it.
 *
 * r_0, the "previous reward" of the first turn, is the critic's "same"/"neutral" reward (−0.5) by default: the
 * first turn succeeds when the critic judges it better than no change. Every random choice (the actor's, the
 * reviser's, the choice among realisations) comes from one `Rng` per episode.
 *
 * Episodes follow the one episode plan of every job (`planEpisodes`, src/seeding): episode i plays seed i mod N
 * as its repeat ⌊i / N⌋ with the simulator and policy streams of its case key, through the one play loop
 * (`runEpisode`).
 *
 * Resuming: episodes are independent (episode i's streams depend only on the job and i), so a build checkpoints
 * by appending each finished episode as one line to a JSONL text whose first line identifies the job
 * ({@link constructionHeader}, {@link checkpointLine}); after an interruption, {@link parseConstructionCheckpoint}
 * reads the finished episodes back (a line cut by the interruption is dropped) and `job.completed` continues from
 * them, to the same principles as an uninterrupted build.
 */

import { REALIZATIONS_PER_STRATEGY } from '../agents/realizer';
import type { Policy, Realizer } from '../agents/types';
import { runEpisode, type PlayedTurn, type TurnPlayer } from '../agents/rollout';
import type { DialogueEnv, StepResult } from '../env/env';
import { type SettingSpeller, RoleOutputError, ConfigError, InputError, CheckpointError } from '../errors';
import { countOf } from '../errors/plural';
import { planEpisodes, seedSlot } from '../seeding';
import { SIMULATOR_VERSION } from '../sim/version';
import type { Seed } from '../tasks/seed';
import { makePrinciple, type Principle, type PrincipleOrigin } from './principle';
import type { PrincipleWriter, StrategyReviser, Trial } from './types';

/** The critic's reward for "same" / "neutral" (PPDPP mapping), the default r_0. */
export const BASELINE_REWARD = -0.5;

/** The roles and settings of a construction run. */
export interface ConstructionOptions {
  /** The environment; its protocol must be `ppdpp` (per-turn critic rewards). */
  env: DialogueEnv;
  /** Self-play actor: proposes σ_t and a_t (template mode: a uniformly random strategy, `RandomPolicy`). */
  actor: Policy;
  /** Realises revised strategies (candidates; one is drawn uniformly). */
  realizer: Realizer;
  reviser: StrategyReviser;
  writer: PrincipleWriter;
  /** Revision attempts per failed turn, n_max (default 3). */
  maxAttempts?: number;
  /** r_0 (default {@link BASELINE_REWARD}). */
  baselineReward?: number;
}

/** How a turn went: first attempt succeeded, a revision succeeded, or every attempt failed (original kept). */
export type TurnStatus = 'success' | 'revised' | 'failed';

/** One turn of a self-play episode: every attempt in order (the original first) and the principle written. */
export interface TurnLog {
  turn: number;
  status: TurnStatus;
  rewardBefore: number;
  attempts: Trial[];
  principleId: string | null;
}

/** One self-play episode: its turns and the principles written during it. */
export interface SelfPlayEpisode {
  seedId: string;
  turns: TurnLog[];
  principles: Principle[];
}

/**
 * A construction checkpoint that is damaged or belongs to another job; names the source and the line. When the
 * fault is a header field that shows the checkpoint is another build's, that field is the error's setting and
 * its one `conflicts` entry (`given`: this build's value, `stored`: the checkpoint's). Code
 * `MEMORY_CHECKPOINT_DAMAGED`.
 * @param source the checkpoint's name (file path).
 * @param line 1-based line at fault.
 * @param reason what is wrong.
 * @param mismatch the header field that differs, when that is the fault.
 */
export function constructionCheckpointError(
  source: string,
  line: number,
  reason: string,
  mismatch?: CheckpointMismatch,
): CheckpointError {
  return new CheckpointError('MEMORY_CHECKPOINT_DAMAGED', `${source} line ${line}: ${reason}`, {
    path: source,
    line,
    reason,
    ...(mismatch && {
      conflicts: [{ key: mismatch.key, given: mismatch.expected, stored: mismatch.found }],
      settings: [mismatch.key],
      render: (spell: SettingSpeller) => `${source} line ${line}: ${mismatchReason(mismatch, spell)}`,
    }),
  });
}

/**
 * A checkpoint header field that differs from this build's: `key` (a {@link ConstructionHeader} field such as
 * `maxAttempts` or `seedIds`), the checkpoint's value and this build's, each as JSON cut to 80 characters (ending
 * in `…` when cut); two lists show only where they differ (see `detail`).
 */
export interface CheckpointMismatch {
  key: string;
  found: string;
  expected: string;
  /**
   * For two lists (`seedIds`): `found` and `expected` show only the items where they differ (the first few, then
   * `… and N more`), and this says so, with how many positions differ.
   */
  detail?: string;
}

function mismatchReason(m: CheckpointMismatch, spell: SettingSpeller): string {
  const detail = m.detail !== undefined ? ` ${m.detail}` : '';
  return `made by another build: ${spell(m.key)} is ${m.found}, this build has ${m.expected}${detail}`;
}

function trialOf(action: { strategy: string; utterance: string }, step: StepResult): Trial {
  return {
    strategy: action.strategy,
    utterance: action.utterance,
    userUtterance: step.info.sim.userUtterance,
    reward: step.reward,
  };
}

/**
 * Runs one self-play episode from `seed` with backtracking revision (see the module comment), through the one
 * play loop (`runEpisode`, src/agents/rollout.ts) with a turn player that checkpoints, retries and restores.
 * @param streams `rngSeed`: the simulator's stream (default the seed's own); `policySeed`: the stream of the
 *   actor, reviser and realizer (jobs pass the case streams of `planEpisodes`, src/seeding).
 * @throws InputError (MEMORY_CONSTRUCTION_INVALID) unless the environment uses the `ppdpp` protocol; errors of the roles propagate.
 */
export async function selfPlayEpisode(
  options: ConstructionOptions,
  seed: Seed,
  streams: { rngSeed?: number; policySeed: number },
): Promise<SelfPlayEpisode> {
  const { env, actor, realizer, reviser, writer } = options;
  if (env.protocol !== 'ppdpp')
    throw new InputError(
      'MEMORY_CONSTRUCTION_INVALID',
      `construction needs per-turn critic rewards: use protocol 'ppdpp', not '${env.protocol}'`,
    );
  const maxAttempts = options.maxAttempts ?? 3;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 0)
    throw new ConfigError('MEMORY_OPTION_INVALID', `maxAttempts must be an integer ≥ 0, got ${maxAttempts}`);
  let previous = options.baselineReward ?? BASELINE_REWARD;
  const turns: TurnLog[] = [];
  const principles: Principle[] = [];

  const playTurn: TurnPlayer = async (observation, rng) => {
    const write = async (
      origin: PrincipleOrigin,
      success: Trial,
      failures: readonly Trial[],
    ): Promise<Principle> => {
      const context = { observation, rewardBefore: previous };
      const draft =
        origin === 'revision'
          ? await writer.fromRevision(context, success, failures)
          : await writer.fromSuccess(context, success);
      const principle = makePrinciple(
        draft,
        success.strategy,
        [...new Set(failures.map((f) => f.strategy))],
        {
          task: env.task.id,
          seedId: seed.id,
          turn: observation.turn,
          origin,
          rewardBefore: previous,
          rewardAfter: success.reward,
          attempts: failures.length,
          utterance: success.utterance,
        },
      );
      principles.push(principle);
      return principle;
    };

    const before = env.checkpoint();
    const action = await actor.act(observation, rng);
    const original = await env.step(action);
    const first = trialOf(action, original);
    const log: TurnLog = {
      turn: observation.turn,
      status: 'failed',
      rewardBefore: previous,
      attempts: [first],
      principleId: null,
    };
    let kept: PlayedTurn = { action, step: original };
    if (first.reward > previous) {
      log.status = 'success';
      log.principleId = (await write('success', first, [])).id;
    } else {
      const after = env.checkpoint();
      const failures: Trial[] = [first];
      let revised: PlayedTurn | null = null;
      for (let attempt = 0; attempt < maxAttempts && revised === null; attempt++) {
        env.restore(before);
        const strategy = await reviser.revise(observation, failures, rng);
        const candidates = await realizer.realize(observation, strategy, REALIZATIONS_PER_STRATEGY, rng);
        if (candidates.length === 0)
          throw new RoleOutputError(
            'REALIZER_EMPTY',
            `realizer gave no utterance for strategy "${strategy}"`,
          );
        const retry = { strategy, utterance: rng.pick(candidates) };
        const step = await env.step(retry);
        const trial = trialOf(retry, step);
        log.attempts.push(trial);
        if (trial.reward > previous) {
          revised = { action: retry, step };
          log.status = 'revised';
          log.principleId = (await write('revision', trial, failures)).id;
        } else {
          failures.push(trial);
        }
      }
      if (revised) kept = revised;
      else env.restore(after);
    }
    turns.push(log);
    previous = kept.step.reward;
    return kept;
  };

  await runEpisode(env, actor, seed, {
    policySeed: streams.policySeed,
    ...(streams.rngSeed !== undefined ? { rngSeed: streams.rngSeed } : {}),
    keepState: false,
    playTurn,
  });
  return { seedId: seed.id, turns, principles };
}

/**
 * Which episodes to run: the one episode plan of every job (`planEpisodes`, src/seeding) — episode i plays seed
 * i mod N as its repeat ⌊i / N⌋, with the simulator and policy streams of its case key.
 */
export interface ConstructionJob {
  seeds: readonly Seed[];
  /** Number of self-play episodes (the paper runs 50 per domain). */
  episodes: number;
  /** The run's integer seed (`--rng-seed`, default 0) of the case keys. */
  baseSeed?: number;
  onProgress?: (done: number, total: number) => void;
  /**
   * Episodes 0 … k−1 already finished (from {@link parseConstructionCheckpoint}); they are not run again and the
   * build continues with episode k. Each must be the episode of the seed the job assigns to its index.
   */
  completed?: readonly SelfPlayEpisode[];
  /** Called after each newly finished episode (index i, 0-based), before the next starts: persist it here. */
  onEpisode?: (episode: SelfPlayEpisode, index: number) => void | Promise<void>;
}

/** The `format` tag of construction checkpoints. */
export const CONSTRUCTION_CHECKPOINT_FORMAT = 'proactive-dialogue-lab/principle-construction' as const;

/**
 * First line of a construction checkpoint: what makes two builds the same build — every field but `episodes`,
 * which a resume may raise (see {@link parseConstructionCheckpoint}).
 */
export interface ConstructionHeader {
  format: typeof CONSTRUCTION_CHECKPOINT_FORMAT;
  /**
   * 2: episodes play the case streams of `planEpisodes`. (Version 1 checkpoints, whose episode i had the actor
   * stream baseSeed + i, are not resumed: their finished episodes came from other streams.)
   */
  version: 2;
  task: string;
  /**
   * The episode count the build was started with. Not compared on resume: episode i depends only on the job and
   * i, never on the count, so a resume may continue to another count (not below the episodes already finished).
   */
  episodes: number;
  baseSeed: number;
  maxAttempts: number;
  baselineReward: number;
  /** Seed ids in job order. */
  seedIds: string[];
  /** Names of the actor, reviser and writer. */
  roles: string[];
  /**
   * The simulator version the episodes were played on (`SIMULATOR_VERSION`): a build is not resumed on another
   * simulator, since its finished episodes would come from other rules than the ones that follow.
   */
  simulatorVersion: string;
}

/** The header identifying this build (job and roles) in its checkpoint. */
export function constructionHeader(options: ConstructionOptions, job: ConstructionJob): ConstructionHeader {
  return {
    format: CONSTRUCTION_CHECKPOINT_FORMAT,
    version: 2,
    task: options.env.task.id,
    episodes: job.episodes,
    baseSeed: job.baseSeed ?? 0,
    maxAttempts: options.maxAttempts ?? 3,
    baselineReward: options.baselineReward ?? BASELINE_REWARD,
    seedIds: job.seeds.map((s) => s.id),
    roles: [options.actor.name, options.reviser.name, options.writer.name],
    simulatorVersion: SIMULATOR_VERSION,
  };
}

/** One checkpoint line (header or episode): its JSON and a line break. */
export function checkpointLine(value: ConstructionHeader | SelfPlayEpisode): string {
  return `${JSON.stringify(value)}\n`;
}

/** Header fields that a resume may change: the episode count (episode i does not depend on it). */
const RESUMABLE_FIELDS: ReadonlySet<string> = new Set(['episodes']);

/** The first field where two headers differ, or undefined when they are the same build. */
function headerDifference(
  found: Record<string, unknown>,
  expected: ConstructionHeader,
): CheckpointMismatch | undefined {
  for (const [key, value] of Object.entries(expected)) {
    if (RESUMABLE_FIELDS.has(key)) continue;
    const stored = found[key];
    if (JSON.stringify(stored) !== JSON.stringify(value)) {
      if (Array.isArray(stored) && Array.isArray(value)) return listDifference(key, stored, value);
      const shown = (v: unknown) => {
        const json = JSON.stringify(v) ?? 'nothing';
        return json.length > 80 ? `${json.slice(0, 79)}…` : json;
      };
      return { key, found: shown(stored), expected: shown(value) };
    }
  }
  return undefined;
}

/** Items of a list shown in a message: the first few, then how many more. */
const LIST_SHOWN = 3;

/**
 * Two lists (a seed list) that differ, in a readable message: the items at the first few positions where they
 * differ on each side (a closed list, `["a", "b", "c", … and 12 more]`), and how many positions differ.
 */
function listDifference(key: string, found: unknown[], expected: unknown[]): CheckpointMismatch {
  const positions: number[] = [];
  for (let i = 0; i < Math.max(found.length, expected.length); i++)
    if (JSON.stringify(found[i]) !== JSON.stringify(expected[i])) positions.push(i);
  const side = (list: unknown[]) => {
    const items = positions.filter((i) => i < list.length).map((i) => JSON.stringify(list[i]) ?? 'nothing');
    const more = items.length - LIST_SHOWN;
    return `[${[...items.slice(0, LIST_SHOWN), ...(more > 0 ? [`… and ${more} more`] : [])].join(', ')}]`;
  };
  const lengths =
    found.length === expected.length
      ? `${positions.length} of ${found.length} differ`
      : `the checkpoint lists ${found.length}, this build ${expected.length}; ${positions.length} positions differ`;
  return { key, found: side(found), expected: side(expected), detail: `where they differ (${lengths})` };
}

/**
 * A construction checkpoint holding more finished episodes (`held`) than the build being resumed plays
 * (`planned`): the build cannot go back. Its setting and one `conflicts` entry are `episodes` (`given`: the
 * build's count, `stored`: the finished episodes). Code `MEMORY_CHECKPOINT_DAMAGED`.
 */
function checkpointBeyondBuildError(source: string, held: number, planned: number): CheckpointError {
  const reason = (spell: SettingSpeller) =>
    `holds ${countOf(held, 'finished episode')}, more than the ${planned} this build plays: give ` +
    `${spell('episodes')} ${held} or more to resume it`;
  return new CheckpointError('MEMORY_CHECKPOINT_DAMAGED', `${source}: ${reason((key) => key)}`, {
    path: source,
    reason: reason((key) => key),
    conflicts: [{ key: 'episodes', given: planned, stored: held }],
    settings: ['episodes'],
    render: (spell: SettingSpeller) => `${source}: ${reason(spell)}`,
  });
}

/**
 * Read the finished episodes of a construction checkpoint (JSONL: the header, then one episode a line). A last
 * line without its line break (cut by an interruption) is dropped; an empty text means no episode yet. The
 * header must be this build's in every field but `episodes`: a build resumes to another episode count, more
 * episodes than it was started with included, as long as the checkpoint holds no more finished episodes than
 * that count (episode i is the same whatever the count, so the result is the build of the new count).
 * @param source the checkpoint's name, used in errors.
 * @param expected the header of the build being resumed ({@link constructionHeader}).
 * @throws CheckpointError (MEMORY_CHECKPOINT_DAMAGED) naming `source` (and the line): another build's header, a damaged line, an
 *   episode of another seed than the job assigns to its index, more finished episodes than the build plays
 *   (setting `episodes`).
 */
export function parseConstructionCheckpoint(
  text: string,
  source: string,
  expected: ConstructionHeader,
): SelfPlayEpisode[] {
  const lines = text.split('\n');
  lines.pop(); // '' after the last line break, or a line cut short: dropped either way
  if (lines.length === 0) return [];
  const parse = (line: string, n: number): Record<string, unknown> => {
    try {
      const value: unknown = JSON.parse(line);
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        return value as Record<string, unknown>;
      }
    } catch {
      // reported below
    }
    throw constructionCheckpointError(source, n, 'not a JSON object (the file is damaged)');
  };
  const header = parse(lines[0] as string, 1);
  if (header.format !== CONSTRUCTION_CHECKPOINT_FORMAT) {
    throw constructionCheckpointError(source, 1, 'not a principle construction checkpoint');
  }
  if (header.version === 1) {
    throw constructionCheckpointError(
      source,
      1,
      'made by an earlier release, whose self-play episodes had other random streams: start the build again',
    );
  }
  const difference = headerDifference(header, expected);
  if (difference) {
    throw constructionCheckpointError(
      source,
      1,
      mismatchReason(difference, (key) => key),
      difference,
    );
  }
  const episodes: SelfPlayEpisode[] = [];
  for (const [i, line] of lines.slice(1).entries()) {
    const n = i + 2;
    const episode = parse(line, n);
    const seedId = expected.seedIds[seedSlot(i, expected.seedIds.length).seedIndex];
    if (episode.seedId !== seedId || !Array.isArray(episode.turns) || !Array.isArray(episode.principles)) {
      throw constructionCheckpointError(source, n, `not episode ${i + 1} of this build (seed ${seedId})`);
    }
    episodes.push(episode as unknown as SelfPlayEpisode);
  }
  // Checked once every line is read, so that the count is of sound episodes.
  if (episodes.length > expected.episodes)
    throw checkpointBeyondBuildError(source, episodes.length, expected.episodes);
  return episodes;
}

/**
 * Runs `job.episodes` self-play episodes and returns every principle written, in order, with the episode logs.
 * Deterministic given its arguments (template roles); with `job.completed` it continues an interrupted build to
 * the same result.
 * @throws ConfigError (MEMORY_OPTION_INVALID) for no seeds or a non-positive episode count; InputError (MEMORY_CONSTRUCTION_INVALID) when `job.completed` does
 *   not fit the job; as {@link selfPlayEpisode}.
 */
export async function constructPrinciples(
  options: ConstructionOptions,
  job: ConstructionJob,
): Promise<{ principles: Principle[]; episodes: SelfPlayEpisode[] }> {
  if (job.seeds.length === 0) throw new ConfigError('MEMORY_OPTION_INVALID', 'no seeds to run');
  if (!Number.isInteger(job.episodes) || job.episodes < 1)
    throw new ConfigError(
      'MEMORY_OPTION_INVALID',
      `episodes must be a positive integer, got ${job.episodes}`,
    );
  const episodes: SelfPlayEpisode[] = [...(job.completed ?? [])];
  if (episodes.length > job.episodes) {
    throw new InputError(
      'MEMORY_CONSTRUCTION_INVALID',
      `${episodes.length} completed episodes for a build of ${job.episodes}`,
    );
  }
  const plan = planEpisodes(job.seeds, {
    rngSeed: job.baseSeed ?? 0,
    task: options.env.task.id,
    episodes: job.episodes,
  });
  for (const { index: i, seed, streams } of plan) {
    if (i < episodes.length) {
      const done = (episodes[i] as SelfPlayEpisode).seedId;
      if (done !== seed.id) {
        throw new InputError(
          'MEMORY_CONSTRUCTION_INVALID',
          `completed episode ${i + 1} is of seed ${done}, the job's is ${seed.id}`,
        );
      }
      continue;
    }
    episodes.push(
      await selfPlayEpisode(options, seed, { rngSeed: streams.simSeed, policySeed: streams.policySeed }),
    );
    await job.onEpisode?.(episodes[i] as SelfPlayEpisode, i);
    job.onProgress?.(i + 1, job.episodes);
  }
  return { principles: episodes.flatMap((e) => e.principles), episodes };
}
