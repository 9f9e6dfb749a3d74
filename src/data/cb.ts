/**
 * CraigslistBargain loader (He et al., 2018; PPDPP split): JSONL with `item_name` (category),
 * `buyer_item_description`, `buyer_price` (the buyer's target), `seller_item_description`, `seller_price` (list
 * price) and `dialog[{speaker, text, strategy}]`. `sys` (the buyer) is the actor, `usr` (the seller) the
 * simulated user. See `shared/data/README.md` for the format.
 */
import { z } from 'zod';
import { Rng } from '../rng';
import { buildCbSeed } from '../tasks/builders';
import { CB } from '../tasks/cb';
import type { Seed } from '../tasks/seed';
import { contentWords, phraseCount } from '../text/features';
import {
  actorStrategies,
  baseName,
  cutAtSecondUserTurn,
  fileStem,
  mergeEntries,
  mergedLabel,
} from './dialogue';
import { hashKey32 } from './hash';
import { readJsonl } from './jsonl';
import { LoadLog, type LoadOptions, type LoadResult } from './result';
import { DataFormatError } from '../errors';

const price = z.number({ error: 'expected a number' }).positive({ error: 'must be a positive number' });

/** One CraigslistBargain record as stored in the JSONL file. */
export const CbRecordSchema = z.object({
  item_name: z.string(),
  buyer_item_description: z.string(),
  buyer_price: price,
  seller_item_description: z.string(),
  seller_price: price,
  dialog: z.array(
    z.object({
      speaker: z.enum(['usr', 'sys']),
      text: z.string(),
      strategy: z.string().nullish(),
    }),
  ),
});
export type CbRecord = z.infer<typeof CbRecordSchema>;

/**
 * Listing phrases that announce a firm price, and ones that invite offers (whole words outside negation: "not
 * firm" announces no firm price).
 */
const FIRM_CUES = ['firm', 'non-negotiable', 'non negotiable', 'not negotiable', 'no lowball', 'no low ball'];
const FLEXIBLE_CUES = [
  'obo',
  'or best offer',
  'make an offer',
  'make me an offer',
  'must go',
  'must sell',
  'moving',
];

/**
 * Seller firmness in [0.05, 0.95], deterministic from the listing: 0.5, +0.3 when the seller's description
 * announces a firm price, −0.25 when it invites offers, plus a per-listing spread, uniform in ±0.2, drawn from
 * an {@link Rng} seeded with `hashKey32(key + "/firmness")` (listings rarely say either, and sellers differ).
 */
export function cbFirmness(sellerDescription: string, key: string): number {
  const firm = phraseCount(sellerDescription, FIRM_CUES) > 0 ? 0.3 : 0;
  const flexible = phraseCount(sellerDescription, FLEXIBLE_CUES) > 0 ? -0.25 : 0;
  const spread = 0.4 * (Rng.fromSeed(hashKey32(`${key}/firmness`)).next() - 0.5);
  return Math.round(Math.min(0.95, Math.max(0.05, 0.5 + firm + flexible + spread)) * 100) / 100;
}

/**
 * Facts the seller may reveal when asked: content words of the seller's description that the buyer's
 * description lacks (what only the seller knows), else the description's first content words; at most 6.
 */
export function cbConcerns(sellerDescription: string, buyerDescription: string): string[] {
  const seller = [...new Set(contentWords(sellerDescription).filter((w) => !w.includes("'")))];
  const buyer = new Set(contentWords(buyerDescription));
  const privateWords = seller.filter((w) => !buyer.has(w));
  return (privateWords.length > 0 ? privateWords : seller).slice(0, 6);
}

function toSeed(record: CbRecord, file: string, line: number, log: LoadLog): Seed {
  if (!(record.buyer_price < record.seller_price))
    throw DataFormatError.record(
      'DATASET_INVALID',
      file,
      line,
      `buyer_price (${record.buyer_price}) must be below seller_price (${record.seller_price})`,
    );
  const entries = record.dialog.map((e) => ({
    speaker: e.speaker === 'sys' ? ('actor' as const) : ('user' as const),
    text: e.text,
    strategy: e.speaker === 'sys' ? mergedLabel(CB, e.strategy, file, line) : undefined,
  }));
  const { prefix, rest } = cutAtSecondUserTurn(mergeEntries(entries));
  const key = `${baseName(file)}:${line}`;
  const category = record.item_name.trim().toLowerCase() || 'item';
  const seed = buildCbSeed({
    id: `${fileStem(file)}:${line}`,
    source: baseName(file),
    randomSeed: hashKey32(key),
    persona: `A private seller of a ${category} listing, asking ${record.seller_price}.`,
    prefix,
    itemName: record.item_name,
    sellerDescription: record.seller_item_description,
    buyerDescription: record.buyer_item_description,
    listPrice: record.seller_price,
    targetPrice: record.buyer_price,
    firmness: cbFirmness(record.seller_item_description, key),
    concerns: cbConcerns(record.seller_item_description, record.buyer_item_description),
    referenceStrategies: actorStrategies(rest),
  });
  if (record.dialog.length === 0) log.warn(file, line, 'empty dialog: the seed has an empty prefix');
  return seed;
}

/**
 * Load CraigslistBargain negotiations from the text of a JSONL file. One seed per non-blank line, id
 * `<file stem>:<line>`, `randomSeed` = FNV-1a of `<file name>:<line>`; the buyer sees `listPrice` =
 * `seller_price` and `targetPrice` = `buyer_price`; the seller's reservation price follows from
 * {@link cbFirmness} (see `buildCbSeed`). A line with an empty `dialog` loads with an empty prefix and a
 * warning. Seller labels are dropped (users carry no strategy); buyer labels map through `CB.rawLabelMap`.
 * @throws DataFormatError (DATASET_INVALID) on a truncated JSON line, a wrong field type, a non-positive price, a buyer price not
 * below the list price or an unknown buyer label (unless `options.skipInvalid`).
 */
export function loadCb(text: string, fileName: string, options: LoadOptions = {}): LoadResult {
  const log = new LoadLog(options.skipInvalid ?? false);
  const seeds: Seed[] = [];
  for (const { line, value } of readJsonl(text, fileName, CbRecordSchema, log)) {
    const seed = log.record(fileName, line, () => toSeed(value, fileName, line, log));
    if (seed) seeds.push(seed);
  }
  return log.result(seeds);
}
