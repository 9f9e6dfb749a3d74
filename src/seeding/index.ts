/**
 * The one seeding scheme of the library's jobs (simulate, evaluate, train's held-out evaluation, the Principles
 * evaluation): common random numbers by case key, the one episode plan ({@link planEpisodes}: which seed, which
 * repeat, which streams), and one train/evaluation seed split.
 *
 * An episode is identified by its case key `(rngSeed, task, caseId, repeat)`: `rngSeed` is the integer of the
 * run (`--rng-seed`), `caseId` the dialogue seed's id, `repeat` the repeat index (0-based) of that seed. From the
 * key and the seed's own `randomSeed`, {@link caseStreams} derives two independent 32-bit stream seeds:
 *
 * - the simulator's: `hashKey32("sim|<rngSeed>|<task>|<caseId>|<randomSeed>|<repeat>")`;
 * - the policy's:    `hashKey32("policy|<rngSeed>|<task>|<caseId>|<randomSeed>|<repeat>")`.
 *
 * Neither depends on the policy, the episode's position in a batch, the number of workers or the command, so two
 * policies meet the same simulated users (paired comparisons use common random numbers), and `simulate`,
 * `evaluate` and the trainers' evaluations play the same episode for the same key.
 */

import { hashKey32 } from '../data/hash';
import { ConfigError } from '../errors';

/** The identity of one episode (see the module comment). */
export interface CaseKey {
  /** The run's integer seed, a non-negative safe integer. */
  rngSeed: number;
  task: string;
  /** The dialogue seed's id. */
  caseId: string;
  /** The dialogue seed's own `randomSeed` (part of the case: a seed file decides its user). */
  randomSeed: number;
  /** Repeat index r ≥ 0 of the seed. */
  repeat: number;
}

/** The two stream seeds of an episode, unsigned 32-bit integers. */
export interface CaseStreams {
  /** Seeds the simulator's stream (`DialogueEnv.reset({ rngSeed })`). */
  simSeed: number;
  /** Seeds the policy's stream (`runEpisode`'s `policySeed`). */
  policySeed: number;
}

/** The stream seeds of a case key. @throws ConfigError (SEEDING_INVALID_ARGUMENT) for a negative or non-integer rngSeed or repeat. */
export function caseStreams(key: CaseKey): CaseStreams {
  if (!Number.isSafeInteger(key.rngSeed) || key.rngSeed < 0)
    throw new ConfigError(
      'SEEDING_INVALID_ARGUMENT',
      `rngSeed must be a non-negative integer, got ${key.rngSeed}`,
    );
  if (!Number.isInteger(key.repeat) || key.repeat < 0)
    throw new ConfigError(
      'SEEDING_INVALID_ARGUMENT',
      `repeat must be a non-negative integer, got ${key.repeat}`,
    );
  const rest = `${key.rngSeed}|${key.task}|${key.caseId}|${key.randomSeed}|${key.repeat}`;
  return { simSeed: hashKey32(`sim|${rest}`), policySeed: hashKey32(`policy|${rest}`) };
}

/** One planned episode: its place in the run, its dialogue seed, its repeat and its two stream seeds. */
export interface PlannedEpisode<S> {
  /** The episode's index i in cycling order (0-based): it plays seed i mod N as repeat ⌊i / N⌋. */
  index: number;
  seed: S;
  /** Repeat index r ≥ 0 of the seed. */
  repeat: number;
  streams: CaseStreams;
}

/**
 * The cycling rule of the episode plan: episode `index` (≥ 0) of a plan over `seedCount` (≥ 1) seeds plays seed
 * `index mod seedCount` as its repeat ⌊index / seedCount⌋.
 */
export function seedSlot(index: number, seedCount: number): { seedIndex: number; repeat: number } {
  return { seedIndex: index % seedCount, repeat: Math.floor(index / seedCount) };
}

/** What {@link planEpisodes} plans. */
export interface EpisodePlan {
  /** The run's integer seed (`--rng-seed`). */
  rngSeed: number;
  /** The task the case keys name. */
  task: string;
  /** Number of episodes ≥ 0 (default: one per seed). */
  episodes?: number | undefined;
  /**
   * `cycle` (default): in index order, seed by seed and then again (episode i plays seed i mod N as its repeat
   * ⌊i / N⌋). `bySeed`: the same episodes listed seed by seed, each seed's repeats together (the evaluation
   * harness's and CSTPO's held-out order).
   */
  order?: 'cycle' | 'bySeed';
}

/**
 * The one episode plan of every job (simulate, evaluate, the Principles online evaluation, the trainers'
 * held-out evaluations): `episodes` episodes over `seeds`, episode i playing seed i mod N as its repeat ⌊i / N⌋
 * with the streams of its case key (`caseStreams`). Generated one at a time, so a run of a million episodes
 * holds one plan entry at once.
 * @throws ConfigError (SEEDING_INVALID_ARGUMENT) for no seeds, a negative or non-integer episode count, or an invalid rngSeed.
 */
export function* planEpisodes<S extends { id: string; randomSeed: number }>(
  seeds: readonly S[],
  plan: EpisodePlan,
): Generator<PlannedEpisode<S>> {
  const n = seeds.length;
  const count = plan.episodes ?? n;
  if (n === 0) throw new ConfigError('SEEDING_INVALID_ARGUMENT', 'no seeds to plan episodes over');
  if (!Number.isInteger(count) || count < 0)
    throw new ConfigError(
      'SEEDING_INVALID_ARGUMENT',
      `episodes must be a non-negative integer, got ${count}`,
    );
  const entry = (index: number): PlannedEpisode<S> => {
    const { seedIndex, repeat } = seedSlot(index, n);
    const seed = seeds[seedIndex] as S;
    const key = {
      rngSeed: plan.rngSeed,
      task: plan.task,
      caseId: seed.id,
      randomSeed: seed.randomSeed,
      repeat,
    };
    return { index, seed, repeat, streams: caseStreams(key) };
  };
  if (plan.order === 'bySeed') {
    for (let s = 0; s < n; s++) for (let i = s; i < count; i += n) yield entry(i);
  } else {
    for (let i = 0; i < count; i++) yield entry(i);
  }
}

/** The split seed every command uses unless told otherwise (`--split-seed`). */
export const DEFAULT_SPLIT_SEED = 0;

/**
 * Splits items into a held-out part and the rest, by a seeded shuffle that does not depend on the items' order:
 * each item is ranked by `hashKey32("<splitSeed>|<id>")` (ties by id), and the first `heldOut` ranked items are
 * held out. The same ids and seed give the same split in every command, in Node and in the browser; adding an
 * item moves no other item across the split unless it ranks among the held-out ones.
 * @param heldOut number of held-out items, 1 ≤ heldOut < items.length.
 * @returns `heldOut` (the evaluation part) and `rest` (the training / build part), each in ranked order.
 * @throws ConfigError (SEEDING_INVALID_ARGUMENT) when `heldOut` is out of range or two items share an id.
 */
export function splitByKey<T>(
  items: readonly T[],
  idOf: (item: T) => string,
  heldOut: number,
  splitSeed: number = DEFAULT_SPLIT_SEED,
): { heldOut: T[]; rest: T[] } {
  if (!Number.isInteger(heldOut) || heldOut < 1 || heldOut >= items.length)
    throw new ConfigError(
      'SEEDING_INVALID_ARGUMENT',
      `the held-out part must hold between 1 and ${items.length - 1} of ${items.length} items, got ${heldOut}`,
    );
  if (!Number.isSafeInteger(splitSeed) || splitSeed < 0)
    throw new ConfigError(
      'SEEDING_INVALID_ARGUMENT',
      `split seed must be a non-negative integer, got ${splitSeed}`,
    );
  const ids = new Set<string>();
  const ranked = items.map((item) => {
    const id = idOf(item);
    if (ids.has(id)) throw new ConfigError('SEEDING_INVALID_ARGUMENT', `two items share the id "${id}"`);
    ids.add(id);
    return { item, id, rank: hashKey32(`${splitSeed}|${id}`) };
  });
  ranked.sort((a, b) => a.rank - b.rank || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    heldOut: ranked.slice(0, heldOut).map((r) => r.item),
    rest: ranked.slice(heldOut).map((r) => r.item),
  };
}
