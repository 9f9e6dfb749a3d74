/**
 * Template (text-rule) implementations of the ARG actor and the reverse-perspective predictor: deterministic,
 * reading the actor-visible observation only, with the same outputs as the LLM roles (every trace passes the
 * same validation).
 *
 * ARG actor rules:
 * - facts F: the user's latest turn (quoted), the user's most mentioned topic word, the public events;
 * - needs N: per task, about that topic word;
 * - appraisal A: from the lexicon sentiment s of the user's last turn, GC = FE = clamp(0.3·s, −1, 1),
 *   CP = clamp(0.3·s + 0.25·[the user has voiced a plan], −1, 1);
 * - emotion E: the Cog-Sim category of (valence = mean A, arousal 0.5), ES = clamp(round(3 + 2·mean A), 1, 5);
 * - strategy S: per task by the polarity of E (negative / neutral / positive), unless fixed by the caller;
 * - reply: the template realizer's warm, specific realization of S.
 *
 * Predictor rule (ŝ⁽ᵏ⁺¹⁾ = T(x, y, ŝ⁽ᵏ⁾), emollm.txt §3.2.2): each appraisal dimension of the previous state
 * (step 1: the actor's appraisal rule) moves by Δₖ (CP also by 0.1·suggestion·uₖ), clamped to [−1, 1]; emotion
 * and ES follow from the new mean as above, arousal 0.3 + 0.4·pressure. From the reply's surface features,
 *   Δₖ = 0.5^(k−1) · (0.25·warmth·cₖ + (0.2·evidence + 0.2·suggestion + 0.15·specificity)·uₖ − 0.35·pressure
 *        − 0.5·dismissive).
 * Step 1 is the immediate reaction on reading the reply (c₁ = u₁ = 1). Steps k ≥ 2 are the reply's effect once
 * the conversation has moved on, which depends on where ŝ⁽ᵏ⁻¹⁾ left the user (appraisal mean m, readiness
 * r = (1 + m) / 2 ∈ [0, 1]), after the helping-skills order of emotional support (comfort first, then
 * information and action): comfort keeps helping as far as the user is still low (cₖ = 1 − r); information and a
 * suggested step are taken up as far as the user is ready for them (uₖ = r); the sting of pressure or dismissal
 * carries on unchanged. The halving is the fading of one reply's influence. (Without this dependence on
 * ŝ⁽ᵏ⁻¹⁾ every step would repeat step 1 scaled down, and no depth n could rank two candidates differently from
 * n = 1.)
 */
import { TemplateRealizer, realizerContext } from '../agents/realizer';
import type { Observation } from '../env/env';
import { planScore, sentiment } from '../env/judge';
import type { Rng } from '../rng';
import { categoryOf } from '../sim/affect';
import type { TaskId } from '../tasks/seed';
import { extractFeatures } from '../text/features';
import type { ArgActor, ReversePredictor } from './roles';
import {
  appraisalMean,
  type ArgOutput,
  type EmotionalState,
  type PredictedAppraisal,
  type PredictedUserState,
} from './types';
import { ArgOptionError } from './errors';

const clamp1 = (v: number) => Math.min(1, Math.max(-1, Math.round(v * 100) / 100));

type Polarity = 'negative' | 'neutral' | 'positive';

/** The strategy the template ARG actor picks for each polarity of the user's emotional state. */
export const ARG_TEMPLATE_STRATEGY: Readonly<Record<TaskId, Readonly<Record<Polarity, string>>>> = {
  esconv: {
    negative: 'Reflection of feelings',
    neutral: 'Providing Suggestions',
    positive: 'Affirmation and Reassurance',
  },
  p4g: { negative: 'Credibility appeal', neutral: 'Logical appeal', positive: 'Proposition of donation' },
  cb: { negative: 'inform', neutral: 'propose price', positive: 'propose price' },
};

const NEEDS: Readonly<Record<TaskId, (topic: string) => string[]>> = {
  esconv: (t) => [`Feel heard about the ${t}`, `Find one small step about the ${t}`],
  p4g: (t) => [`Be sure a donation is used well (${t})`, 'Decide freely without pressure'],
  cb: (t) => [`Get a fair price for the item (${t})`, 'Sell it without hassle'],
};

/** ES and category of an appraisal mean (arousal default 0.5). */
function emotionOf(mean: number, arousal = 0.5): EmotionalState {
  return { emotion: categoryOf(mean, arousal), score: Math.min(5, Math.max(1, Math.round(3 + 2 * mean))) };
}

function polarity(state: EmotionalState): Polarity {
  return state.score <= 2 ? 'negative' : state.score >= 4 ? 'positive' : 'neutral';
}

function userTurns(obs: Observation): string[] {
  return obs.history.filter((t) => t.speaker === 'user').map((t) => t.text);
}

/** The template appraisal of the user's current state, from their last turn and whether they voiced a plan. */
export function currentAppraisal(obs: Observation): PredictedAppraisal {
  const turns = userTurns(obs);
  const s = sentiment(turns.at(-1) ?? '');
  const plan = planScore(turns) > 0 ? 0.25 : 0;
  return {
    goal_congruence: clamp1(0.3 * s),
    coping_potential: clamp1(0.3 * s + plan),
    future_expectancy: clamp1(0.3 * s),
  };
}

/** The ARG actor by text rules (see the module comment). Deterministic; `rng` is not used. */
export class TemplateArgActor implements ArgActor {
  private readonly realizer = new TemplateRealizer();

  async reason(obs: Observation, rng: Rng, strategy?: string): Promise<ArgOutput> {
    const ctx = realizerContext(obs);
    const last = userTurns(obs).at(-1);
    const facts = [
      last ? `The user last said: "${last}"` : 'The user has not spoken yet',
      `The topic the user mentions most is the ${ctx.concern}`,
      ...obs.events
        .slice(-2)
        .map((e) => `Event: ${e.by} ${e.type}${e.price !== undefined ? ` $${e.price}` : ''}`),
    ];
    const a = currentAppraisal(obs);
    const emotional_state = emotionOf(appraisalMean(a));
    const label = strategy ?? ARG_TEMPLATE_STRATEGY[obs.task][polarity(emotional_state)];
    const tone = polarity(emotional_state) === 'negative' ? 'Gentle and validating' : 'Warm and concrete';
    const candidates = await this.realizer.realize(obs, label, 2, rng);
    return {
      trace: {
        contextual_facts: facts.slice(0, 6),
        inferred_needs_and_goals: NEEDS[obs.task](ctx.concern),
        appraisal: {
          ...a,
          summary: `The user's words read ${polarity(emotional_state)} about the ${ctx.concern}.`,
        },
        emotional_state,
        response_strategy: { label, plan: `${tone}; focus on the ${ctx.concern}.` },
      },
      response: candidates.at(-1) as string,
    };
  }
}

/** The reverse-perspective predictor by text rules (see the module comment). Deterministic. */
export class TemplateReversePredictor implements ReversePredictor {
  /** @throws ArgOptionError for a step < 1, or a step > 1 without the previous prediction. */
  async predict(
    obs: Observation,
    reply: string,
    step: number,
    previous?: PredictedUserState,
  ): Promise<PredictedUserState> {
    if (!Number.isInteger(step) || step < 1)
      throw new ArgOptionError(`lookahead step must be ≥ 1, got ${step}`);
    if (step > 1 && previous === undefined)
      throw new ArgOptionError(`lookahead step ${step} needs the prediction of step ${step - 1}`);
    const f = extractFeatures(reply, userTurns(obs).at(-1) ?? '');
    const base = previous?.appraisal ?? currentAppraisal(obs);
    const readiness = (1 + appraisalMean(base)) / 2;
    const comfort = step === 1 ? 1 : 1 - readiness;
    const uptake = step === 1 ? 1 : readiness;
    const damp = 0.5 ** (step - 1);
    const delta =
      damp *
      (0.25 * f.warmth * comfort +
        (0.2 * f.evidence + 0.2 * f.suggestion + 0.15 * f.specificity) * uptake -
        0.35 * f.pressure -
        0.5 * f.dismissive);
    const appraisal = {
      goal_congruence: clamp1(base.goal_congruence + delta),
      coping_potential: clamp1(base.coping_potential + delta + damp * 0.1 * f.suggestion * uptake),
      future_expectancy: clamp1(base.future_expectancy + delta),
    };
    const topic = realizerContext(obs).concern;
    const needs =
      f.pressure >= 0.5 || f.dismissive > 0
        ? ['Not be pushed or brushed off']
        : f.warmth === 0
          ? [`Feel understood about the ${topic}`]
          : [`Keep making progress on the ${topic}`];
    return { needs, appraisal, emotional_state: emotionOf(appraisalMean(appraisal), 0.3 + 0.4 * f.pressure) };
  }
}
