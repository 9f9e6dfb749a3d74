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
 * Each earlier actor turn's trimmed text and content words, by turn object: the environment keeps a turn's object
 * for the whole episode, so every later turn's repetition check reads them without looking the text up again.
 */
const earlierTurns = new WeakMap<Turn, { trimmed: string; words: ReadonlySet<string> }>();

function wordsOfTurn(t: Turn): { trimmed: string; words: ReadonlySet<string> } {
  let out = earlierTurns.get(t);
  if (out === undefined)
    earlierTurns.set(t, (out = { trimmed: t.text.trim(), words: contentWordSet(t.text) }));
  return out;
}

function repetitionOf(utterance: string, history: readonly Turn[]): number {
  const words = contentWordSet(utterance);
  const trimmed = utterance.trim();
  let best = 0;
  for (const t of history) {
    if (t.speaker !== 'actor') continue;
    const earlier = wordsOfTurn(t);
    if (earlier.trimmed === trimmed) return 1;
    if (words.size === 0) continue;
    let shared = 0;
    for (const w of words) if (earlier.words.has(w)) shared++;
    best = Math.max(best, shared / words.size);
  }
  return best >= 0.6 ? best : 0;
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
