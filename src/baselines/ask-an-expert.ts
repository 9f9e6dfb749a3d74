/**
 * Ask-an-Expert baseline (AnE; Zhang et al., 2024; Principles paper appendix F.2): identify the user's
 * emotional state, infer the reason behind it, then decide the strategy.
 *
 * Template form ({@link consultExpert}): the state is the dominant emotion family of the user's last two turns
 * (ESConv), the persuadee's attitude (P4G: skeptical, doubtful, strained, warm, resistant, reserved) or the
 * seller's stance (CB: firm, flexible, neutral); the reason is what the text says it is about (the user's topic
 * word, the voiced barrier, the price gap); the strategy is looked up from the (state, reason) pair, and is a
 * task label, realised by the template realizer (a candidate picked uniformly).
 * LLM form: an expert call answering emotion, reason and a free-form strategy, then a response call following
 * that advice (prompts/ask-an-expert.ts); the action's strategy is the expert's free text (marked `freeForm`).
 */
import { TemplateRealizer, realizerContext } from '../agents/realizer';
import type { Policy, Realizer } from '../agents/types';
import type { Action, Observation } from '../env/env';
import type { Rng } from '../rng';
import { checkedLabel, lastUserTurn, pastStrategies, realizeStrategy, timesUsed } from './common';
import {
  asksQuestion,
  barrierOf,
  dominantEmotion,
  priceGap,
  recentUserText,
  sellerCounters,
  sellerStance,
  soundsRefusing,
  soundsResisting,
  soundsWilling,
} from './cues';
import { askBaseline, type LlmBaselineOptions } from './llm';
import { ExpertAnswer, expertGuidance, expertMessages } from './prompts/ask-an-expert';
import { ResponseAnswer, responseMessages } from './prompts/response';

/** The template expert's three answers. */
export interface ExpertConsultation {
  /** The user's state as read from the text. */
  state: string;
  /** What the state is about, as read from the text (`unknown` when the text does not say). */
  reason: string;
  /** The advised strategy: a label of the task. */
  strategy: string;
}

function esconv(obs: Observation): ExpertConsultation {
  const state = dominantEmotion(recentUserText(obs, 2));
  const concern = realizerContext(obs).concern;
  const reason = concern === 'situation' ? 'unknown' : concern;
  const reflected = timesUsed(obs, 'Reflection of feelings') > 0;
  let strategy: string;
  if (reason === 'unknown') strategy = 'Question';
  else if (state === 'sadness') strategy = reflected ? 'Self-disclosure' : 'Reflection of feelings';
  else if (state === 'anxiety')
    strategy =
      pastStrategies(obs).at(-1) === 'Affirmation and Reassurance'
        ? 'Information'
        : 'Affirmation and Reassurance';
  else if (state === 'anger') strategy = reflected ? 'Restatement or Paraphrasing' : 'Reflection of feelings';
  else if (state === 'hope') strategy = 'Providing Suggestions';
  else
    strategy =
      pastStrategies(obs).at(-1) === 'Restatement or Paraphrasing'
        ? 'Providing Suggestions'
        : 'Restatement or Paraphrasing';
  return { state, reason, strategy };
}

function p4g(obs: Observation): ExpertConsultation {
  const recent = recentUserText(obs, 2);
  const last = lastUserTurn(obs);
  const barrier = barrierOf(recent);
  if (soundsRefusing(last) || soundsResisting(last)) {
    return {
      state: 'resistant',
      reason: barrier ?? 'unknown',
      strategy: timesUsed(obs, 'Emotion appeal') ? 'Personal story' : 'Emotion appeal',
    };
  }
  if (barrier === 'trust') return { state: 'skeptical', reason: 'trust', strategy: 'Credibility appeal' };
  if (barrier === 'impact') return { state: 'doubtful', reason: 'impact', strategy: 'Logical appeal' };
  if (barrier === 'cost') return { state: 'strained', reason: 'cost', strategy: 'Foot in the door' };
  if (soundsWilling(last))
    return { state: 'warm', reason: 'open to giving', strategy: 'Proposition of donation' };
  const strategy =
    timesUsed(obs, 'Source-related inquiry') === 0 ? 'Source-related inquiry' : 'Emotion appeal';
  return { state: 'reserved', reason: 'unknown', strategy };
}

function cb(obs: Observation): ExpertConsultation {
  const last = lastUserTurn(obs);
  const state = sellerStance(last);
  const counters = sellerCounters(obs);
  const reason = counters.length === 0 ? 'no price on the table' : `gap ${priceGap(obs).toFixed(2)}`;
  let strategy: string;
  if (counters.length > 0 && priceGap(obs) < 0.35) strategy = 'stance';
  else if (state === 'firm') strategy = 'inform';
  else if (state === 'flexible') strategy = 'propose price';
  else if (asksQuestion(last)) strategy = 'inform';
  else strategy = timesUsed(obs, 'inquire') === 0 ? 'inquire' : 'propose price';
  return { state, reason, strategy };
}

const RULES = { esconv, p4g, cb } as const;

/** The template expert: state → reason → strategy label (see the module comment). */
export function consultExpert(obs: Observation): ExpertConsultation {
  const answer = RULES[obs.task](obs);
  return { ...answer, strategy: checkedLabel(obs.task, answer.strategy) };
}

/** Ask-an-Expert, template form. */
export class AskAnExpertTemplatePolicy implements Policy {
  readonly name = 'ask-an-expert';
  constructor(private readonly realizer: Realizer = new TemplateRealizer()) {}
  async act(obs: Observation, rng: Rng): Promise<Action> {
    return realizeStrategy(this.realizer, obs, consultExpert(obs).strategy, rng);
  }
}

/** Ask-an-Expert, LLM form: the expert call, then a response call following its advice. */
export class AskAnExpertLlmPolicy implements Policy {
  readonly name = 'ask-an-expert';
  constructor(private readonly options: LlmBaselineOptions) {}
  async act(obs: Observation, rng: Rng): Promise<Action> {
    const expert = await askBaseline(this.options, expertMessages(obs), ExpertAnswer, rng, 'expert');
    const reply = await askBaseline(
      this.options,
      responseMessages(obs, expertGuidance(expert)),
      ResponseAnswer,
      rng,
      'response',
    );
    // The expert's advice in its own words: a free-form strategy, not a task label.
    return { strategy: expert.strategy, utterance: reply.response, freeForm: true };
  }
}
