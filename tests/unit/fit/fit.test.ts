/**
 * The fitted models of Cog-Sim (docs/architecture.md "Fitting template mode to people"): the fit is
 * deterministic, the committed parameter module is what fit-sim writes (its content hash matches its
 * content), the bigram model tells sentences from word salad, and the softmax regression learns a separable
 * rule. The full fit runs in `npm run fit-sim` (about a minute), not here: a re-fit on a small sample of the
 * shared files checks the pipeline.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  fitNgram,
  fitRidge,
  fitSoftmax,
  fitTokens,
  hashedNgrams,
  NgramModel,
  predictLinear,
  predictProba,
  quantise,
  dequantise,
  fitMood,
  fitSignedRidge,
  MOOD_SIGNS,
  moodInputs,
  moodShift,
  MOOD_INPUTS,
  type MoodRow,
  CONCESSION_FEATURE_SETS,
  concessionInputs,
  priceInputs,
} from '../../../src/fit';
import { quantileSorted } from 'simple-statistics';
import { cbOfferRows } from '../../../src/validity/fit';
import { extractFeatures } from '../../../src/text/features';
import { FITTED_PARAMS } from '../../../src/sim/fitted/params';
import { fitText, moduleText } from '../../../scripts/fit-sim';
import { cbDialogues, fitSplitOf, splitOf } from '../../../src/validity/datasets';

const DATA = join(__dirname, '../../../../shared/data');

describe('fitted parameter module', () => {
  it('carries the SHA-256 of its own content, dataset provenance and no held-out dialogue counts as trained', () => {
    const { contentHash, ...rest } = FITTED_PARAMS;
    expect(createHash('sha256').update(JSON.stringify(rest)).digest('hex')).toBe(contentHash);
    expect(FITTED_PARAMS.datasets.length).toBeGreaterThanOrEqual(3);
    for (const d of FITTED_PARAMS.datasets) {
      expect(d.licence.length).toBeGreaterThan(0);
      expect(d.train + d.validation + d.heldOut).toBe(d.dialogues);
    }
  });

  it('is small (well under 1 MB)', () => {
    const size = readFileSync(join(__dirname, '../../../src/sim/fitted/params.ts')).length;
    expect(size).toBeLessThan(700_000);
  });

  it('round-trips: the module text of its JSON is the committed file', () => {
    const committed = readFileSync(join(__dirname, '../../../src/sim/fitted/params.ts'), 'utf8');
    expect(moduleText(JSON.stringify(FITTED_PARAMS))).toBe(committed);
  });
});

describe('fit pipeline', () => {
  it('is deterministic: two fits of the same small sample give the same file, for any seed recorded', async () => {
    const esconv = readFileSync(join(DATA, 'esconv/esconv-valid.jsonl'), 'utf8')
      .split('\n')
      .slice(0, 15)
      .join('\n');
    const cb = readFileSync(join(DATA, 'cb/craigslistbargain-valid.jsonl'), 'utf8')
      .split('\n')
      .slice(0, 25)
      .join('\n');
    const annotated = readFileSync(join(DATA, 'p4g/p4g-annotated.csv'), 'utf8')
      .split('\n')
      .slice(0, 700)
      .join('\n');
    const files = {
      esconv: [{ name: 'esconv-valid.jsonl', text: esconv }],
      cb: [{ name: 'craigslistbargain-valid.jsonl', text: cb }],
      p4g: { annotated: { name: 'p4g-annotated.csv', text: annotated } },
    };
    const stages: string[] = [];
    const a = await fitText(files, 1, (line) => stages.push(line));
    const b = await fitText(files, 1);
    expect(a).toBe(b);
    // A line as each stage starts, with the time so far (a long fit is never silent).
    expect(stages.map((l) => l.replace(/ \(\d+ s so far\)\n$/, ''))).toEqual([
      'reading the dialogues',
      'fitting perception, reactions, coherence and prices on each task (validation split chooses)',
      'fitting the ESConv mood model',
      'fitting the dispositions',
      'fitting the P4G donation model',
    ]);
    const parsed = JSON.parse(a) as typeof FITTED_PARAMS;
    expect(parsed.tasks.cb.price?.counterRows).toBeGreaterThan(0);
    expect(parsed.tasks.esconv.reaction.classes).toEqual(['positive', 'negative', 'neutral']);
  }, 300_000);

  it('splits by dialogue id once: the held-out fifth is the validity report’s, and validation is part of dev', () => {
    const ids = Array.from({ length: 2000 }, (_, i) => `file:${i}`);
    for (const id of ids) {
      expect(fitSplitOf(id) === 'held-out').toBe(splitOf(id) === 'held-out');
    }
    const share = (s: string) => ids.filter((id) => fitSplitOf(id) === s).length / ids.length;
    expect(share('validation')).toBeGreaterThan(0.15);
    expect(share('validation')).toBeLessThan(0.25);
    expect(share('train')).toBeGreaterThan(0.55);
  });
});

describe('CB counter-offer model', () => {
  it('is one of the small candidate feature sets, with the floor at the train sellers’ 5th percentile', () => {
    const price = FITTED_PARAMS.tasks.cb.price;
    if (!price) throw new Error('no fitted CB price parameters');
    expect(CONCESSION_FEATURE_SETS.map((f) => f.join(','))).toContain(price.counterFeatures.join(','));
    expect(price.counter.coef).toHaveLength(price.counterFeatures.length);
    // Recomputed from the shared file's train split only: the price a seller names without accepting, after an
    // offer below its previous price (counters, and prices held to while disagreeing).
    const name = 'craigslistbargain-valid.jsonl';
    const dialogues = cbDialogues({ name, text: readFileSync(join(DATA, 'cb', name), 'utf8') });
    const rows = cbOfferRows(dialogues.filter((d) => fitSplitOf(d.id) === 'train'));
    const counters = rows
      .filter((r) => r.named !== null && !r.accepted && r.previous > r.offer)
      .map((r) => r.named as number)
      .sort((a, b) => a - b);
    // Every counter-offer with a price is such a row, and the named price is the counter.
    for (const r of rows) if (r.counter !== null) expect(r.named).toBe(r.counter);
    expect(counters.length).toBeGreaterThanOrEqual(
      rows.filter((r) => r.counter !== null && r.previous > r.offer).length,
    );
    expect(counters).toHaveLength(price.counterRows);
    expect(price.floor).toBeCloseTo(quantileSorted(counters, 0.05), 5);
  });

  it('nests split-the-difference: the midpoint alone with weight 1 and no intercept is the midpoint', () => {
    expect(CONCESSION_FEATURE_SETS.map((f) => f.join(','))).toContain('midpoint');
    const x = priceInputs(60, 90, 100, 50);
    expect(predictLinear({ intercept: 0, coef: [1] }, concessionInputs(x, ['midpoint']))).toBeCloseTo(
      0.75,
      12,
    );
  });

  it('reads its features by name and refuses an unknown one', () => {
    const x = priceInputs(60, 90, 100, 50);
    expect(concessionInputs(x, ['gap', 'gapSquared', 'buyerMove', 'previous', 'offer', 'midpoint'])).toEqual([
      expect.closeTo(0.3, 12),
      expect.closeTo(0.09, 12),
      expect.closeTo(0.1, 12),
      expect.closeTo(0.9, 12),
      expect.closeTo(0.6, 12),
      expect.closeTo(0.75, 12),
    ]);
    expect(() => concessionInputs(x, ['turn'])).toThrow(
      expect.objectContaining({ code: 'FIT_INPUT_INVALID' }),
    );
  });
});

describe('bigram language model', () => {
  const turns = [
    'i am sorry to hear that you are going through this',
    'that sounds really hard and i am sorry',
    'would you like to donate to the children',
    'i am sorry that you feel this way',
    'would you like to talk about it',
    'that sounds like a lot to deal with',
  ].flatMap((t) => [fitTokens(t), fitTokens(t)]);
  const lm = new NgramModel(fitNgram(turns, { discount: 0.75, addK: 0.5 }));

  it('scores a sentence people write above the same words shuffled into a keyword list', () => {
    const sentence = lm.meanLogProb(fitTokens('I am sorry to hear that you are going through this'));
    const salad = lm.meanLogProb(fitTokens('sorry hear going this through you that am'));
    expect(sentence).toBeGreaterThan(salad + 0.5);
  });

  it('is a probability model: log-probabilities are finite and below 0', () => {
    for (const t of [[], ['zzz'], fitTokens('donate children sorry')]) {
      const v = lm.meanLogProb(t);
      expect(Number.isFinite(v)).toBe(true);
      expect(v).toBeLessThan(0);
    }
  });
});

describe('softmax and ridge regression', () => {
  it('learn a separable rule by maximum likelihood', () => {
    const data = Array.from({ length: 60 }, (_, i) => {
      const y = i % 3;
      return { sparse: hashedNgrams([`word${y}`], 64), dense: [y === 2 ? 1 : 0], y, weight: 1 };
    });
    const m = fitSoftmax(['a', 'b', 'c'], 64, 1, data, { l2: 1e-3 });
    for (const e of data) {
      const p = predictProba(m, e.sparse, e.dense);
      expect(p.indexOf(Math.max(...p))).toBe(e.y);
    }
    const q = { ...m, weights: dequantise(quantise(m.weights), m.weights.length) };
    expect(predictProba(q, data[0]!.sparse, data[0]!.dense)[0]).toBeCloseTo(
      predictProba(m, data[0]!.sparse, data[0]!.dense)[0]!,
      2,
    );
  });

  it('ridge recovers a linear law; bad input is a typed error', () => {
    const x = Array.from({ length: 30 }, (_, i) => [i / 10, (i % 7) / 7]);
    const y = x.map(([a, b]) => 0.5 + 2 * a! - b!);
    const m = fitRidge(x, y, 1e-9);
    expect(predictLinear(m, [1, 0.5])).toBeCloseTo(2, 4);
    expect(() => fitRidge([], [], 1)).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'FIT_INPUT_INVALID' }),
    );
    expect(() => fitSoftmax(['a'], 4, 0, [], { l2: 0 })).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'FIT_INPUT_INVALID' }),
    );
  });
});

describe('ESConv mood model', () => {
  it('is fitted on train, picks its penalty on validation, and is centred on the training mean', () => {
    // A law the model can hold: the reply's tone follows the actor's tone and the user's previous tone.
    const row = (i: number): MoodRow => {
      const x = MOOD_INPUTS.map((_, j) => ((i * (j + 3)) % 11) / 11 - 0.5);
      return {
        x,
        y: 0.1 + 0.4 * (x[0] as number) + 0.2 * (x[MOOD_INPUTS.indexOf('userSentiment')] as number),
      };
    };
    const train = Array.from({ length: 80 }, (_, i) => row(i));
    const valid = Array.from({ length: 20 }, (_, i) => row(i + 80));
    const fit = fitMood(train, valid, [1e-4, 10]);
    expect(fit.l2).toBe(1e-4); // the heavy penalty shrinks the law away: worse on validation
    expect(fit.inputs).toEqual([...MOOD_INPUTS]);
    expect(fit.mean).toBeCloseTo(train.reduce((s, r) => s + r.y, 0) / train.length, 12);
    for (const r of valid) expect(moodShift(fit, r.x)).toBeCloseTo(r.y - fit.mean, 3);
  });

  it('keeps the signs theory fixes: a warmth effect the data make negative is left out, the rest refitted', () => {
    const w = MOOD_INPUTS.indexOf('warmth');
    let state = 12345; // a small linear congruential stream: independent-looking inputs, same every run
    const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5;
    const rows: MoodRow[] = Array.from({ length: 200 }, () => {
      const x = MOOD_INPUTS.map(() => next());
      return { x, y: 0.3 * (x[0] as number) - 0.5 * (x[w] as number) };
    });
    const free = fitRidge(
      rows.map((r) => r.x),
      rows.map((r) => r.y),
      1e-6,
    );
    expect(free.coef[w]).toBeLessThan(-0.4);
    const signed = fitSignedRidge(rows, 1e-6);
    expect(signed.coef[w]).toBe(0);
    expect(signed.coef).toHaveLength(MOOD_INPUTS.length);
    expect(signed.coef[0]).toBeGreaterThan(0);
  });

  it('the committed ESConv mood model reads the user’s previous tone and lowers mood for dismissive turns', () => {
    const mood = FITTED_PARAMS.tasks.esconv.mood;
    expect(mood?.inputs).toEqual([...MOOD_INPUTS]);
    const coef = (name: (typeof MOOD_INPUTS)[number]) => mood?.model.coef[MOOD_INPUTS.indexOf(name)] ?? NaN;
    expect(coef('userSentiment')).toBeGreaterThan(0);
    expect(coef('dismissive')).toBeLessThan(0);
    for (const [name, sign] of Object.entries(MOOD_SIGNS))
      expect(sign * coef(name as (typeof MOOD_INPUTS)[number]), name).toBeGreaterThanOrEqual(0);
    const x = moodInputs(extractFeatures('Okay.'), null);
    expect(x).toHaveLength(MOOD_INPUTS.length);
  });
});
