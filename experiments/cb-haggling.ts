/**
 * How long CraigslistBargain haggling lasts — real people against the template simulator
 * (docs/architecture.md "Simulator validation"). One measurement, applied to both sides, over negotiations
 * that end in a deal:
 *
 * - buyer turns up to and including the agreement;
 * - buyer turns from the buyer's first priced offer to the agreement (the haggling proper);
 * - the buyer's priced offers; the first offer as a fraction of the list price;
 * - each seller counter that lies between the buyer's last offer and the seller's previous price: its step as a
 *   fraction of the list price, and the step divided by the buyer's preceding step (reciprocity);
 * - the last price named before the agreement (the deal price, as far as words say it) over the list price.
 *
 * Prices are read from the words with the simulator's own parser (`extractFeatures(...).price`), so both sides
 * are measured alike. Humans: `../shared/data/cb/craigslistbargain-valid.jsonl` (agreement = the first `agree`
 * act), split with the validity split (`src/validity/datasets.ts`: about 20% held out, never used to choose a
 * rule). Simulator: the CB branch of the adaptive buyer script of `tests/unit/sim/episodes.test.ts` (opens with
 * the buyer's target, moves 45% toward each counter, accepts within 6% of the list price) on the bundled seeds.
 *
 * Run: `npx tsx experiments/cb-haggling.ts` (a few seconds). Prints medians with the interquartile range.
 */
import { readFileSync } from 'node:fs';
import { DialogueEnv, type Observation, defaultSeeds, extractFeatures } from '../src/entries/simulator';
import { splitOf } from '../src/entries/validity';

interface Utterance {
  buyer: boolean;
  text: string;
}
interface Stats {
  buyerTurns: number[];
  fromFirstOffer: number[];
  offers: number[];
  firstOffer: number[];
  sellerStep: number[];
  reciprocity: number[];
  dealPrice: number[];
}
const empty = (): Stats => ({
  buyerTurns: [],
  fromFirstOffer: [],
  offers: [],
  firstOffer: [],
  sellerStep: [],
  reciprocity: [],
  dealPrice: [],
});

/** Adds one negotiation, cut at its agreement (inclusive), to `s`. */
function measure(s: Stats, upto: readonly Utterance[], list: number): void {
  const buyerTotal = upto.filter((u) => u.buyer).length;
  s.buyerTurns.push(buyerTotal);
  let buyerSeen = 0;
  let offers = 0;
  let lastBuyer: number | null = null;
  let buyerStep: number | null = null;
  let lastSeller = list;
  let lastPrice: number | null = null;
  for (const u of upto) {
    if (u.buyer) buyerSeen++;
    const p = extractFeatures(u.text).price;
    if (p === null || p <= 0 || p > 3 * list) continue;
    lastPrice = p;
    if (u.buyer) {
      if (offers === 0) {
        s.firstOffer.push(p / list);
        s.fromFirstOffer.push(buyerTotal - buyerSeen + 1);
      }
      offers++;
      buyerStep = lastBuyer === null ? null : p - lastBuyer;
      lastBuyer = p;
    } else {
      if (lastBuyer !== null && p < lastSeller && p > lastBuyer) {
        s.sellerStep.push((lastSeller - p) / list);
        if (buyerStep !== null && buyerStep > 0) s.reciprocity.push((lastSeller - p) / buyerStep);
      }
      lastSeller = p;
    }
  }
  s.offers.push(offers);
  if (lastPrice !== null) s.dealPrice.push(lastPrice / list);
}

function humans(): Record<string, Stats> {
  const out: Record<string, Stats> = { dev: empty(), 'held-out': empty() };
  const text = readFileSync('../shared/data/cb/craigslistbargain-valid.jsonl', 'utf8');
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    const row = JSON.parse(line) as {
      seller_price: number;
      dialog: { speaker: string; text: string; strategy?: string | null }[];
    };
    const agreeAt = row.dialog.findIndex((e) => (e.strategy ?? '').trim().toLowerCase() === 'agree');
    if (agreeAt < 0) return;
    const upto = row.dialog.slice(0, agreeAt + 1).map((e) => ({ buyer: e.speaker === 'sys', text: e.text }));
    measure(out[splitOf(`craigslistbargain-valid:${i + 1}`)] as Stats, upto, row.seller_price);
  });
  return out;
}

/** The CB branch of the adaptive script in tests/unit/sim/episodes.test.ts. */
function adaptiveBuyer(obs: Observation): string {
  const list = obs.actorView.listPrice as number;
  const target = obs.actorView.targetPrice as number;
  const mine = [...obs.events].reverse().find((e) => e.type === 'offer' && e.by === 'actor')?.price;
  const theirs = [...obs.events].reverse().find((e) => e.type === 'offer' && e.by === 'user')?.price;
  if (mine === undefined)
    return `Hi, it looks nice. It has some wear though. Would you take $${Math.round(target)}?`;
  if (theirs !== undefined && theirs - mine <= 0.06 * list) return `Deal, $${theirs} works for me.`;
  const next = Math.round(mine + 0.45 * ((theirs ?? list) - mine));
  const options = [
    `I can pay cash today. How about ${next}?`,
    `I have seen similar ones cheaper online. Would you take $${next}?`,
    `Meet me at ${next} dollars and I will pick it up tonight.`,
  ];
  return options[obs.turn % options.length] as string;
}

async function simulator(): Promise<Stats> {
  const s = empty();
  const env = new DialogueEnv('cb');
  for (const seed of defaultSeeds('cb')) {
    let { observation } = env.reset({ seed });
    const prefix = observation.history.length;
    let done = false;
    let reason: string | null = null;
    while (!done) {
      const step = await env.step({ strategy: '', utterance: adaptiveBuyer(observation) });
      observation = step.observation;
      done = step.terminated || step.truncated;
      reason = step.info.endReason;
    }
    if (reason !== 'deal') continue;
    const turns = observation.history
      .slice(prefix)
      .map((t) => ({ buyer: t.speaker === 'actor', text: t.text }));
    measure(s, turns, observation.actorView.listPrice as number);
  }
  return s;
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const at = (xs: number[], q: number) => sorted(xs)[Math.floor(q * (xs.length - 1))] ?? NaN;
const fmt = (xs: number[]) =>
  `median ${at(xs, 0.5).toFixed(2)} [IQR ${at(xs, 0.25).toFixed(2)}–${at(xs, 0.75).toFixed(2)}] n=${xs.length}`;

function print(name: string, s: Stats): void {
  console.log(`${name}: deals ${s.buyerTurns.length}`);
  console.log(`  buyer turns to the agreement: ${fmt(s.buyerTurns)}`);
  console.log(`  buyer turns from the first priced offer: ${fmt(s.fromFirstOffer)}`);
  console.log(`  buyer priced offers: ${fmt(s.offers)}`);
  console.log(`  first buyer offer / list price: ${fmt(s.firstOffer)}`);
  console.log(`  seller counter step / list price: ${fmt(s.sellerStep)}`);
  console.log(`  seller step / buyer's preceding step: ${fmt(s.reciprocity)}`);
  console.log(`  last price named / list price: ${fmt(s.dealPrice)}`);
}

const h = humans();
print('humans, dev split', h.dev as Stats);
print('humans, held-out split', h['held-out'] as Stats);
print('simulator, adaptive script, bundled seeds', await simulator());
