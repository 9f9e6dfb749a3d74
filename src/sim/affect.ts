/**
 * Appraisal and emotion of Cog-Sim (DESIGN.md "Cog-Sim" steps 7–8).
 *
 * GC is the strength- and relevance-weighted goal congruence over the two most relevant active desires; CP and FE
 * come from the proposer, clamped to [-1, 1]. Affect moves toward target valence (GC + CP + FE) / 3 and target
 * arousal 0.6·min(Σ|Δ strength| / 4, 1) + 0.25·|ΔGC| + 0.5·pressure, smoothed with rate 0.4 (Influence, Elicit)
 * or 0.25 (Social). A question to a user in distress re-evokes the distress for the moment ({@link reactivation}).
 */
import type { Affect, AffectCategory, Appraisal, BdiRecord, CognitiveState } from '../tasks/seed';
import type { Mode } from './types';

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Relevance weight of a non-core desire relative to a core one. */
const NON_CORE_RELEVANCE = 0.7;

/**
 * Goal congruence of one desire in [-1, 1]: beliefs that support it count for it, beliefs that conflict with
 * its supports count against it, each weighted by strength / 4.
 */
function desireCongruence(d: BdiRecord, beliefs: readonly BdiRecord[]): number {
  // Relation lists hold a few ids: `includes` beats building a Set per call.
  const supports = d.supports;
  let sum = 0;
  let n = 0;
  for (const b of beliefs) {
    if (!b.active) continue;
    if (supports.includes(b.id)) {
      sum += b.strength / 4;
      n++;
    } else if (conflictsWithAny(b, supports)) {
      sum -= b.strength / 4;
      n++;
    }
  }
  return n === 0 ? 0 : clamp((2 * sum) / n, -1, 1);
}

function conflictsWithAny(b: BdiRecord, ids: readonly string[]): boolean {
  for (const c of b.conflictsWith) if (ids.includes(c)) return true;
  return false;
}

/** GC over the two most relevant active desires (relevance = strength × 1 for core, × 0.7 otherwise). */
export function goalCongruence(cog: Pick<CognitiveState, 'beliefs' | 'desires'>): number {
  const desires = cog.desires
    .filter((d) => d.active)
    .map((d) => ({ d, w: d.strength * (d.core ? 1 : NON_CORE_RELEVANCE) }))
    .sort((a, b) => b.w - a.w || a.d.id.localeCompare(b.d.id))
    .slice(0, 2);
  const total = desires.reduce((s, x) => s + x.w, 0);
  if (total === 0) return 0;
  return clamp(desires.reduce((s, x) => s + x.w * desireCongruence(x.d, cog.beliefs), 0) / total, -1, 1);
}

/** Appraisal after an update: recomputed GC, proposed CP and FE clamped to [-1, 1]. */
export function appraise(
  cog: Pick<CognitiveState, 'beliefs' | 'desires'>,
  proposed: { CP: number; FE: number },
): Appraisal {
  return { GC: goalCongruence(cog), CP: clamp(proposed.CP, -1, 1), FE: clamp(proposed.FE, -1, 1) };
}

/**
 * The starting cognitive state of a seed as the simulator reads it (issue 9): GC is not a free parameter of a
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
): Affect {
  const targetValence = (appraisal.GC + appraisal.CP + appraisal.FE) / 3;
  const targetArousal = clamp(
    0.6 * Math.min(totalChange / 4, 1) + 0.25 * Math.abs(deltaGC) + 0.5 * pressure,
    0,
    1,
  );
  const rate = mode === 'Social' ? 0.25 : 0.4;
  const valence = clamp(affect.valence + rate * (targetValence - affect.valence) - dip, -1, 1);
  const arousal = clamp(affect.arousal + rate * (targetArousal - affect.arousal), 0, 1);
  const derived = categoryOf(valence, arousal);
  const category = proposed !== undefined && POLARITY[proposed] === POLARITY[derived] ? proposed : derived;
  return { valence: round6(valence), arousal: round6(arousal), category };
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;
