/**
 * The CB seller fitted to people (src/sim/dynamics.ts): it starts at the price it named in the seed's prefix,
 * accepts an offer at or above its private floor when the fitted reaction model reads the turn as one people
 * answered by agreeing (never below the floor), and names its price unasked by an offer with the fitted opening
 * concession once (not again and again); it counters at the fitted counter-offer, never below the fitted counter
 * floor. The opening concession's rows (`cbOpeningRows` of src/validity/fit.ts)
 * are read from a dialogue written here.
 */
import { describe, expect, it } from 'vitest';
import { concessionInputs, logisticProbability, predictLinear, priceInputs } from '../../../src/fit';
import { actorEvents, prefixSellerPrice, userEvents } from '../../../src/sim/dynamics';
import { fittedPerception } from '../../../src/sim/fitted';
import { extractFeatures } from '../../../src/text/features';
import { priceParams } from '../../../src/sim/fitted';
import { initialSimState } from '../../../src/sim/simulator';
import type { SimState, TaskEvent } from '../../../src/sim/types';
import { DEFAULT_SEEDS } from '../../../src/tasks/defaults';
import type { Seed } from '../../../src/tasks/seed';
import { cbDialogues } from '../../../src/validity/datasets';
import { cbOpeningRows } from '../../../src/validity/fit';

const seed = DEFAULT_SEEDS.cb[0] as Seed;
const list = seed.userPrivate.listPrice as number;
const reservation = seed.userPrivate.reservationPrice as number;
const offerEvent = (state: SimState, price: number): TaskEvent[] => [
  { turn: state.turn, by: 'actor', type: 'offer', price },
];

describe('the seller’s standing price from the prefix', () => {
  it('is the last plausible price the seller named there, else null', () => {
    const asked = Math.round(0.9 * list);
    const withPrice: Seed = {
      ...seed,
      prefix: [
        { speaker: 'user', text: 'Hi! Thanks for your interest.' },
        { speaker: 'actor', text: 'Hello, is it still available?' },
        { speaker: 'user', text: `Yes. I could let it go for $${asked}.` },
      ],
    };
    expect(initialSimState(withPrice, 10).lastUserPrice).toBe(asked);
    expect(prefixSellerPrice(withPrice.prefix, list)).toBe(asked);
    // A number far outside the list price (a year, a model number) is no price; the buyer's prices are not the seller's.
    expect(
      prefixSellerPrice([{ speaker: 'user', text: `It is only $${Math.round(list * 0.05)}.` }], list),
    ).toBeNull();
    expect(prefixSellerPrice([{ speaker: 'actor', text: `Would you take $${asked}?` }], list)).toBeNull();
    expect(initialSimState({ ...seed, prefix: [] }, 10).lastUserPrice).toBeNull();
  });
});

describe('the fitted seller', () => {
  const start = initialSimState({ ...seed, prefix: [] }, 10);

  it('accepts an offer at or above its floor that people answered by agreeing, and never one below it', () => {
    const price = priceParams('cb');
    expect(price).toBeDefined();
    const offer = Math.ceil(reservation);
    // Precondition: the price model alone would not accept this offer.
    expect(logisticProbability(price?.accept ?? [], priceInputs(offer, list, list, null))).toBeLessThan(0.5);
    const plain = userEvents(start, offerEvent(start, offer), false, false, true, false);
    expect(plain.ended).toBeNull();
    const agreed = userEvents(start, offerEvent(start, offer), false, false, true, true);
    expect(agreed.ended).toBe('deal');
    expect(agreed.events).toEqual([{ turn: start.turn, by: 'user', type: 'accept', price: offer }]);
    const below = userEvents(start, offerEvent(start, offer - 0.05 * list), false, false, true, true);
    expect(below.ended).toBeNull();
    expect(below.events.some((e) => e.type === 'accept')).toBe(false);
  });

  it('counters at the fitted counter-offer below its previous price, never below the fitted counter floor', () => {
    const price = priceParams('cb');
    if (!price) throw new Error('no fitted CB price parameters');
    // The floor is fitted from people's counters (a low quantile of counter / list), not the seed's hand-set
    // reservation price, which still gates acceptance.
    expect(price.floor).toBeGreaterThan(0.3);
    expect(price.floor).toBeLessThan(1);
    // The fitted model predicts the counter-offer / list; the concession is what it gives up from the list price.
    const concession = (offer: number) =>
      list -
      list *
        predictLinear(
          price.counter,
          concessionInputs(priceInputs(offer, list, list, null), price.counterFeatures),
        );
    const mid = Math.round(0.75 * list);
    const midCounter = userEvents(start, offerEvent(start, mid), false, false, true, false);
    expect(midCounter.ended).toBeNull();
    const expected = Math.max(
      Math.ceil(list * price.floor),
      Math.round(list - Math.min(list - mid, Math.max(0, concession(mid)))),
    );
    expect(midCounter.events).toEqual([{ turn: start.turn, by: 'user', type: 'offer', price: expected }]);
    expect(expected).toBeLessThan(list);
    expect(expected).toBeGreaterThan(mid);
    const low = Math.round(0.1 * list);
    const lowCounter = userEvents(start, offerEvent(start, low), false, false, true, false);
    const lowPrice = lowCounter.events.find((e) => e.type === 'offer')?.price as number;
    expect(lowPrice).toBeGreaterThanOrEqual(Math.ceil(list * price.floor));
    expect(lowPrice).toBeLessThan(midCounter.lastUserPrice as number);
  });

  it('names its price unasked with the fitted opening concession once, then holds it', () => {
    const opening = priceParams('cb')?.opening ?? 0;
    expect(opening).toBeGreaterThan(0);
    const first = userEvents(start, [], false, true, true, false);
    const floor = Math.ceil(list * (priceParams('cb')?.floor ?? 0));
    const expected = Math.max(floor, Math.round(list - opening * list));
    expect(first.events).toEqual([{ turn: start.turn, by: 'user', type: 'offer', price: expected }]);
    const after: SimState = {
      ...start,
      turn: start.turn + 1,
      events: first.events,
      lastUserPrice: first.lastUserPrice,
    };
    const second = userEvents(after, [], false, true, true, false);
    expect(second.lastUserPrice).toBe(expected);
  });
});

describe('cbOpeningRows', () => {
  it('reads the seller’s first price named unasked by an offer, as a share of the list price below its last', () => {
    const record = {
      item_name: 'bike',
      buyer_item_description: 'A road bike.',
      buyer_price: 70,
      seller_item_description: 'A road bike, barely used.',
      seller_price: 100,
      dialog: [
        { speaker: 'sys', text: 'Hi there!', strategy: 'greet' },
        { speaker: 'usr', text: 'Hello, thanks for writing.', strategy: 'greet' },
        { speaker: 'sys', text: 'Is the bike still for sale?', strategy: 'inquire' },
        { speaker: 'usr', text: 'Yes it is.', strategy: 'inform' },
        { speaker: 'sys', text: 'Could you go any lower on it?', strategy: 'inquire' },
        { speaker: 'usr', text: 'I could do $90 for you.', strategy: 'counter' },
        { speaker: 'sys', text: 'What about $80 then?', strategy: 'counter' },
        { speaker: 'usr', text: 'Okay, $85 and it is yours.', strategy: 'counter' },
      ],
    };
    const dialogues = cbDialogues({ name: 'mine.jsonl', text: `${JSON.stringify(record)}\n` });
    const rows = cbOpeningRows(dialogues);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toBeCloseTo(0.1, 9);
  });
});

describe('the buyer’s acceptance', () => {
  const countered: SimState = { ...initialSimState({ ...seed, prefix: [] }, 10), lastUserPrice: 400 };
  const accept = [{ turn: countered.turn, by: 'actor', type: 'accept', price: 400 }];

  it('closes at the seller’s counter when the fitted agreement model reads the turn as agreeing', () => {
    const text = 'That sounds fair to me!';
    const f = extractFeatures(text);
    expect(f.assent).toBeLessThan(0.5);
    expect(actorEvents(countered, f, false, false)).toEqual([]);
    expect(actorEvents(countered, f, false, true)).toEqual(accept);
    // It names another price, greets, or comes before any counter: no acceptance.
    expect(actorEvents(countered, extractFeatures('That sounds fair, $350 then!'), false, true)).not.toEqual(
      accept,
    );
    expect(actorEvents(countered, extractFeatures('Hi! Your listing looks great.'), false, true)).toEqual([]);
    expect(actorEvents({ ...countered, lastUserPrice: null }, f, false, true)).toEqual([]);
  });

  it('is what the fitted model reads in buyers’ ways of agreeing, and not in a complaint or a question', () => {
    const agrees = (text: string) => fittedPerception(text, 'cb', extractFeatures(text)).agrees;
    expect(agrees('Okay, that sounds fair. Deal!')).toBe(true);
    expect(agrees('That price is way too high for me.')).toBe(false);
    expect(agrees('Does it have any scratches?')).toBe(false);
  });
});
