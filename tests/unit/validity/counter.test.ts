/**
 * The CB counter-offer measure of the validity table (src/validity/metrics.ts): the simulated
 * seller's price after a buyer offer against the human seller's counter, both as fractions of the list price,
 * by Spearman's rank correlation, beside "split the difference". On hand-made negotiations whose correlations are
 * worked out by hand below, and on real replays (the simulator's price comes from its own events; the price it
 * counters from is teacher-forced to the one the history names). Turns after the simulated seller ended are left out.
 */
import { describe, expect, it } from 'vitest';
import { CB_DEFAULT_SEEDS } from '../../../src/tasks/cb';
import type { ReplayDialogue } from '../../../src/validity/datasets';
import { replayDialogues } from '../../../src/validity/datasets';
import { counterItems, validityRows } from '../../../src/validity/metrics';
import { replayDialogue, type ReplayedDialogue } from '../../../src/validity/replay';
import { prefixSellerPrice } from '../../../src/sim/dynamics';
import type { Turn as HistoryTurn } from '../../../src/tasks/seed';
import { smallFiles } from './helpers';

const MEASURE = "seller's counter-offer / list price vs the human seller's — Spearman";

/** One buyer turn: the buyer's offer, the human seller's reply and act, and the simulated seller's price. */
interface Turn {
  offer: number;
  reply: string;
  reaction: 'counter' | 'agree' | 'other';
  sim: number;
}

function negotiation(id: string, list: number, turns: readonly Turn[]): ReplayedDialogue {
  const base = CB_DEFAULT_SEEDS[0] as ReplayDialogue['seed'];
  const seed = { ...base, id, actorView: { ...base.actorView, listPrice: list } };
  const dialogue: ReplayDialogue = {
    task: 'cb',
    id,
    purpose: 'turns',
    seed,
    prefix: [],
    steps: turns.map((t) => ({
      actor: `I can pay $${t.offer} for it.`,
      user: t.reply,
      reaction: t.reaction,
      userSentiment: null,
    })),
    outcome: { deal: false },
  };
  return {
    dialogue,
    decisions: turns.map((t) => ({
      reaction: 'counter',
      valenceChange: 0,
      carried: false,
      sellerPrice: t.sim,
    })),
    final: {
      intention: 0,
      committed: false,
      donation: null,
      donationInputs: null,
      deal: false,
      ended: null,
      endedAt: null,
    },
  };
}

/**
 * Four negotiations with list prices 100, 200, 400 and 1,000; eight countered buyer offers (human counter h and
 * split-the-difference s as fractions of the list price; the seller's previous price is the list price, then its
 * own last counter):
 *
 *   A1 h .90 s .700   A2 h .80 s .725   B1 h .95 s .750   B2 h .85 s .775
 *   C1 h .75 s .650   C2 h .70 s .625   D1 h .98 s .850   D2 h .96 s .865
 *
 * Ranks of h: C2 1, C1 2, A2 3, B2 4, A1 5, B1 6, D2 7, D1 8; of s: C2 1, C1 2, A1 3, A2 4, B1 5, B2 6, D1 7,
 * D2 8. Rank differences 0, 0, −1, −2, 2, 1, −1, 1: Σd² = 12, so split the difference has ρ = 1 − 6·12 / (8·63)
 * = 6/7. Negotiation D's third turn is accepted and its fourth answered without a price: neither is counted.
 * `sim(h, list)` is the simulated seller's price in currency units.
 */
function fixture(sim: (h: number, list: number) => number): ReplayedDialogue[] {
  const turn = (list: number, offer: number, h: number): Turn => ({
    offer,
    reply: `How about $${Math.round(h * list)}?`,
    reaction: 'counter',
    sim: sim(h, list),
  });
  return [
    negotiation('fixture:A', 100, [turn(100, 40, 0.9), turn(100, 55, 0.8)]),
    negotiation('fixture:B', 200, [turn(200, 100, 0.95), turn(200, 120, 0.85)]),
    negotiation('fixture:C', 400, [turn(400, 120, 0.75), turn(400, 200, 0.7)]),
    negotiation('fixture:D', 1000, [
      turn(1000, 700, 0.98),
      turn(1000, 750, 0.96),
      { offer: 900, reply: 'Deal, $900 it is.', reaction: 'agree', sim: 900 },
      { offer: 910, reply: 'Let me think about it.', reaction: 'other', sim: 900 },
    ]),
  ];
}

function counterRow(replayed: readonly ReplayedDialogue[]) {
  const rows = validityRows(replayed, { resamples: 200, allHeldOut: true }).filter(
    (r) => r.measure === MEASURE,
  );
  expect(rows).toHaveLength(1);
  return rows[0] as (typeof rows)[number];
}

describe('CB counter-offer measure', () => {
  it('scores the countered offers only, as fractions of the list price, with split the difference beside them', () => {
    const items = counterItems(fixture((h, list) => list * (0.5 + h / 2)));
    expect(items).toHaveLength(8);
    expect(items.map((i) => i.human)).toEqual([0.9, 0.8, 0.95, 0.85, 0.75, 0.7, 0.98, 0.96]);
    expect(items.map((i) => i.split)).toEqual(
      [0.7, 0.725, 0.75, 0.775, 0.65, 0.625, 0.85, 0.865].map((x) => expect.closeTo(x, 12)),
    );
    expect(items[0]?.sim).toBeCloseTo(0.95, 12);
  });

  it('a seller whose prices rank as the humans’ has ρ = 1 on every resample; split the difference has 6/7', () => {
    // A monotone transform of the human fraction, in currency units: ρ = 1 only when prices are read as
    // fractions of each negotiation's own list price (the raw prices rank A < B < C < D instead) and the
    // simulator's price of the same turn is compared.
    const row = counterRow(fixture((h, list) => list * (0.5 + h / 2)));
    expect(row).toMatchObject({ task: 'cb', split: 'held-out', level: 'turn', n: 8, dialogues: 4 });
    expect(row.simulator.estimate).toBeCloseTo(1, 12);
    expect(row.simulator.lo).toBeCloseTo(1, 12);
    expect(row.simulator.hi).toBeCloseTo(1, 12);
    const split = row.baselines['split the difference'];
    expect(split?.estimate).toBeCloseTo(6 / 7, 12);
    expect(row.differences['split the difference']?.estimate).toBeCloseTo(1 / 7, 12);
    expect(split?.lo).toBeLessThanOrEqual(6 / 7);
  });

  it('a seller whose prices rank against the humans’ has ρ = −1 and is below split the difference', () => {
    const row = counterRow(fixture((h, list) => list * (1.5 - h / 2)));
    expect(row.simulator.estimate).toBeCloseTo(-1, 12);
    expect(row.differences['split the difference']?.estimate).toBeCloseTo(-1 - 6 / 7, 12);
    expect(row.differences['split the difference']?.hi).toBeLessThan(0);
    expect(row.beats).toEqual([]);
  });

  it('on real replays the simulated seller counters from the price the history names for it (teacher-forced)', async () => {
    const files = smallFiles();
    const replayed: ReplayedDialogue[] = [];
    for (const d of replayDialogues({ cb: files.cb ?? [] })) replayed.push(await replayDialogue(d));
    let named = 0;
    for (const r of replayed) {
      const list = r.dialogue.seed.actorView.listPrice as number;
      const history: HistoryTurn[] = [...r.dialogue.prefix];
      for (const [i, d] of r.decisions.entries()) {
        expect(d.sellerPrice).not.toBeNull();
        if (d.reaction === 'counter' && !d.carried) {
          // Never above the price the human seller last named (the list price before any): the replay hands the
          // simulator the history's price, not one of its own that nobody in the dialogue said.
          const standing = prefixSellerPrice(history, list) ?? list;
          expect(d.sellerPrice).toBeLessThanOrEqual(standing);
          named++;
        }
        const step = r.dialogue.steps[i] as ReplayDialogue['steps'][number];
        history.push({ speaker: 'actor', text: step.actor });
        if (step.user !== null) history.push({ speaker: 'user', text: step.user });
      }
    }
    expect(named).toBeGreaterThan(0);
    for (const i of counterItems(replayed)) {
      expect(i.sim).toBeGreaterThan(0);
      expect(i.human).toBeGreaterThanOrEqual(0.2);
      expect(i.human).toBeLessThanOrEqual(1.5);
    }
  });

  it('leaves out the turns after the simulated seller ended, for the simulator and split the difference alike', () => {
    const replayed = fixture((h, list) => list * (0.5 + h / 2));
    const d = replayed[3] as ReplayedDialogue;
    // Negotiation D ended (a simulated deal at $700) before its second countered turn: that turn is carried.
    replayed[3] = {
      ...d,
      decisions: d.decisions.map((x, i) =>
        i === 0 ? x : { ...x, reaction: 'agree', carried: i > 0, sellerPrice: 700 },
      ),
    };
    const items = counterItems(replayed);
    expect(items).toHaveLength(7);
    expect(items.map((i) => i.human)).toEqual([0.9, 0.8, 0.95, 0.85, 0.75, 0.7, 0.98]);
    const row = counterRow(replayed);
    expect(row.n).toBe(7);
  });
});
