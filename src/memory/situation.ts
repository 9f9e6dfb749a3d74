/**
 * Template descriptions of a dialogue situation and of an utterance's style, read from the actor's observation
 * only (dialogue text, the actor's own strategy labels, public events). They are the template writer's "When"
 * and "you should" clauses and the template planner's retrieval query, so that the current state and the When
 * clauses of stored principles are embedded from the same kind of text (Principles paper §3.2: retrieval
 * compares the current state with each principle's When clause).
 *
 * Text is read by the actor-side reader (`src/reader`: compromise patterns, the judge's AFINN-165 sentiment),
 * never through the simulator's perception (`src/text`, `src/sim`, the task topic lexicons; a test holds that):
 * the phrase tables below are compromise match patterns of this module ("{worry}" matches every form of
 * "worry"), matched as whole terms outside a negation's reach (`mentions`).
 */
import type { Observation } from '../env/env';
import { mentions, read, specificity } from '../reader';
import { getTask } from '../tasks/registry';
import type { Turn } from '../tasks/seed';

/**
 * Feeling words, checked in this order; the first mood with a hit names the user's mood: "they" does not greet,
 * "pressure" is not "sure", "not better" is not hopeful.
 */
const MOODS: readonly (readonly [string, readonly string[]])[] = [
  ['angry', ['angry', 'furious', 'mad', '{hate}']],
  ['frustrated', ['{frustrate}', 'frustration', 'fed up', 'stuck', '{annoy}', '{irritate}']],
  [
    'anxious',
    ['{worry}', 'anxious', 'nervous', 'on edge', 'scared', 'afraid', '{panic}', '{stress}', 'stressful'],
  ],
  [
    'low',
    [
      'down',
      'sad',
      'sadness',
      'feel low',
      'pretty low',
      'heavy',
      '{depress}',
      'depressed',
      'hopeless',
      'lonely',
      'alone',
      '{cry}',
    ],
  ],
  ['relieved', ['calmer', 'relief', 'relieved', 'lighter', 'weight off']],
  ['hopeful', ['hopeful', '{hope}', 'better', 'good', 'glad', 'happy']],
  ['curious', ['interesting', 'had not thought', 'curious', 'tell me more']],
];

/** Stances toward the actor's last message, checked in this order. */
const STANCES: readonly (readonly [string, readonly string[]])[] = [
  ['pushes back', ['do not agree', 'do not push', 'does not work for me', 'too low']],
  ['is unsure', ['not sure', 'not so sure', 'do not know', 'on the fence', 'hmm', '{doubt}']],
  ['agrees', ['makes sense', 'you are right', 'right about', 'i can see that', 'i agree', 'true']],
  ['is listening', ['i hear', 'okay', 'sure', '{thank}', 'thanks', 'right$', 'maybe']],
];

/**
 * Further cues, each adding a phrase when present; before them, "is ready to act" and "refuses" come from the
 * reader's first-person plan and refusal (`Reading`), so that "I will not" is no readiness.
 */
const CUES: readonly (readonly [string, readonly string[]])[] = [
  [
    'is considering a step',
    ['could try', 'might try', 'maybe i could', 'might be willing', 'willing to give'],
  ],
  ['names what it is about', ['mostly about', 'it is about']],
  ['has nothing more to tell', ['already told', 'not much else', 'nothing else', 'in the listing']],
  ['doubts the cause', ['use the money', 'charities', 'scam', '{trust}']],
  ['doubts the impact', ['changes much', 'difference', 'small donation']],
  ['is short of money', ['money is tight', 'afford', 'tight for me', 'expensive']],
  ['greets you', ['hello', 'hi there', 'hey', 'nice to meet']],
];

function firstMatch(text: string, table: readonly (readonly [string, readonly string[]])[]): string | null {
  for (const [name, phrases] of table) if (mentions(text, phrases)) return name;
  return null;
}

/** The conversation phase of an actor turn index (0-based): opening, early, middle, late. */
export function phaseOf(turn: number): string {
  if (turn <= 0) return 'at the opening';
  if (turn <= 2) return 'early in the conversation';
  if (turn <= 5) return 'in the middle of the conversation';
  return 'late in the conversation';
}

function last(history: readonly Turn[], speaker: Turn['speaker']): Turn | undefined {
  for (let i = history.length - 1; i >= 0; i--) if (history[i]?.speaker === speaker) return history[i];
  return undefined;
}

/** Where the negotiation stands (CraigslistBargain): the seller's latest counter relative to list and target. */
function priceCue(obs: Observation): string | null {
  if (!getTask(obs.task).capabilities.prices) return null;
  const { listPrice, targetPrice } = obs.actorView;
  const counter = obs.events.filter((e) => e.type === 'offer' && e.by === 'user').at(-1)?.price;
  if (
    counter === undefined ||
    listPrice === undefined ||
    targetPrice === undefined ||
    listPrice <= targetPrice
  )
    return 'no price has been offered yet';
  const share = (counter - targetPrice) / (listPrice - targetPrice);
  if (share <= 0.33) return 'the seller has countered close to your target';
  if (share <= 0.66) return 'the seller has countered halfway to your target';
  return 'the seller has countered near the list price';
}

/** How a reply sounds: "sounds <mood> and <stance>" from its feeling words and stance phrases. */
export function describeReaction(reply: string): string {
  return `sounds ${firstMatch(reply, MOODS) ?? 'calm'} and ${firstMatch(reply, STANCES) ?? 'says little'}`;
}

/**
 * The situation of the next actor turn as one clause, e.g. "the help-seeker sounds anxious and is unsure,
 * early in the conversation, after you used Question". Reads the last user turn (mood, stance, cues), the
 * actor's last strategy label, the turn index and (CraigslistBargain) the public offers.
 */
export function describeSituation(obs: Observation): string {
  const task = getTask(obs.task);
  const reply = lastUserText(obs);
  const r = read(reply);
  const cues = [
    ...(r.plan ? ['is ready to act'] : []),
    ...(r.refusal ? ['refuses'] : []),
    ...CUES.filter(([, phrases]) => mentions(reply, phrases)).map(([name]) => name),
  ];
  const price = priceCue(obs);
  const actor = last(obs.history, 'actor');
  const after =
    actor === undefined
      ? 'before you have spoken'
      : `after you used ${actor.strategy ?? 'an unlabelled reply'}`;
  const parts = [`the ${task.userRole} ${describeReaction(reply)}`, ...cues];
  return [parts.join(', '), ...(price ? [price] : []), phaseOf(obs.turn), after].join(', ');
}

/**
 * How an utterance realises its strategy, as adverbial phrases from the reader's cues (`Reading`: care,
 * specificity about `context` — the listener's last words —, facts, option, own story, demand, price, question,
 * brevity), e.g. "warmly, referring to specifics, as a question". Empty when nothing stands out.
 */
export function describeStyle(utterance: string, context = ''): string {
  const r = read(utterance);
  const parts: string[] = [];
  if (r.care >= 0.5) parts.push('warmly');
  if (specificity(utterance, context) >= 0.5) parts.push('referring to specifics');
  if (r.facts >= 0.5) parts.push('with evidence');
  if (r.option >= 0.5) parts.push('with a concrete suggestion');
  if (r.ownStory >= 0.5) parts.push('sharing your own experience');
  if (r.demand >= 0.5) parts.push('with pressure');
  if (r.price !== null) parts.push(`naming a price of $${r.price}`);
  if (r.question) parts.push('as a question');
  if (r.words <= 5) parts.push('briefly');
  return parts.join(', ');
}

/** "<strategy> (<style>)": the template form of a strategy as played in one utterance. */
export function describeMove(strategy: string, utterance: string, context = ''): string {
  const style = describeStyle(utterance, context);
  return style ? `${strategy} (${style})` : strategy;
}

/** The text of the user's last turn in an observation ('' before any). */
export function lastUserText(obs: Observation): string {
  return last(obs.history, 'user')?.text ?? '';
}
