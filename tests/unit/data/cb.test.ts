import { describe, expect, it } from 'vitest';
import { cbConcerns, cbFirmness, loadCb } from '../../../src/data';
import { CB_STRATEGIES, SeedSchema } from '../../../src/tasks';
import { readData, readFixture, thrown } from './paths';
import { DataFormatError } from '../../../src/errors';

const NAME = 'craigslistbargain-valid.jsonl';

describe('loadCb on the real file', () => {
  const text = readData(`cb/${NAME}`);
  const result = loadCb(text, NAME);
  const records = text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { buyer_price: number; seller_price: number; dialog: unknown[] });

  it('loads all 188 negotiations; the 7 empty dialogues load with a warning each', () => {
    expect(result.seeds).toHaveLength(188);
    expect(result.skipped).toEqual([]);
    expect(result.warnings).toHaveLength(7);
    const emptyLines = records.flatMap((r, i) => (r.dialog.length === 0 ? [i + 1] : []));
    expect(result.warnings.map((w) => w.line)).toEqual(emptyLines);
    for (const line of emptyLines) {
      const seed = result.seeds.find((s) => s.id === `craigslistbargain-valid:${line}`);
      expect(seed?.prefix).toEqual([]);
      expect(() => SeedSchema.parse(seed)).not.toThrow();
    }
  });

  it('the buyer sees list and target prices; the seller keeps a reservation between them or above', () => {
    result.seeds.forEach((seed, i) => {
      expect(seed.task).toBe('cb');
      expect(seed.actorView.listPrice).toBe(records[i]?.seller_price);
      expect(seed.actorView.targetPrice).toBe(records[i]?.buyer_price);
      expect(seed.userPrivate.listPrice).toBe(records[i]?.seller_price);
      expect(seed.userPrivate.reservationPrice).toBeLessThan(seed.userPrivate.listPrice ?? 0);
      expect('reservationPrice' in seed.actorView).toBe(false);
    });
  });

  it('prefixes end at the second seller turn; only buyer turns carry merged labels', () => {
    for (const seed of result.seeds) {
      if (seed.prefix.length === 0) continue;
      const users = seed.prefix.filter((t) => t.speaker === 'user').length;
      if (users === 2) expect(seed.prefix.at(-1)?.speaker).toBe('user');
      else {
        expect(users).toBeLessThan(2);
        expect(seed.reference?.strategies).toEqual([]);
      }
      for (const t of seed.prefix)
        if (t.speaker === 'actor') expect(CB_STRATEGIES).toContain(t.strategy);
        else expect(t.strategy).toBeUndefined();
      for (const s of seed.reference?.strategies ?? []) expect(CB_STRATEGIES).toContain(s);
    }
  });

  it('firmness (hence the reservation price) varies across listings and is deterministic', () => {
    const reservations = result.seeds.map(
      (s) => (s.userPrivate.reservationPrice ?? 0) / (s.userPrivate.listPrice ?? 1),
    );
    expect(Math.max(...reservations) - Math.min(...reservations)).toBeGreaterThan(0.08);
    expect(loadCb(text, NAME).seeds).toEqual(result.seeds);
  });

  it('a price turned into a string on line 9 throws at line 9', () => {
    const lines = text.split('\n');
    lines[8] = (lines[8] ?? '').replace(/"seller_price": (\d+)/, '"seller_price": "$1"');
    const e = thrown(() => loadCb(lines.join('\n'), NAME));
    expect((e as DataFormatError).message).toMatch(
      /^craigslistbargain-valid\.jsonl:9: seller_price: expected a number/,
    );
  });
});

describe('loadCb on fixtures', () => {
  it('merges consecutive buyer entries, normalises labels, drops seller labels', () => {
    const result = loadCb(readFixture('cb-quirks.jsonl'), 'cb-quirks.jsonl');
    const [seed, empty] = result.seeds;
    expect(seed?.prefix).toEqual([
      { speaker: 'user', text: 'Hi, the bike is available.' },
      { speaker: 'actor', text: 'Hello! Any rust?', strategy: 'social' },
      { speaker: 'user', text: 'None at all.' },
    ]);
    expect(seed?.reference?.strategies).toEqual(['propose price', 'propose price']);
    expect(empty?.prefix).toEqual([]);
    expect(empty?.actorView.listPrice).toBe(60.5);
    expect(result.warnings).toEqual([
      { file: 'cb-quirks.jsonl', line: 2, message: 'empty dialog: the seed has an empty prefix' },
    ]);
  });

  it('non-positive, string-typed and inverted prices throw at their lines; skipInvalid keeps line 1', () => {
    const text = readFixture('cb-bad-price.jsonl');
    const e = thrown(() => loadCb(text, 'cb-bad-price.jsonl'));
    expect(e).toMatchObject({ name: 'DataFormatError', code: 'DATASET_INVALID' });
    expect((e as DataFormatError).message).toBe(
      'cb-bad-price.jsonl:2: seller_price: must be a positive number',
    );
    const result = loadCb(text, 'cb-bad-price.jsonl', { skipInvalid: true });
    expect(result.seeds.map((s) => s.id)).toEqual(['cb-bad-price:1']);
    expect(result.skipped).toEqual([
      { file: 'cb-bad-price.jsonl', line: 2, reason: 'seller_price: must be a positive number' },
      { file: 'cb-bad-price.jsonl', line: 3, reason: 'buyer_price: expected a number' },
      { file: 'cb-bad-price.jsonl', line: 4, reason: 'buyer_price (200) must be below seller_price (150)' },
    ]);
  });
});

describe('CB initial-state rules', () => {
  it('firmness rises with a firm-price listing and falls when offers are invited', () => {
    const firm = cbFirmness('Desk, price is firm.', 'k');
    const plain = cbFirmness('Desk.', 'k');
    const flexible = cbFirmness('Desk, OBO, must go this week.', 'k');
    expect(firm - plain).toBeCloseTo(0.3, 5);
    expect(plain - flexible).toBeCloseTo(0.25, 5);
    for (const f of [firm, plain, flexible]) expect(f).toBeGreaterThanOrEqual(0.05);
    expect(cbFirmness('Desk.', 'k')).toBe(plain);
  });

  it('firmness cues are whole words outside negation ("firmly", "not firm" announce no firm price)', () => {
    const plain = cbFirmness('Desk.', 'k');
    expect(cbFirmness('Desk, firmly built.', 'k')).toBe(plain);
    expect(cbFirmness('Desk, the price is not firm.', 'k')).toBe(plain);
    expect(cbFirmness('Desk, a removal company is coming.', 'k')).toBe(plain); // no "moving" inside "removal"
  });

  it('concerns are what only the seller describes', () => {
    expect(cbConcerns('Oak desk, loose handle, moving abroad.', 'Oak desk.')).toEqual([
      'loose',
      'handle',
      'moving',
      'abroad',
    ]);
  });
});
