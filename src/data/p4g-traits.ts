/**
 * Persuadee initial state from the PersuasionForGood pre-task survey (Wang et al., 2019, §3: Big-Five,
 * moral foundations, Schwartz values, decision style). Survey answers are given before the dialogue, so they
 * are known at the cut; the donation made after the task is an outcome and never enters this state.
 */
import { dispositionOf, type DispositionParams } from '../fit/disposition';
import { FITTED_PARAMS } from '../sim/fitted/params';
import { P4G_BARRIERS, type P4gBarrier } from '../tasks/builders';
import { DEFAULT_TENDENCIES } from '../tasks/seed';

/**
 * The survey items of the participants file, with their answer scales [min, max]: Big-Five and decision style
 * 1–5, moral foundations and Schwartz values 1–6.
 */
export const P4G_TRAIT_SCALES = {
  extrovert: [1, 5],
  agreeable: [1, 5],
  conscientious: [1, 5],
  neurotic: [1, 5],
  open: [1, 5],
  care: [1, 6],
  fairness: [1, 6],
  loyalty: [1, 6],
  authority: [1, 6],
  purity: [1, 6],
  freedom: [1, 6],
  conform: [1, 6],
  tradition: [1, 6],
  benevolence: [1, 6],
  universalism: [1, 6],
  self_direction: [1, 6],
  stimulation: [1, 6],
  hedonism: [1, 6],
  achievement: [1, 6],
  power: [1, 6],
  security: [1, 6],
  rational: [1, 5],
  intuitive: [1, 5],
} as const satisfies Record<string, readonly [number, number]>;

export type P4gTraitName = keyof typeof P4G_TRAIT_SCALES;
export const P4G_TRAIT_NAMES = Object.keys(P4G_TRAIT_SCALES) as P4gTraitName[];
/** One persuadee's answers on the items of {@link P4G_TRAIT_SCALES}, in their survey units. */
export type P4gTraits = Record<P4gTraitName, number>;

/** What the P4G seed builder needs about the persuadee, derived from the survey. */
export interface PersuadeeState {
  /** Prior inclination to give, in [-1, 1]. */
  disposition: number;
  barriers: P4gBarrier[];
  /** Central-route weight in [0.35, 0.85]. */
  eta_R: number;
  concerns: string[];
  persona: string;
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const round2 = (x: number) => Math.round(x * 100) / 100;

/** A trait rescaled to [0, 1] by its answer scale. */
function unit(traits: P4gTraits, name: P4gTraitName): number {
  const [lo, hi] = P4G_TRAIT_SCALES[name];
  return Math.min(1, Math.max(0, (traits[name] - lo) / (hi - lo)));
}

/** What the persuadee says about a barrier when asked (first person), and how the persona describes it. */
const BARRIER_WORDS: Record<P4gBarrier, { concern: string; persona: string }> = {
  trust: { concern: 'where donated money really goes', persona: 'doubts that charities use money well' },
  impact: { concern: 'whether a small gift changes anything', persona: 'doubts that a small gift matters' },
  cost: { concern: 'my own tight budget', persona: 'watches their spending' },
};

/**
 * The persuadee's starting state from survey traits:
 * - disposition = 2·P(donated | survey) − 1 under the fitted logistic regression `model` (src/fit/disposition.ts,
 *   fitted by `npm run fit-sim` on the training split of the P4G participants: by default the committed one),
 *   rounded to 0.01; 0 (an even chance) with no disposition model (null, or none in the fitted parameters);
 * - barriers (hand-set; the data has no label of a persuadee's reasons): `trust` when agreeableness (which
 *   includes trust in others) is below 0.6; `impact` when universalism (concern for distant strangers) is below
 *   0.6; `cost` when mean(power, security) exceeds benevolence (each item rescaled to [0, 1] by its scale);
 * - eta_R = clamp(0.6 + 0.25 · (rational − intuitive), 0.35, 0.85) (hand-set): a more deliberative decision
 *   style weighs arguments (central route) more.
 * Without traits (`undefined`): disposition 0, no barriers, default eta_R.
 */
export function persuadeeFromTraits(
  traits: P4gTraits | undefined,
  model: DispositionParams | null = FITTED_PARAMS.tasks.p4g.disposition ?? null,
): PersuadeeState {
  if (!traits)
    return {
      disposition: 0,
      barriers: [],
      eta_R: DEFAULT_TENDENCIES.eta_R,
      concerns: [],
      persona: 'An online study participant without recorded survey answers.',
    };
  const u = (name: P4gTraitName) => unit(traits, name);
  const prosocial = mean([u('agreeable'), u('care'), u('benevolence'), u('universalism')]);
  const disposition = model ? round2(dispositionOf(model, traits)) : 0;
  const barriers = P4G_BARRIERS.filter((b) =>
    b === 'trust'
      ? u('agreeable') < 0.6
      : b === 'impact'
        ? u('universalism') < 0.6
        : mean([u('power'), u('security')]) > u('benevolence'),
  );
  const eta_R = round2(Math.min(0.85, Math.max(0.35, 0.6 + 0.25 * (u('rational') - u('intuitive')))));
  const leaning =
    disposition > 0.3 ? 'inclined to give' : disposition < -0.1 ? 'reluctant to give' : 'undecided';
  const style = u('rational') >= u('intuitive') ? 'weighs arguments carefully' : 'goes by gut feeling';
  const doubts = barriers.map((b) => `; ${BARRIER_WORDS[b].persona}`).join('');
  return {
    disposition,
    barriers,
    eta_R,
    concerns: [
      ...barriers.map((b) => BARRIER_WORDS[b].concern),
      ...(prosocial >= 0.7 ? ['helping people in need'] : []),
    ],
    persona: `An online study participant who ${style} and is ${leaning}${doubts}.`,
  };
}
