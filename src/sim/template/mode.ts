/**
 * Template action-type classifier (§A.2), from the turn's perception. Influence markers are suggestions,
 * evidence, self-disclosure, pressure, dismissal, assent/quitting, a price offer, or a hit on one of the task's
 * persuasion topics (any topic but `rapport`), all whole words outside negation. Ties go Influence > Elicit >
 * Social: any Influence marker makes the turn Influence; otherwise a question makes it Elicit (a bare question
 * falls back to Elicit); otherwise Social.
 */
import { perceptionOf, type Perception } from '../perception';
import type { ModeClassifier, SimView } from '../roles';
import type { Mode } from '../types';

/** Influence score in [0, 1] of a perceived utterance (the largest marker). */
export function influenceOf(p: Perception): number {
  const f = p.features;
  const { rapport: _rapport, ...hits } = p.topics;
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

/** Influence score in [0, 1] of an utterance in a view (see {@link influenceOf}). */
export function influenceScore(utterance: string, view: SimView): number {
  return influenceOf(perceptionOf(utterance, view));
}

export class TemplateModeClassifier implements ModeClassifier {
  async classify(utterance: string, view: SimView): Promise<Mode> {
    const p = perceptionOf(utterance, view);
    if (influenceOf(p) >= 0.5) return 'Influence';
    if (p.features.question > 0) return 'Elicit';
    return 'Social';
  }
}
