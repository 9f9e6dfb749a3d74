/**
 * Seed builders: turn a compact, human-writable description of a simulated user into a complete, valid
 * {@link Seed} with its initial BDI records, affect and appraisal. Dataset loaders and the authored default
 * seeds both go through these, so every seed of a task has the same record ids and topics.
 *
 * A seed's starting goal congruence GC is not written here: it is `goalCongruence` (src/sim/affect.ts) of the
 * starting beliefs and desires, the rule the simulator applies after every turn, so the first turn's recomputation
 * moves nothing by itself. The builders set only CP and FE, which the simulator carries from turn to turn.
 */
import { appraise } from './appraisal';
import { ESCONV_EMOTION_TO_AFFECT } from './esconv/spec';
import {
  DEFAULT_TENDENCIES,
  SEED_SCHEMA_VERSION,
  SeedSchema,
  type Affect,
  type AffectCategory,
  type BdiRecord,
  type Seed,
  type Turn,
} from './seed';

/** Fields common to every seed description. Tendencies default to 0.6 / 0.35 / 0.70. */
export interface SeedSpecBase {
  id: string;
  /** `authored` for bundled seeds, or the dataset file name. */
  source: string;
  /** Seed of the episode's random stream, an integer in [0, 2^32). */
  randomSeed: number;
  persona: string;
  prefix: Turn[];
  tendencies?: Partial<{ eta_R: number; tau_A: number; tau_R: number }>;
  /** The dataset's human actor labels after the prefix (merged labels), for dataset replay. */
  referenceStrategies?: string[];
  outcome?: Record<string, number | string | boolean | null>;
}

type Dir = BdiRecord['direction'];

/**
 * One BDI record: strength clamped to [0, 4] and rounded to 2 decimals; active when core or strength ≥ 0.5
 * (docs/architecture.md "State").
 */
export function rec(
  type: BdiRecord['type'],
  id: string,
  topic: string,
  content: string,
  strength: number,
  core: boolean,
  direction: Dir,
  supports: string[] = [],
  conflictsWith: string[] = [],
): BdiRecord {
  const s = Math.round(Math.min(4, Math.max(0, strength)) * 100) / 100;
  return {
    id,
    type,
    topic,
    content,
    strength: s,
    core,
    active: core || s >= 0.5,
    direction,
    supports,
    conflictsWith,
  };
}

/**
 * The help-seeker's two supportive beliefs of the ESConv family (ESConv and EmoLLM seeds): b-heard ("the person I
 * am talking to is really listening", strength 1, against b-alone) and b-cope ("I can do something about the
 * `problem`", strength `copeStrength` in [0, 4] after clamping, against b-hopeless).
 */
export function rapportAndCopingBeliefs(problem: string, copeStrength: number): BdiRecord[] {
  return [
    rec(
      'belief',
      'b-heard',
      'rapport',
      'The person I am talking to is really listening.',
      1,
      false,
      'for',
      [],
      ['b-alone'],
    ),
    rec(
      'belief',
      'b-cope',
      'coping',
      `I can do something about the ${problem}.`,
      copeStrength,
      false,
      'for',
      [],
      ['b-hopeless'],
    ),
  ];
}

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

function finish(
  spec: SeedSpecBase,
  rest: Omit<Seed, 'schemaVersion' | 'id' | 'source' | 'randomSeed' | 'prefix' | 'profile' | 'reference'>,
): Seed {
  const t = { ...DEFAULT_TENDENCIES, ...spec.tendencies };
  const seed: Seed = {
    schemaVersion: SEED_SCHEMA_VERSION,
    id: spec.id,
    source: spec.source,
    randomSeed: spec.randomSeed,
    prefix: spec.prefix,
    profile: { persona: spec.persona, eta_R: t.eta_R, tau_A: t.tau_A, tau_R: t.tau_R },
    ...rest,
    ...(spec.referenceStrategies || spec.outcome
      ? {
          reference: {
            strategies: spec.referenceStrategies ?? [],
            ...(spec.outcome ? { outcome: spec.outcome } : {}),
          },
        }
      : {}),
  };
  return SeedSchema.parse(seed);
}

/** ESConv help-seeker description. `severity` in [0, 1] sets how entrenched the negative beliefs are. */
export interface EsconvSeedSpec extends SeedSpecBase {
  situation: string;
  emotionType: string;
  problemType: string;
  /** Words for the user's concern, revealed when asked (e.g. "exams", "my manager"). */
  concerns: string[];
  severity: number;
}

export const AFFECT_START: Record<AffectCategory, { valence: number; arousal: number }> = {
  neutral: { valence: 0, arousal: 0.3 },
  sadness: { valence: -0.55, arousal: 0.25 },
  anxiety: { valence: -0.45, arousal: 0.5 },
  frustration: { valence: -0.45, arousal: 0.65 },
  anger: { valence: -0.55, arousal: 0.8 },
  interest: { valence: 0.3, arousal: 0.65 },
  hope: { valence: 0.3, arousal: 0.5 },
  relief: { valence: 0.3, arousal: 0.25 },
  satisfaction: { valence: 0.6, arousal: 0.25 },
};

function startAffect(category: AffectCategory, intensity: number): Affect {
  const a = AFFECT_START[category];
  return { category, valence: Math.max(-1, a.valence * (0.8 + 0.4 * intensity)), arousal: a.arousal };
}

/**
 * Build an ESConv seed. Emotion types map to affect categories (anxiety/nervousness/fear → anxiety,
 * depression/sadness → sadness, anger → anger, disgust/shame → frustration; others → neutral).
 * @throws ZodError when the result violates the seed schema (e.g. severity making strengths out of range).
 */
export function buildEsconvSeed(spec: EsconvSeedSpec): Seed {
  const sev = clamp01(spec.severity);
  const problem = spec.problemType || 'problem';
  const category = ESCONV_EMOTION_TO_AFFECT[spec.emotionType.trim().toLowerCase()] ?? 'neutral';
  const beliefs = [
    rec(
      'belief',
      'b-hopeless',
      'hope',
      'Things are not going to get better.',
      2 + 1.5 * sev,
      true,
      'against',
      [],
      ['b-cope'],
    ),
    rec(
      'belief',
      'b-alone',
      'alone',
      'Nobody understands what I am going through.',
      1.6 + 1.6 * sev,
      false,
      'against',
      [],
      ['b-heard'],
    ),
    rec('belief', 'b-blame', 'blame', `The ${problem} is my own fault.`, 1 + 1.5 * sev, false, 'against'),
    ...rapportAndCopingBeliefs(problem, 1.4 - 0.8 * sev),
  ];
  const desires = [
    rec(
      'desire',
      'd-relief',
      'hope',
      `Feel less weighed down by ${category === 'neutral' ? 'this' : category}.`,
      3.5,
      true,
      'for',
      ['b-cope'],
    ),
    rec('desire', 'd-heard', 'rapport', 'Be listened to without being judged.', 3, false, 'for', ['b-heard']),
    rec('desire', 'd-solve', 'action', `Sort out the ${problem}.`, 2.5, false, 'for', ['b-cope']),
  ];
  const intentions = [
    rec('intention', 'i-step', 'action', `Take one concrete step about the ${problem}.`, 0.8, false, 'for', [
      'b-cope',
      'd-solve',
    ]),
    rec(
      'intention',
      'i-withdraw',
      'withdraw',
      'Stop talking and keep it to myself.',
      1 + sev,
      false,
      'against',
      ['b-alone', 'b-hopeless'],
    ),
  ];
  return finish(spec, {
    task: 'esconv',
    actorView: { role: 'supporter', goal: 'Help the person feel better and find a feasible next step.' },
    userPrivate: {
      role: 'help-seeker',
      situation: spec.situation,
      emotionType: spec.emotionType,
      problemType: spec.problemType,
      concerns: spec.concerns,
    },
    cognitive: {
      beliefs,
      desires,
      intentions,
      affect: startAffect(category, sev),
      appraisal: appraise({ beliefs, desires }, { CP: -0.1 - 0.5 * sev, FE: -0.2 - 0.5 * sev }),
    },
  });
}

/** The donation barriers a P4G persuadee may hold. */
export const P4G_BARRIERS = ['trust', 'impact', 'cost'] as const;
export type P4gBarrier = (typeof P4G_BARRIERS)[number];

/** P4G persuadee description. `disposition` in [-1, 1]: prior inclination to give (−1 averse, 1 eager). */
export interface P4gSeedSpec extends SeedSpecBase {
  barriers: P4gBarrier[];
  disposition: number;
  /** Words the user reveals when asked about themselves (e.g. "student", "two kids"). */
  concerns: string[];
}

/** Build a P4G seed; the persuadee starts neutral. @throws ZodError on an invalid result. */
export function buildP4gSeed(spec: P4gSeedSpec): Seed {
  const disp = Math.min(1, Math.max(-1, spec.disposition));
  const has = (b: P4gBarrier) => spec.barriers.includes(b);
  const beliefs = [
    rec(
      'belief',
      'b-trust',
      'trust',
      'Charities often waste the money they get.',
      has('trust') ? 3 : 1,
      false,
      'against',
    ),
    rec(
      'belief',
      'b-impact',
      'impact',
      'A small donation cannot change much.',
      has('impact') ? 3 : 1.1,
      false,
      'against',
      [],
      ['b-need'],
    ),
    rec('belief', 'b-cost', 'cost', 'I cannot spare money right now.', has('cost') ? 3 : 1, false, 'against'),
    rec(
      'belief',
      'b-need',
      'need',
      'Children in poor countries urgently need help.',
      1.8 + 0.6 * disp,
      false,
      'for',
      [],
      ['b-impact'],
    ),
    rec('belief', 'b-rapport', 'rapport', 'The person asking is sincere.', 1, false, 'for'),
  ];
  const desires = [
    rec('desire', 'd-help', 'need', 'Help others who are in need.', 2.4 + 0.8 * disp, true, 'for', [
      'b-need',
    ]),
    rec('desire', 'd-money', 'cost', 'Keep my task payment for myself.', 2.4 - 0.8 * disp, true, 'against', [
      'b-cost',
    ]),
    rec('desire', 'd-autonomy', 'pressure', 'Decide for myself without being pushed.', 2.5, false, 'neutral'),
  ];
  const intentions = [
    rec(
      'intention',
      'i-donate',
      'donate',
      'Donate part of my task payment to Save the Children.',
      0.6 + 0.5 * disp,
      false,
      'for',
      ['b-need', 'd-help'],
    ),
    rec(
      'intention',
      'i-decline',
      'decline',
      'Politely decline to donate.',
      1.6 - 0.5 * disp,
      false,
      'against',
      ['d-money', 'b-cost'],
    ),
  ];
  return finish(spec, {
    task: 'p4g',
    actorView: {
      role: 'persuader',
      goal: 'Persuade the other participant to donate part of their task payment to Save the Children.',
      organisation: 'Save the Children',
    },
    userPrivate: { role: 'persuadee', concerns: spec.concerns, barriers: spec.barriers },
    cognitive: {
      beliefs,
      desires,
      intentions,
      affect: startAffect('neutral', 0),
      appraisal: appraise({ beliefs, desires }, { CP: 0, FE: 0 }),
    },
  });
}

/** CraigslistBargain seller description. `firmness` in [0, 1]: how hard the seller holds the list price. */
export interface CbSeedSpec extends SeedSpecBase {
  itemName: string;
  sellerDescription: string;
  buyerDescription: string;
  /** Seller's list price (public), > targetPrice. */
  listPrice: number;
  /** Buyer's target price (actor-private). */
  targetPrice: number;
  /** Seller's floor (simulator-private); defaults to a firmness-dependent share of the list price. */
  reservationPrice?: number;
  firmness: number;
  /** Facts about the item the seller reveals when asked (e.g. "two years old", "small scratch"). */
  concerns: string[];
}

/** Build a CraigslistBargain seed; the seller starts neutral. @throws ZodError on an invalid result. */
export function buildCbSeed(spec: CbSeedSpec): Seed {
  const firm = clamp01(spec.firmness);
  const reservation = spec.reservationPrice ?? Math.round(spec.listPrice * (0.62 + 0.25 * firm));
  const beliefs = [
    rec(
      'belief',
      'b-worth',
      'value',
      'The item is worth the full list price.',
      2.4 + 1.2 * firm,
      true,
      'against',
      [],
      ['b-flaw', 'b-market'],
    ),
    rec(
      'belief',
      'b-flaw',
      'condition',
      'The item has wear that lowers its value.',
      0.8,
      false,
      'for',
      [],
      ['b-worth'],
    ),
    rec(
      'belief',
      'b-market',
      'market',
      'Similar items sell for less elsewhere.',
      0.8,
      false,
      'for',
      [],
      ['b-worth'],
    ),
    rec('belief', 'b-serious', 'commitment', 'This buyer is serious and will pay promptly.', 1, false, 'for'),
    rec('belief', 'b-rapport', 'rapport', 'This buyer is friendly and fair.', 1, false, 'for'),
  ];
  const desires = [
    rec(
      'desire',
      'd-price',
      'value',
      'Get as much money as possible for the item.',
      2.6 + firm,
      true,
      'against',
      ['b-worth'],
    ),
    rec('desire', 'd-quick', 'commitment', 'Sell the item soon.', 2.8 - firm, true, 'for', ['b-serious']),
  ];
  const intentions = [
    rec('intention', 'i-hold', 'hold', 'Hold firm near the list price.', 1.8 + 1.2 * firm, false, 'against', [
      'b-worth',
      'd-price',
    ]),
    rec('intention', 'i-concede', 'concede', 'Lower the price to close the deal.', 1, false, 'for', [
      'd-quick',
      'b-serious',
    ]),
  ];
  return finish(spec, {
    task: 'cb',
    actorView: {
      role: 'buyer',
      goal: 'Buy the item at a price as close to your target as possible.',
      itemName: spec.itemName,
      itemDescription: spec.buyerDescription,
      listPrice: spec.listPrice,
      targetPrice: spec.targetPrice,
    },
    userPrivate: {
      role: 'seller',
      concerns: spec.concerns,
      itemDescription: spec.sellerDescription,
      listPrice: spec.listPrice,
      reservationPrice: reservation,
    },
    cognitive: {
      beliefs,
      desires,
      intentions,
      affect: startAffect('neutral', 0),
      appraisal: appraise({ beliefs, desires }, { CP: 0, FE: 0 }),
    },
  });
}
