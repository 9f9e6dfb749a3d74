/**
 * What the simulator perceives of one actor utterance, computed once per turn by the simulator (see
 * `CogSim.step`) and passed to every template role through {@link SimView.perception}: no role re-reads the
 * text. The features come from `src/text` (wink-nlp underneath); the topic hits from the task's lexicon.
 */
import { contentWordSet, extractFeatures, topicHits, type TextFeatures } from '../text/features';
import type { Turn } from '../tasks/seed';
import type { TaskSpec } from '../tasks/types';

/** The perception of one utterance by one simulated user. */
export interface Perception {
  /** Text features, with specificity measured against the user's last reply and private concerns. */
  readonly features: TextFeatures;
  /** Task topics addressed outside negation, each with a hit score in [0, 1] (`rapport` included). */
  readonly topics: Readonly<Record<string, number>>;
  /**
   * How much the utterance repeats the actor's earlier ones, in [0, 1]: 1 for a verbatim repeat, else the
   * largest share (≥ 0.6, or 0) of its content words already used in one earlier actor turn. Reads as nagging.
   */
  readonly repetition: number;
}

/** The user's last reply in `history`, or ''. */
export function lastUserText(history: readonly Turn[]): string {
  for (let i = history.length - 1; i >= 0; i--) {
    const t = history[i];
    if (t && t.speaker === 'user') return t.text;
  }
  return '';
}

/**
 * The actor turns of one dialogue history, indexed for the repetition check: their trimmed texts, and for each
 * content word the actor turns that use it, so that a check costs one look-up per word of the new utterance
 * instead of one per word and earlier turn. Built incrementally: the environment's history grows in place by an
 * actor and a user turn each step, so a check reads only the turns added since the last one (those already read
 * are first compared by identity; a history that no longer extends them gets a new index).
 */
class ActorTurnIndex {
  private readonly read: Turn[] = [];
  private actorTurns = 0;
  private readonly texts = new Set<string>();
  private readonly turnsWith = new Map<string, number[]>();

  /** Reads the turns of `history` added since the last call; false when `history` does not extend them. */
  extend(history: readonly Turn[]): boolean {
    const read = this.read;
    if (history.length < read.length) return false;
    for (let i = 0; i < read.length; i++) if (history[i] !== read[i]) return false;
    for (let i = read.length; i < history.length; i++) {
      const t = history[i] as Turn;
      read.push(t);
      if (t.speaker !== 'actor') continue;
      this.texts.add(t.text.trim());
      for (const w of contentWordSet(t.text)) {
        const turns = this.turnsWith.get(w);
        if (turns) turns.push(this.actorTurns);
        else this.turnsWith.set(w, [this.actorTurns]);
      }
      this.actorTurns++;
    }
    return true;
  }

  /** See {@link Perception.repetition}: 1 for a verbatim repeat, else the largest share ≥ 0.6 of shared words. */
  repetition(utterance: string): number {
    if (this.texts.has(utterance.trim())) return 1;
    const words = contentWordSet(utterance);
    if (words.size === 0) return 0;
    const shared = new Array<number>(this.actorTurns).fill(0);
    let most = 0;
    for (const w of words) {
      const turns = this.turnsWith.get(w);
      if (turns) for (const i of turns) most = Math.max(most, ++(shared[i] as number));
    }
    const best = most / words.size;
    return best >= 0.6 ? best : 0;
  }
}

/** The repetition index of each history array (weakly: an index goes with its history). */
const indexes = new WeakMap<readonly Turn[], ActorTurnIndex>();

function repetitionOf(utterance: string, history: readonly Turn[]): number {
  let index = indexes.get(history);
  if (index === undefined || !index.extend(history)) {
    index = new ActorTurnIndex();
    index.extend(history);
    indexes.set(history, index);
  }
  return index.repetition(utterance);
}

/** Perceive `utterance` in context (the dialogue before it and the user's private concerns). */
export function perceive(
  utterance: string,
  task: TaskSpec,
  history: readonly Turn[],
  concerns: readonly string[],
): Perception {
  return {
    features: extractFeatures(utterance, lastUserText(history), ...concerns),
    topics: topicHits(utterance, task.topics),
    repetition: repetitionOf(utterance, history),
  };
}

/** The turn's perception from the view, or (outside the simulator) the utterance perceived in the view's context. */
export function perceptionOf(
  utterance: string,
  view: {
    task: TaskSpec;
    history: readonly Turn[];
    state: { private: { concerns: readonly string[] } };
    perception?: Perception;
  },
): Perception {
  return view.perception ?? perceive(utterance, view.task, view.history, view.state.private.concerns);
}
