/**
 * What the simulator perceives of one actor utterance, computed once per turn by the simulator (see
 * `CogSim.step`) and passed to every template role through {@link SimView.perception}: no role re-reads the
 * text. The features come from `src/text` (wink-nlp underneath); the topic hits from the task's lexicon.
 */
import {
  contentWordIds,
  contentWordSet,
  extractFeatures,
  sharedCount,
  topicHits,
  type TextFeatures,
} from '../text/features';
import type { Turn } from '../tasks/seed';
import { fittedPerception, type FittedPerception } from './fitted';
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
  /** What the models fitted to people perceive of the text (reaction, tone, coherence: `./fitted.ts`). */
  readonly fitted: FittedPerception;
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
 * The actor turns of one dialogue history, read once each for the repetition check: their trimmed texts and
 * content-word ids. The environment's history grows in place by an actor and a user turn each step, so a check
 * reads only the turns added since the last one (those already read are first compared by identity; a history
 * that no longer extends them gets a new index).
 */
class ActorTurnIndex {
  private readonly read: Turn[] = [];
  private readonly texts: string[] = [];
  private readonly words: Int32Array[] = [];

  /** Reads the turns of `history` added since the last call; false when `history` does not extend them. */
  extend(history: readonly Turn[]): boolean {
    const read = this.read;
    if (history.length < read.length) return false;
    for (let i = 0; i < read.length; i++) if (history[i] !== read[i]) return false;
    for (let i = read.length; i < history.length; i++) {
      const t = history[i] as Turn;
      read.push(t);
      if (t.speaker !== 'actor') continue;
      this.texts.push(t.text.trim());
      this.words.push(contentWordIds(t.text));
    }
    return true;
  }

  /** See {@link Perception.repetition}: 1 for a verbatim repeat, else the largest share ≥ 0.6 of shared words. */
  repetition(utterance: string): number {
    const trimmed = utterance.trim();
    const words = contentWordIds(utterance);
    let best = 0;
    for (let i = 0; i < this.texts.length; i++) {
      if (this.texts[i] === trimmed) return 1;
      if (words.length === 0) continue;
      best = Math.max(best, sharedCount(words, this.words[i] as Int32Array) / words.length);
    }
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

/** The content words of each concerns list, pooled (weakly cached: a seed's list is read on every turn). */
const concernWords = new WeakMap<readonly string[], ReadonlySet<string>>();

function concernWordsOf(concerns: readonly string[]): ReadonlySet<string> {
  let words = concernWords.get(concerns);
  if (words === undefined) {
    words = new Set(concerns.flatMap((c) => [...contentWordSet(c)]));
    concernWords.set(concerns, words);
  }
  return words;
}

/** Perceive `utterance` in context (the dialogue before it and the user's private concerns). */
export function perceive(
  utterance: string,
  task: TaskSpec,
  history: readonly Turn[],
  concerns: readonly string[],
): Perception {
  return {
    features: extractFeatures(utterance, [contentWordSet(lastUserText(history)), concernWordsOf(concerns)]),
    topics: topicHits(utterance, task.topics),
    repetition: repetitionOf(utterance, history),
    fitted: fittedPerception(utterance, task.id, extractFeatures(utterance)),
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
