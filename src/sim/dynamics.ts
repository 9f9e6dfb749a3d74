/**
 * Task dynamics: public task events and the user's decision to end, both decided by rules over the simulator's
 * own state after the cognitive update (the same rules whichever backend verbalises the reply).
 *
 * - CraigslistBargain (template mode, fitted to people): the seller starts at the last price it named in the
 *   seed's prefix, else the list price; it accepts an offer at or above its previous price, or at or above its
 *   private floor when the fitted acceptance model or the fitted reaction model (people answered such a turn by
 *   agreeing) says so; otherwise it counters at the fitted counter-offer (least squares on people's next prices),
 *   never above its previous price nor below the offer or the fitted counter floor (a low quantile of people's
 *   counters / list price); a very low offer to a firm seller makes it quit. Asked without an offer, it names its
 *   price (the fitted opening concession). The buyer closes a deal by assenting to the seller's last counter.
 *   With a language-model proposer the rule seller of `ruleSellerEvents` applies instead.
 * - P4G: asked to donate with the donate intention ≥ 2.6 and above the decline intention, the user commits an
 *   amount in USD 0.5–2.0 (of the task payment); a commitment is withdrawn if the intention later falls below 2;
 *   two turns after an upheld commitment the user ends; a decline intention ≥ 3.5 (from turn 3) ends in refusal.
 * - ESConv: the user ends with thanks when valence ≥ 0.25 and the step intention ≥ 2.6; a withdraw intention
 *   ≥ 3.6 ends the talk.
 */
import { extractFeatures, type TextFeatures } from '../text/features';
import type { Turn } from '../tasks/seed';
import { concessionInputs, logisticProbability, predictLinear, priceInputs } from '../fit';
import { priceParams } from './fitted';
import { strengthOf } from './records';
import { TASK_RULES } from './rules';
import type { EndReason, SimState, TaskEvent } from './types';

const round = (v: number, step: number) => Math.round(v / step) * step;

/** The seller's current acceptable price (currency units), between its reservation price and the list price. */
export function sellerAcceptablePrice(state: Readonly<SimState>): number {
  const list = state.private.listPrice ?? 0;
  const reservation = state.private.reservationPrice ?? list;
  const cog = state.cognitive;
  const pull =
    strengthOf(cog, 'i-concede') +
    0.5 * (strengthOf(cog, 'b-flaw') + strengthOf(cog, 'b-market') + strengthOf(cog, 'b-serious'));
  const hold = 0.5 * (strengthOf(cog, 'i-hold') + strengthOf(cog, 'b-worth'));
  const concession = Math.min(1, Math.max(0, (pull - hold + 1.5) / 6));
  return list - (list - reservation) * concession;
}

/**
 * The seller's counter (whole currency units) from its previous price: the fitted counter-offer model (least squares
 * on people's next prices, `concessionInputs` of src/fit/price.ts), kept between the offer and the previous price
 * (a concession of at least none and at most the gap to the offer). Reciprocity (hand-set:
 * the data hold too few repeated offers to show it): a buyer who repeats or lowers an earlier offer gets no
 * concession — sellers match concessions, they do not reward standing still (Pruitt, 1981, "Negotiation
 * Behavior", ch. 2; Cialdini et al., 1975, reciprocal concessions). Moves are measured from the buyer's best
 * earlier offer, so alternating a low and a higher offer is no move.
 */
function concede(state: Readonly<SimState>, prev: number, list: number, x: readonly number[]): number {
  const price = priceParams('cb');
  const before = buyerPrevious(state);
  const offer = (x[0] as number) * list;
  if (!price || (before !== null && offer <= before)) return prev;
  const gap = Math.max(0, prev - offer);
  const predicted = list * predictLinear(price.counter, concessionInputs(x, price.counterFeatures));
  const concession = Math.min(gap, Math.max(0, prev - predicted));
  return Math.round(prev - concession);
}

/** Prices outside this share of the list price are not read as a CB price (a year, a model number, a typo). */
export const PLAUSIBLE_PRICE = { min: 0.2, max: 1.5 } as const;

/**
 * The CB seller's standing price at the start of a dialogue: the last price the seller (the user) named in the
 * seed's prefix, when one lies within {@link PLAUSIBLE_PRICE} of the list price, else null (the list price stands).
 * The simulator starts from the prefix as its own history: a seller who has already said "I could do $400" stands
 * at $400, not at the list price. The same rule as the fit's previous price (`cbOfferRows` of src/validity/fit.ts).
 */
export function prefixSellerPrice(prefix: readonly Turn[], listPrice: number | undefined): number | null {
  if (!listPrice) return null;
  let price: number | null = null;
  for (const t of prefix) {
    if (t.speaker !== 'user') continue;
    const p = extractFeatures(t.text).price;
    if (p !== null && p >= PLAUSIBLE_PRICE.min * listPrice && p <= PLAUSIBLE_PRICE.max * listPrice) price = p;
  }
  return price;
}

/** The buyer's best (highest) offer before this turn (CB), or null. */
function buyerPrevious(state: Readonly<SimState>): number | null {
  let best: number | null = null;
  for (const e of state.events)
    if (e.by === 'actor' && e.type === 'offer' && e.price !== undefined)
      best = Math.max(best ?? e.price, e.price);
  return best;
}

/**
 * Events the actor's utterance itself makes (public): an offer, an acceptance of the last counter, quitting. A
 * confusing turn (several prices at once, or no sentence a person would write) makes no offer: the seller cannot
 * tell which price is meant. The buyer accepts the seller's last counter by assenting ("Deal.") or, with `agrees`,
 * by a turn that the model fitted on buyers' annotated "agree" acts reads as acceptance ("That sounds fair!"),
 * when it names no other price.
 */
export function actorEvents(
  state: Readonly<SimState>,
  f: TextFeatures,
  confusing = false,
  agrees = false,
): TaskEvent[] {
  if (state.task !== 'cb') return [];
  const turn = state.turn;
  if (confusing && f.price !== null) return [];
  if (f.quit >= 0.5 && f.price === null) return [{ turn, by: 'actor', type: 'quit' }];
  const counter = state.lastUserPrice;
  // A greeting opens a conversation, it does not close a deal (hand-set: "Great, thanks!" agrees in the data, and
  // the model also reads "Hi! Your listing looks great" as agreement).
  const accepts = f.assent >= 0.5 || (agrees && !confusing && f.greeting < 0.5);
  if (accepts && counter !== null && (f.price === null || Math.abs(f.price - counter) < 0.5)) {
    return [{ turn, by: 'actor', type: 'accept', price: counter }];
  }
  if (f.price !== null && f.price > 0) return [{ turn, by: 'actor', type: 'offer', price: f.price }];
  return [];
}

/**
 * The rule seller of Cog-Sim with a language-model proposer (the papers' design: no reactions fitted to people):
 * it accepts an offer at or above its acceptable price ({@link sellerAcceptablePrice}), quits on an offer below half
 * its reservation price when firmly against, and otherwise counters 40% of the way from its previous price toward
 * the larger of the offer and its acceptable price.
 */
function ruleSellerEvents(
  state: Readonly<SimState>,
  offer: number,
  against: number,
): { events: TaskEvent[]; ended: EndReason | null; lastUserPrice: number | null } {
  const turn = state.turn;
  const acceptable = sellerAcceptablePrice(state);
  if (offer >= acceptable)
    return {
      events: [{ turn, by: 'user', type: 'accept', price: offer }],
      ended: 'deal',
      lastUserPrice: offer,
    };
  const reservation = state.private.reservationPrice ?? acceptable;
  if (offer < 0.5 * reservation && against >= 3.4)
    return {
      events: [{ turn, by: 'user', type: 'quit' }],
      ended: 'quit',
      lastUserPrice: state.lastUserPrice,
    };
  const prev = state.lastUserPrice ?? state.private.listPrice ?? acceptable;
  const target = Math.max(offer, acceptable);
  const counter = Math.min(prev, Math.max(Math.ceil(acceptable), Math.round(prev - 0.4 * (prev - target))));
  return {
    events: [{ turn, by: 'user', type: 'offer', price: counter }],
    ended: null,
    lastUserPrice: counter,
  };
}

/**
 * The user's events and ending after the update. `actorEvs` are this turn's actor events; `namesPrice` (CB): the
 * fitted reaction model reads the actor's turn as one people answer with a price (a counter), so a seller names
 * its price even without an offer to answer; `fittedSeller` (CB): the seller accepts and concedes as fitted to
 * people (template mode), else by the rules of {@link ruleSellerEvents}; `agrees` (CB, fitted seller): the fitted
 * reaction model reads the actor's turn as one people answered by agreeing, so the seller accepts the offer it
 * makes when it is at or above the seller's private floor.
 */
export function userEvents(
  state: Readonly<SimState>,
  actorEvs: readonly TaskEvent[],
  asked: boolean,
  namesPrice = false,
  fittedSeller = true,
  agrees = false,
): { events: TaskEvent[]; ended: EndReason | null; lastUserPrice: number | null } {
  const turn = state.turn;
  const cog = state.cognitive;
  const rules = TASK_RULES[state.task];
  const goal = strengthOf(cog, rules.goalIntention);
  const against = strengthOf(cog, rules.againstIntention);
  if (state.task === 'cb') {
    if (actorEvs.some((e) => e.type === 'quit'))
      return { events: [], ended: 'actor-quit', lastUserPrice: state.lastUserPrice };
    if (actorEvs.some((e) => e.type === 'accept'))
      return { events: [], ended: 'deal', lastUserPrice: state.lastUserPrice };
    const offer = actorEvs.find((e) => e.type === 'offer')?.price;
    if (offer === undefined) {
      // A turn without an offer that people answered with a price ("Would you take less?"): the seller names
      // its price. The first time, at the fitted opening concession below its previous price (the list price, or
      // a price it named in the prefix); later, at the fitted counter to an offer at its own previous price (its
      // concession with no new offer, about none: sellers do not keep lowering a price nobody has answered).
      const list = state.private.listPrice;
      const price = priceParams('cb');
      if (!namesPrice || !list || !price)
        return { events: [], ended: null, lastUserPrice: state.lastUserPrice };
      const prev = state.lastUserPrice ?? list;
      const first = !state.events.some((e) => e.by === 'user' && e.type === 'offer');
      const asked = first
        ? Math.round(prev - list * Math.max(0, price.opening))
        : concede(state, prev, list, priceInputs(prev, prev, list, null));
      const named = Math.min(prev, Math.max(Math.ceil(list * price.floor), asked));
      return {
        events: [{ turn, by: 'user', type: 'offer', price: named }],
        ended: null,
        lastUserPrice: named,
      };
    }
    if (!fittedSeller) return ruleSellerEvents(state, offer, against);
    const list = state.private.listPrice ?? offer;
    const prev = state.lastUserPrice ?? list;
    const reservation = state.private.reservationPrice ?? 0;
    const price = priceParams('cb');
    const x = priceInputs(offer, prev, list, buyerPrevious(state));
    // The fitted seller: it accepts what it asked for or more, and otherwise an offer at or above its
    // private floor as often as people accepted such offers (the price model), or when people answered such a turn by
    // agreeing (the reaction model, `agrees`); it counters at the fitted fraction of the list price,
    // never above its previous price nor below the offer or its counter floor. The counter floor is fitted (the
    // train sellers' 5th percentile of counter / list price); acceptance is still gated by the private reservation
    // price, which is hand-set per seed (a seller's own limit is private: the data cannot show it).
    if (
      offer >= prev ||
      (price && offer >= reservation && (agrees || logisticProbability(price.accept, x) >= 0.5))
    ) {
      return {
        events: [{ turn, by: 'user', type: 'accept', price: offer }],
        ended: 'deal',
        lastUserPrice: offer,
      };
    }
    if (offer < 0.5 * reservation && against >= 3.4) {
      return {
        events: [{ turn, by: 'user', type: 'quit' }],
        ended: 'quit',
        lastUserPrice: state.lastUserPrice,
      };
    }
    const floor = price ? Math.ceil(list * price.floor) : Math.ceil(reservation);
    const counter = Math.min(prev, Math.max(floor, concede(state, prev, list, x)));
    // A counter at or below the offer is the offer: the seller takes it.
    if (counter <= offer)
      return {
        events: [{ turn, by: 'user', type: 'accept', price: offer }],
        ended: 'deal',
        lastUserPrice: offer,
      };
    return {
      events: [{ turn, by: 'user', type: 'offer', price: counter }],
      ended: null,
      lastUserPrice: counter,
    };
  }
  if (state.task === 'p4g') {
    const commit = state.events.find((e) => e.type === 'commit');
    const withdrawn = state.events.some((e) => e.type === 'withdraw');
    if (commit && !withdrawn) {
      if (goal < 2)
        return { events: [{ turn, by: 'user', type: 'withdraw' }], ended: 'quit', lastUserPrice: null };
      if (turn - commit.turn >= 2)
        return {
          events: [{ turn, by: 'user', type: 'end' }],
          ended: 'user-ended',
          lastUserPrice: state.lastUserPrice,
        };
      return { events: [], ended: null, lastUserPrice: state.lastUserPrice };
    }
    if (!commit && asked && goal >= 2.6 && goal > against) {
      const amount = Math.min(2, Math.max(0.5, round(0.5 + (goal - 2.6) * 1.2, 0.5)));
      return { events: [{ turn, by: 'user', type: 'commit', amount }], ended: null, lastUserPrice: amount };
    }
    if (against >= 3.5 && turn >= 3)
      return { events: [{ turn, by: 'user', type: 'quit' }], ended: 'quit', lastUserPrice: null };
    return { events: [], ended: null, lastUserPrice: state.lastUserPrice };
  }
  if (state.cognitive.affect.valence >= 0.25 && goal >= 2.6) {
    return { events: [{ turn, by: 'user', type: 'end' }], ended: 'user-ended', lastUserPrice: null };
  }
  if (against >= 3.6)
    return { events: [{ turn, by: 'user', type: 'quit' }], ended: 'quit', lastUserPrice: null };
  return { events: [], ended: null, lastUserPrice: null };
}

/** First turn of the staleness check, its period, the window it looks at and its thresholds. */
export const STALENESS = {
  fromTurn: 13,
  every: 2,
  window: 4,
  minStrengthChange: 0.3,
  minValenceChange: 0.05,
} as const;

/**
 * Staleness: from turn 13, every 2 turns, a dialogue whose last 4 turns changed the user's records by less than
 * 0.3 in total and valence by less than 0.05 is going in circles.
 */
export function isStale(state: Readonly<SimState>): boolean {
  const t = state.turn;
  if (t < STALENESS.fromTurn || (t - STALENESS.fromTurn) % STALENESS.every !== 0) return false;
  const recent = state.changeLog.slice(-STALENESS.window);
  const strength = recent.reduce((s, c) => s + c.strength, 0);
  const valence = recent.reduce((s, c) => s + c.valence, 0);
  return strength < STALENESS.minStrengthChange && valence < STALENESS.minValenceChange;
}
