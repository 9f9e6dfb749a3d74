/**
 * Text cues the template baselines read from the user's words: emotion words, questions, plans, the persuadee's
 * barriers and attitude, the seller's firmness. Lexicons written for this project; matching is on whole words
 * (an entry ending in `*` matches any word starting with it; multi-word entries match as phrases).
 */
import type { Observation } from '../env/env';
import { userTurns } from './common';

/** Emotion families the baselines tell apart in the user's words. */
export type EmotionCue = 'sadness' | 'anxiety' | 'anger' | 'hope' | 'neutral';

const EMOTION: Readonly<Record<Exclude<EmotionCue, 'neutral'>, readonly string[]>> = {
  sadness: [
    'sad*',
    'down',
    'low',
    'heavy',
    'lonel*',
    'alone',
    'empty',
    'miss*',
    'cry*',
    'hopeless',
    'depress*',
  ],
  anxiety: [
    'worr*',
    'anxi*',
    'nervous',
    'scared',
    'afraid',
    'fear*',
    'panic*',
    'on edge',
    'stress*',
    'overwhelm*',
  ],
  anger: ['angry', 'furious', 'mad', 'unfair', 'fed up', 'annoy*', 'frustrat*', 'hate*', 'resent*'],
  hope: [
    'better',
    'hopeful',
    'calmer',
    'lighter',
    'relie*',
    'thank*',
    'glad',
    'helps',
    'makes sense',
    'good idea',
  ],
};

/**
 * A plan the user puts forward: an intention of its own ("I could try …", "Maybe I will …", "worth a try"), not a
 * past try ("I have tried everything") nor a plan that fell through ("my plans fell apart").
 */
const PLAN = [
  'i could',
  'i will',
  "i'll",
  'i am going to',
  "i'm going to",
  'i might',
  'maybe i',
  'i can try',
  'i think i can',
  'worth a try',
  'give it a try',
  'give that a go',
  'i plan to',
];
/** A negation: "I could not", "I will never", "not ready to try it" put forward no plan. */
const NEGATED = /\b(?:not|never|no|cannot)\b|n't\b/i;
const ASKS_ADVICE = ['what should i', 'what can i', 'how do i', 'how can i', 'any advice', 'what would you'];

/** P4G barriers the persuadee may voice. */
export type Barrier = 'trust' | 'impact' | 'cost';

const BARRIER: Readonly<Record<Barrier, readonly string[]>> = {
  trust: ['trust*', 'scam*', 'legit*', 'overhead', 'use the money', 'where the money', 'charities', 'fraud*'],
  impact: ['difference', 'doubt*', 'really help*', 'small donation', 'drop in the bucket', 'changes much'],
  cost: ['afford', 'tight', 'broke', 'need the money', 'bills', 'money is', 'cannot spare', "can't spare"],
};
const WILLING = [
  'willing',
  'sure',
  'interested',
  'sounds good',
  'i might',
  'i guess i could',
  'okay',
  'maybe',
];
const REFUSING = [
  'not donat*',
  'no thanks',
  'not interested',
  'do not push',
  "don't push",
  'will not',
  'not going to',
];

const RESISTING = [
  'do not agree',
  "don't agree",
  'does not work',
  "doesn't work",
  'do not push',
  "don't push",
  'not so sure',
  'do not know about that',
  'not convinced',
];

const FIRM = [
  'cannot go',
  "can't go",
  'firm',
  'lowest',
  'not going lower',
  'too low',
  'no lower',
  'worth it',
];
const FLEXIBLE = ['come down', 'could do', 'negotiable', 'flexible', 'meet you', 'work with you'];

function pattern(entry: string): string {
  const escaped = entry.replace(/[.*+?^${}()|[\]\\]/g, (c) => (c === '*' ? c : `\\${c}`));
  return escaped.endsWith('*') ? `\\b${escaped.slice(0, -1)}[a-z']*` : `\\b${escaped}\\b`;
}

const compiled = new Map<readonly string[], RegExp[]>();

/** Number of lexicon entries found in `text` (case-insensitive, whole words; see the module comment). */
export function lexiconHits(text: string, lexicon: readonly string[]): number {
  let res = compiled.get(lexicon);
  if (!res) {
    res = lexicon.map((e) => new RegExp(pattern(e), 'i'));
    compiled.set(lexicon, res);
  }
  const t = text.replace(/[’`]/g, "'");
  return res.filter((re) => re.test(t)).length;
}

/** Emotion-word counts of a text per family. */
export function emotionCounts(text: string): Record<Exclude<EmotionCue, 'neutral'>, number> {
  return {
    sadness: lexiconHits(text, EMOTION.sadness),
    anxiety: lexiconHits(text, EMOTION.anxiety),
    anger: lexiconHits(text, EMOTION.anger),
    hope: lexiconHits(text, EMOTION.hope),
  };
}

/**
 * The dominant emotion family of a text: the family with most hits; ties go to the family listed first
 * (anger, anxiety, sadness, hope — the more urgent first); `neutral` without hits.
 */
export function dominantEmotion(text: string): EmotionCue {
  const c = emotionCounts(text);
  let best: EmotionCue = 'neutral';
  let hits = 0;
  for (const family of ['anger', 'anxiety', 'sadness', 'hope'] as const) {
    if (c[family] > hits) [best, hits] = [family, c[family]];
  }
  return best;
}

/** Whether the text asks something (a question mark). */
export function asksQuestion(text: string): boolean {
  return text.includes('?');
}

/** Whether the text asks for advice ("what should I do", "how can I"). */
export function asksAdvice(text: string): boolean {
  return lexiconHits(text, ASKS_ADVICE) > 0;
}

/** Whether the text puts forward a plan or something to try, with no negation ({@link PLAN}). */
export function talksPlan(text: string): boolean {
  return lexiconHits(text, PLAN) > 0 && !NEGATED.test(text.replace(/[’`]/g, "'"));
}

/** The first P4G barrier (trust, impact, cost, in that order) the text voices, or null. */
export function barrierOf(text: string): Barrier | null {
  for (const b of ['trust', 'impact', 'cost'] as const) if (lexiconHits(text, BARRIER[b]) > 0) return b;
  return null;
}

/** Whether the persuadee sounds willing (and is not refusing in the same words). */
export function soundsWilling(text: string): boolean {
  return lexiconHits(text, WILLING) > 0 && !soundsRefusing(text);
}

/** Whether the persuadee refuses or asks not to be pushed. */
export function soundsRefusing(text: string): boolean {
  return lexiconHits(text, REFUSING) > 0;
}

/** Whether the user pushes back on what was just said ("I do not agree", "that does not work for me"). */
export function soundsResisting(text: string): boolean {
  return lexiconHits(text, RESISTING) > 0;
}

/** The seller's firmness in a text: `firm`, `flexible`, or `neutral`. */
export function sellerStance(text: string): 'firm' | 'flexible' | 'neutral' {
  if (lexiconHits(text, FIRM) > 0) return 'firm';
  if (lexiconHits(text, FLEXIBLE) > 0) return 'flexible';
  return 'neutral';
}

/** The user's words of the last `k` turns joined with spaces. */
export function recentUserText(obs: Observation, k: number): string {
  return userTurns(obs).slice(-k).join(' ');
}

/** The seller's counter-offers so far (public events), oldest first. */
export function sellerCounters(obs: Observation): number[] {
  return obs.events.flatMap((e) =>
    e.type === 'offer' && e.by === 'user' && e.price !== undefined ? [e.price] : [],
  );
}

/** The buyer's offers so far (public events), oldest first. */
export function buyerOffers(obs: Observation): number[] {
  return obs.events.flatMap((e) =>
    e.type === 'offer' && e.by === 'actor' && e.price !== undefined ? [e.price] : [],
  );
}

/**
 * Remaining gap of the CraigslistBargain negotiation in [0, 1]: (seller's last counter − target) /
 * (list − target), 1 before any counter; clipped.
 */
export function priceGap(obs: Observation): number {
  const list = obs.actorView.listPrice ?? 0;
  const target = obs.actorView.targetPrice ?? 0;
  const counter = sellerCounters(obs).at(-1);
  if (counter === undefined || !(list > target)) return 1;
  return Math.min(1, Math.max(0, (counter - target) / (list - target)));
}
