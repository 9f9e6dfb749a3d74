/**
 * Appraisal and emotion of Cog-Sim (docs/architecture.md "Step 7: appraisal" and "Step 8: emotion").
 *
 * GC is the strength- and relevance-weighted goal congruence over the two most relevant active desires; CP and FE
 * come from the proposer, clamped to [-1, 1]. Affect moves toward target valence (GC + CP + FE) / 3 and target
 * arousal 0.6·min(Σ|Δ strength| / 4, 1) + 0.25·|ΔGC| + 0.5·pressure, smoothed with rate 0.4 (Influence, Elicit)
 * or 0.25 (Social). A question to a user in distress re-evokes the distress for the moment ({@link reactivation}).
 */
import { goalCongruence } from '../tasks/appraisal';
import type { Affect, AffectCategory, Appraisal, CognitiveState } from '../tasks/seed';
import type { Mode } from './types';

export { appraise, goalCongruence } from '../tasks/appraisal';

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * The starting cognitive state of a seed as the simulator reads it: GC is not a free parameter of a
 * seed but {@link goalCongruence} of its starting beliefs and desires — the rule every turn applies — so the first
 * turn's recomputation cannot move the mood (or, through ΔGC, the arousal) by itself. CP and FE are the seed's own:
 * the simulator carries them from turn to turn and only a proposal changes them, so they are the researcher's to
 * set. Affect is kept as written (seeds derive it from the emotion, not from the appraisal). Returns `cog` itself
 * when its GC already is the derived one (every seed the builders make), otherwise a copy with the derived GC
 * (a hand-written seed file, or one written before the builders derived GC).
 */
export function withStartingGoalCongruence<C extends CognitiveState>(cog: C): C {
  const GC = goalCongruence(cog);
  return cog.appraisal.GC === GC ? cog : { ...cog, appraisal: { ...cog.appraisal, GC } };
}

/**
 * Reactivation: asked about their situation, a person in distress brings the distressing matter back to mind and
 * feels it again for the moment (Rimé, 2009, "Emotion elicits the social sharing of emotion": sharing re-evokes the
 * emotion; Pennebaker: disclosure costs in the short term, helps later). The mood dips by this share of how bad the
 * person feels (−valence; 0 for a user who feels fine), on the turn of the question only: the dip is not an
 * appraisal, so the next turns' smoothing brings the mood back toward what the person believes and expects.
 */
export const REACTIVATION = 0.2;

/** The momentary valence dip in [0, 0.2] of a question (`question` in [0, 1]) to a user at `valence` in [-1, 1]. */
export function reactivation(question: number, valence: number): number {
  return REACTIVATION * Math.min(1, Math.max(0, question)) * Math.max(0, -valence);
}

const POLARITY: Readonly<Record<AffectCategory, -1 | 0 | 1>> = {
  neutral: 0,
  sadness: -1,
  anxiety: -1,
  frustration: -1,
  anger: -1,
  interest: 1,
  hope: 1,
  relief: 1,
  satisfaction: 1,
};

/** The affect category implied by valence in [-1, 1] and arousal in [0, 1]. */
export function categoryOf(valence: number, arousal: number): AffectCategory {
  if (valence <= -0.15) {
    if (arousal < 0.35) return 'sadness';
    if (arousal < 0.6) return 'anxiety';
    if (arousal < 0.75) return 'frustration';
    return 'anger';
  }
  if (valence >= 0.15) {
    if (arousal >= 0.6) return 'interest';
    if (arousal >= 0.4) return 'hope';
    return valence >= 0.5 ? 'satisfaction' : 'relief';
  }
  return 'neutral';
}

/**
 * Smooth affect toward the appraisal targets.
 * @param totalChange Σ|Δ strength| of this turn; @param deltaGC change of GC this turn;
 * @param pressure the message's pressure level value (0.2 / 0.5 / 0.8);
 * @param proposed a category proposed by the change proposer: kept when its polarity matches the derived one,
 * otherwise replaced by the derived category;
 * @param dip a momentary fall of valence after smoothing, in [0, 1] (see {@link reactivation}; default 0).
 * @param nudge the fitted affect change of the turn (see `fittedAffectChange` in simulator.ts), added after
 * smoothing, in [-1, 1] (default 0).
 */
export function updateAffect(
  affect: Affect,
  appraisal: Appraisal,
  mode: Mode,
  totalChange: number,
  deltaGC: number,
  pressure: number,
  proposed?: AffectCategory,
  dip = 0,
  nudge = 0,
): Affect {
  const targetValence = (appraisal.GC + appraisal.CP + appraisal.FE) / 3;
  const targetArousal = clamp(
    0.6 * Math.min(totalChange / 4, 1) + 0.25 * Math.abs(deltaGC) + 0.5 * pressure,
    0,
    1,
  );
  const rate = mode === 'Social' ? 0.25 : 0.4;
  const valence = clamp(affect.valence + rate * (targetValence - affect.valence) - dip + nudge, -1, 1);
  const arousal = clamp(affect.arousal + rate * (targetArousal - affect.arousal), 0, 1);
  const derived = categoryOf(valence, arousal);
  const category = proposed !== undefined && POLARITY[proposed] === POLARITY[derived] ? proposed : derived;
  return { valence: round6(valence), arousal: round6(arousal), category };
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;
