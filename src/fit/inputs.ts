/**
 * The inputs of the fitted reaction models for one actor turn, from its text alone: hashed word uni- and bigrams
 * ({@link hashedNgrams}) and a few dense scores the hand-written perception already reads (`src/text/features.ts`:
 * tone, warmth, pressure, a question, an offer …), whose weights are fitted too. Never a strategy label.
 */
import type { TextFeatures } from '../text/features';
import { fitTokens, hashedNgrams } from './tokens';

/** Hashed n-gram buckets of the reaction models (2¹²: enough for a few thousand training turns per task). */
export const REACTION_BUCKETS = 4096;

/** Names of the dense inputs, in order (stored with the parameters, checked on load). */
export const DENSE_INPUTS = [
  'sentiment',
  'warmth',
  'pressure',
  'evidence',
  'dismissive',
  'greeting',
  'farewell',
  'suggestion',
  'selfDisclosure',
  'assent',
  'quit',
  'question',
  'onlyQuestions',
  'exclamation',
  'commitment',
  'requestToGive',
  'hasPrice',
  'logWords',
] as const;

/** The model inputs of one turn. */
export interface TurnInputs {
  sparse: Int32Array;
  dense: number[];
  tokens: string[];
}

/** The dense inputs of a turn (in {@link DENSE_INPUTS} order) from its (context-free) text features. */
export function denseInputs(f: TextFeatures): number[] {
  return [
    f.sentiment,
    f.warmth,
    f.pressure,
    f.evidence,
    f.dismissive,
    f.greeting,
    f.farewell,
    f.suggestion,
    f.selfDisclosure,
    f.assent,
    f.quit,
    f.question,
    f.onlyQuestions,
    f.exclamation,
    f.commitment,
    f.requestToGive,
    f.price !== null ? 1 : 0,
    Math.log1p(f.wordCount) / 3,
  ];
}

/** The inputs of a turn from its text and its (context-free) text features. */
export function turnInputs(text: string, f: TextFeatures, buckets = REACTION_BUCKETS): TurnInputs {
  const tokens = fitTokens(text);
  return { sparse: hashedNgrams(tokens, buckets), dense: denseInputs(f), tokens };
}
