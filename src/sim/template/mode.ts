/**
 * Template action-type classifier (§A.2), from the turn's perception. Influence markers are suggestions,
 * evidence, self-disclosure, pressure, dismissal, assent/quitting, a price offer, a request to give, or a hit on one of the task's
 * persuasion topics (any topic but `rapport`; in a question, not the task's inquiry topics, and none in a question
 * of a kind the task knows), all whole words
 * outside negation. Ties go Influence > Elicit >
 * Social: any Influence marker makes the turn Influence; otherwise a question makes it Elicit (a bare question
 * falls back to Elicit); otherwise Social.
 */
import { perceptionOf, type Perception } from '../perception';
import { questionKind } from './questions';
import type { TaskId } from '../../tasks/seed';
import type { ModeClassifier, SimView } from '../roles';
import { TASK_RULES } from '../rules';
import type { Mode } from '../types';

/**
 * Influence score in [0, 1] of a perceived utterance (the largest marker). In a question, the task's inquiry
 * topics are what is asked about ("How old is it?"): an inquiry, not an argument, so they do not count. Nor does
 * any topic in an utterance that is only a question of a kind the task knows (see `questions.ts`): "Have you
 * donated yourself?" asks about the persuadee's own giving, "Where can I pick it up?" about the pickup — what is
 * asked about is no appeal. Other markers (an offer, a request to give, a suggestion, pressure …) still count.
 */
export function influenceOf(p: Perception, task: TaskId): number {
  const f = p.features;
  let best = Math.max(
    f.suggestion,
    f.evidence,
    f.selfDisclosure,
    f.pressure,
    f.dismissive,
    f.assent,
    f.quit,
    f.price !== null ? 1 : 0,
    f.requestToGive,
  );
  if (f.onlyQuestions === 1 && questionKind(f, task) !== null) return best;
  const inquiry = TASK_RULES[task].inquiryTopics;
  for (const topic in p.topics)
    if (topic !== 'rapport' && (f.question === 0 || !inquiry.includes(topic)))
      best = Math.max(best, p.topics[topic] as number);
  return best;
}

/** Influence score in [0, 1] of an utterance in a view (see {@link influenceOf}). */
export function influenceScore(utterance: string, view: SimView): number {
  return influenceOf(perceptionOf(utterance, view), view.task.id);
}

export class TemplateModeClassifier implements ModeClassifier {
  async classify(utterance: string, view: SimView): Promise<Mode> {
    const p = perceptionOf(utterance, view);
    if (influenceOf(p, view.task.id) >= 0.5) return 'Influence';
    if (p.features.question > 0) return 'Elicit';
    return 'Social';
  }
}
