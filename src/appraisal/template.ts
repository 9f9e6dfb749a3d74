/**
 * Template (text-rule) implementations of the ARG actor and the reverse-perspective predictor: deterministic,
 * reading the actor-visible observation only, with the same outputs as the LLM roles (every trace passes the
 * same validation).
 *
 * They read text the way the actor does, never through the simulator's perception: the user's turns through the
 * judge's clause-wise AFINN-165 sentiment and plan score (`src/env/judge.ts`), the actor's candidate replies
 * through the actor-side reader (`src/reader`, compromise patterns of its own). Nothing here reaches `src/text`,
 * `src/sim` or the task topic lexicons (a test holds that), so a lookahead ranks replies by the actor's own model
 * of the user, not by a copy of the simulator's cue lists.
 *
 * ARG actor rules:
 * - facts F: the user's latest turn (quoted), the user's most mentioned topic word, the public events;
 * - needs N: per task, about that topic word;
 * - appraisal A: from the lexicon sentiment s of the user's last turn, GC = FE = clamp(0.3·s, −1, 1),
 *   CP = clamp(0.3·s + 0.25·[the user has voiced a plan], −1, 1);
 * - emotion E: the category of the appraisal ({@link emotionCategory}, arousal 0.5),
 *   ES = clamp(round(3 + 2·mean A), 1, 5);
 * - strategy S: per task by the polarity of E (negative / neutral / positive), unless fixed by the caller;
 * - reply: the template realizer's warm, specific realization of S.
 *
 * Predictor rule (ŝ⁽ᵏ⁺¹⁾ = T(x, y, ŝ⁽ᵏ⁾); EmoLLM paper §3.2.2): each appraisal dimension of the previous state
 * (step 1: the actor's appraisal rule) moves by Δₖ (CP also by 0.1·option·uₖ), clamped to [−1, 1]; emotion and
 * ES follow from the new appraisal as above, arousal 0.3 + 0.4·demand. From the reader's cues of the reply
 * (`Reading`, each in [0, 1]) and its specificity about the user's last turn (`specificity`, in [0, 1]),
 *   Δₖ = 0.5^(k−1) · (0.25·care·cₖ + (0.2·facts + 0.2·option + 0.15·specificity)·uₖ − 0.35·demand − 0.5·slight).
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
import type { AffectCategory } from '../tasks/seed';
import { getTask } from '../tasks/registry';
import type { Polarity } from '../tasks/types';
import { read, specificity } from '../reader';
import type { ArgActor, ReversePredictor } from './roles';
import {
  appraisalMean,
  type ArgOutput,
  type EmotionalState,
  type PredictedAppraisal,
  type PredictedUserState,
} from './types';
import { ConfigError } from '../errors';

const clamp1 = (v: number) => Math.min(1, Math.max(-1, Math.round(v * 100) / 100));

/**
 * The emotion category of an appraisal at `arousal` ∈ [0, 1] (the appraisal module's own reading): a mean m ≤ −0.2
 * is negative — sadness below arousal 0.4, anger at 0.7 and above, anxiety when the outlook is the lowest
 * dimension (FE ≤ GC and FE ≤ CP), frustration otherwise; m ≥ 0.2 is positive — interest at arousal 0.7 and
 * above, hope when the outlook leads (FE ≥ GC), relief otherwise (satisfaction from m ≥ 0.6); neutral between.
 * Consistent, with the ES of {@link emotionOf}, with the trace check `emotionProblems` (types.ts).
 */
export function emotionCategory(a: PredictedAppraisal, arousal: number): AffectCategory {
  const m = appraisalMean(a);
  const fe = a.future_expectancy;
  if (m <= -0.2) {
    if (arousal < 0.4) return 'sadness';
    if (arousal >= 0.7) return 'anger';
    return fe <= a.goal_congruence && fe <= a.coping_potential ? 'anxiety' : 'frustration';
  }
  if (m >= 0.2) {
    if (arousal >= 0.7) return 'interest';
    if (fe >= a.goal_congruence && m < 0.6) return 'hope';
    return m >= 0.6 ? 'satisfaction' : 'relief';
  }
  return 'neutral';
}

/** Category and ES of an appraisal (arousal default 0.5); ES = clamp(round(3 + 2 · mean), 1, 5). */
function emotionOf(a: PredictedAppraisal, arousal = 0.5): EmotionalState {
  const mean = appraisalMean(a);
  return { emotion: emotionCategory(a, arousal), score: Math.min(5, Math.max(1, Math.round(3 + 2 * mean))) };
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
    const emotional_state = emotionOf(a);
    const label = strategy ?? getTask(obs.task).prompts.argStrategy[polarity(emotional_state)];
    const tone = polarity(emotional_state) === 'negative' ? 'Gentle and validating' : 'Warm and concrete';
    const candidates = await this.realizer.realize(obs, label, 2, rng);
    return {
      trace: {
        contextual_facts: facts.slice(0, 6),
        inferred_needs_and_goals: getTask(obs.task).prompts.argNeeds(ctx.concern),
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
  /** @throws ConfigError (ARG_OPTION_INVALID) for a step < 1, or a step > 1 without the previous prediction. */
  async predict(
    obs: Observation,
    reply: string,
    step: number,
    previous?: PredictedUserState,
  ): Promise<PredictedUserState> {
    if (!Number.isInteger(step) || step < 1)
      throw new ConfigError('ARG_OPTION_INVALID', `lookahead step must be ≥ 1, got ${step}`);
    if (step > 1 && previous === undefined)
      throw new ConfigError(
        'ARG_OPTION_INVALID',
        `lookahead step ${step} needs the prediction of step ${step - 1}`,
      );
    const f = read(reply);
    const specific = specificity(reply, userTurns(obs).at(-1) ?? '');
    const base = previous?.appraisal ?? currentAppraisal(obs);
    const readiness = (1 + appraisalMean(base)) / 2;
    const comfort = step === 1 ? 1 : 1 - readiness;
    const uptake = step === 1 ? 1 : readiness;
    const damp = 0.5 ** (step - 1);
    const delta =
      damp *
      (0.25 * f.care * comfort +
        (0.2 * f.facts + 0.2 * f.option + 0.15 * specific) * uptake -
        0.35 * f.demand -
        0.5 * f.slight);
    const appraisal = {
      goal_congruence: clamp1(base.goal_congruence + delta),
      coping_potential: clamp1(base.coping_potential + delta + damp * 0.1 * f.option * uptake),
      future_expectancy: clamp1(base.future_expectancy + delta),
    };
    const topic = realizerContext(obs).concern;
    const needs =
      f.demand >= 0.5 || f.slight > 0
        ? ['Not be pushed or brushed off']
        : f.care === 0
          ? [`Feel understood about the ${topic}`]
          : [`Keep making progress on the ${topic}`];
    return { needs, appraisal, emotional_state: emotionOf(appraisal, 0.3 + 0.4 * f.demand) };
  }
}
