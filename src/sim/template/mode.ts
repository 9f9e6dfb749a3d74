/**
 * Template action-type classifier (§A.2), text only. Influence markers are suggestions, evidence,
 * self-disclosure, pressure, dismissal, assent/quitting, a price, or a hit on one of the task's persuasion
 * topics (any topic but `rapport`). Ties go Influence > Elicit > Social: any Influence marker makes the turn
 * Influence; otherwise a question makes it Elicit (a bare question falls back to Elicit); otherwise Social.
 */
import { extractFeatures, topicHits } from '../../text/features';
import type { ModeClassifier, SimView } from '../roles';
import type { Mode } from '../types';

/** Influence score in [0, 1] of an utterance for a task lexicon (the largest marker). */
export function influenceScore(utterance: string, view: SimView): number {
  const f = extractFeatures(utterance);
  const { rapport: _rapport, ...hits } = topicHits(utterance, view.task.topics);
  return Math.max(
    f.suggestion,
    f.evidence,
    f.selfDisclosure,
    f.pressure,
    f.dismissive,
    f.assent,
    f.quit,
    f.price !== null ? 1 : 0,
    ...Object.values(hits),
  );
}

export class TemplateModeClassifier implements ModeClassifier {
  async classify(utterance: string, view: SimView): Promise<Mode> {
    if (influenceScore(utterance, view) >= 0.5) return 'Influence';
    if (extractFeatures(utterance).question > 0) return 'Elicit';
    return 'Social';
  }
}
