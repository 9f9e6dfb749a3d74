/**
 * How varied and how coherent the template user's replies are, for the validity report and the simulator
 * card: the random policy plays episodes from a task's seeds, and
 * over every user reply of those episodes the row gives distinct-1 and distinct-2 (Li et al. 2016: distinct word
 * n-grams over all n-grams, in [0, 1]), how many replies repeat the user's previous reply word for word (0
 * expected), how many episodes end on the most common closing line, the longest run of words a reply shares with
 * the seed's own situation or listing text, and how many replies say a stance, intention or mood the simulator's
 * state does not hold ({@link replyContradictions}); given the human users' replies of the same dialogues, also
 * both sides' distinct-n at an equal count ({@link matchedVariety}).
 */
import { RandomPolicy } from '../agents/policies';
import { runEpisode, type TurnRecord } from '../agents/rollout';
import { hashKey32 } from '../data/hash';
import { createEnv } from '../env/factory';
import { distinctN } from '../eval/validation';
import type { Seed, TaskId } from '../tasks/seed';
import type { ReplayDialogue } from './datasets';
import { replyContradictions, longestSharedRun } from './reply-check';
import { replyFormDefects } from './reply-form';

export { replyContradictions, longestSharedRun, wordsOf } from './reply-check';
export { replyFormDefects } from './reply-form';

/** Reply variety and coherence of one task. */
export interface ReplyRow {
  task: TaskId;
  /** Episodes played (random policy). */
  episodes: number;
  /** User replies over those episodes. */
  replies: number;
  /** distinct-1 and distinct-2 of the replies, each in [0, 1]. */
  distinct1: number;
  distinct2: number;
  /** Replies identical to the user's previous reply in the same episode (count). */
  verbatimRepeats: number;
  /** Episodes whose last user reply is the most common last reply (count), and that reply. */
  sameEnding: number;
  commonEnding: string;
  /**
   * The longest run of consecutive words (lower-cased, punctuation dropped) any reply shares with its seed's
   * situation text (ESConv) or listing (CraigslistBargain); 0 for P4G, whose seeds hold neither.
   */
  longestEcho: number;
  /** Replies with a stance, intention or mood the state does not hold (see {@link replyContradictions}). */
  contradictions: number;
  /** Replies with a slot left unfilled (a `{name}` in the text): 0 expected. */
  unfilled: number;
  /**
   * Replies with a slip of form a reader sees at once (see {@link replyFormDefects}: a doubled word, "this
   * children", "Also, and …"): 0 expected. Absent in reports made before the check.
   */
  formDefects?: number;
  /**
   * The same replies next to the human users of the same dialogues at an equal count (present when
   * {@link ReplyRowOptions.humanReplies} is given): distinct-n falls as more replies are pooled, so only equal
   * counts compare.
   */
  matched?: MatchedVariety;
}

/** Variety of simulated and human replies at an equal count ({@link matchedVariety}). */
export interface MatchedVariety {
  /** Replies compared from each side: the smaller of the two counts. */
  replies: number;
  /** distinct-1 and distinct-2 of the simulator's first `replies` replies, in play order. */
  distinct1: number;
  distinct2: number;
  /** distinct-1 and distinct-2 of the human users' first `replies` replies ({@link humanRepliesOf}). */
  humanDistinct1: number;
  humanDistinct2: number;
}

/** Options of {@link replyRow}. */
export interface ReplyRowOptions {
  /** Episodes per seed (default 1); repeat r of a seed draws its streams from a hash of (seed id, r). */
  episodesPerSeed?: number;
  /** The human users' replies to compare with at an equal count ({@link humanRepliesOf}); adds `matched`. */
  humanReplies?: readonly string[];
}

/**
 * The human users' replies of the dialogues the `seeds` come from, in seed order and turn order within a
 * dialogue: every non-empty user turn of the replayed steps (the turns after the seed's prefix, which the
 * simulator plays in their place). A seed is matched to the dialogue of its id, or of its id after the file stem
 * (`p4g-dialogs:<dialog_id>`); a seed with no dialogue adds nothing; of a dialogue read from two files (P4G) the
 * first one with steps counts.
 */
export function humanRepliesOf(
  dialogues: readonly ReplayDialogue[],
  seeds: readonly Pick<Seed, 'id'>[],
): string[] {
  const byId = new Map<string, ReplayDialogue>();
  for (const d of dialogues) if (!byId.has(d.id) && d.steps.length > 0) byId.set(d.id, d);
  const out: string[] = [];
  for (const seed of seeds) {
    const d = byId.get(seed.id) ?? byId.get(seed.id.slice(seed.id.indexOf(':') + 1));
    if (d === undefined) continue;
    for (const step of d.steps) if (step.user !== null && step.user.trim() !== '') out.push(step.user);
  }
  return out;
}

/**
 * distinct-1 and distinct-2 of two sets of replies at an equal count: the first n of each, n the smaller count
 * (0 when either is empty: every figure is then 0).
 */
export function matchedVariety(simulated: readonly string[], human: readonly string[]): MatchedVariety {
  const n = Math.min(simulated.length, human.length);
  const sim = simulated.slice(0, n);
  const people = human.slice(0, n);
  return {
    replies: n,
    distinct1: distinctN(sim, 1),
    distinct2: distinctN(sim, 2),
    humanDistinct1: distinctN(people, 1),
    humanDistinct2: distinctN(people, 2),
  };
}

/** The text a seed's user knows of its own situation: the ESConv situation, the CB seller's listing. */
export function seedSituation(seed: Seed): string {
  return [seed.userPrivate.situation ?? '', seed.userPrivate.itemDescription ?? ''].join(' ').trim();
}

/**
 * Play the random policy from each seed (simulator and policy streams from a hash of the seed id and repeat) and
 * measure the user's replies.
 * @throws errors of the environment or the simulator's roles.
 */
export async function replyRow(
  task: TaskId,
  seeds: readonly Seed[],
  options: ReplyRowOptions = {},
): Promise<ReplyRow> {
  const env = createEnv(task);
  const perSeed = options.episodesPerSeed ?? 1;
  const texts: string[] = [];
  const endings = new Map<string, number>();
  let repeats = 0;
  let echo = 0;
  let contradictions = 0;
  let unfilled = 0;
  let formDefects = 0;
  let episodes = 0;
  for (const seed of seeds) {
    const situation = seedSituation(seed);
    for (let r = 0; r < perSeed; r++) {
      const key = r === 0 ? seed.id : `${seed.id}|${r}`;
      const episode = await runEpisode(env, new RandomPolicy(task), seed, {
        rngSeed: hashKey32(`replies|sim|${key}`),
        policySeed: hashKey32(`replies|policy|${key}`),
        keepState: true,
      });
      episodes++;
      episode.turns.forEach((t: TurnRecord, i) => {
        texts.push(t.userUtterance);
        if (i > 0 && t.userUtterance === episode.turns[i - 1]?.userUtterance) repeats++;
        if (situation) echo = Math.max(echo, longestSharedRun(t.userUtterance, situation));
        if (replyContradictions(task, t).length > 0) contradictions++;
        if (/\{\w+\}/.test(t.userUtterance)) unfilled++;
        if (replyFormDefects(t.userUtterance).length > 0) formDefects++;
      });
      const last = episode.turns.at(-1)?.userUtterance;
      if (last !== undefined) endings.set(last, (endings.get(last) ?? 0) + 1);
    }
  }
  let commonEnding = '';
  let sameEnding = 0;
  for (const [line, n] of endings)
    if (n > sameEnding || (n === sameEnding && line < commonEnding)) [commonEnding, sameEnding] = [line, n];
  return {
    task,
    episodes,
    replies: texts.length,
    distinct1: distinctN(texts, 1),
    distinct2: distinctN(texts, 2),
    verbatimRepeats: repeats,
    sameEnding,
    commonEnding,
    longestEcho: echo,
    contradictions,
    unfilled,
    formDefects,
    ...(options.humanReplies ? { matched: matchedVariety(texts, options.humanReplies) } : {}),
  };
}
