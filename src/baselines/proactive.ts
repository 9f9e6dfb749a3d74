/**
 * Proactive baseline (Deng et al., 2023; Principles paper appendix F.2): pick a strategy label for the next
 * turn, then respond with it.
 *
 * Template form: the label comes from rules over the user's latest words and the actor's own recent labels
 * ({@link proactiveStrategy}; one-step, local cues — no analysis of the dialogue as a whole, which is what
 * ProCoT adds), and is realised by the template realizer (a candidate picked uniformly).
 * LLM form: one structured call answering a label of the task's set and the message (prompts/proactive.ts).
 */
import { TemplateRealizer } from '../agents/realizer';
import type { Policy, Realizer, StrategyProposer } from '../agents/types';
import type { Action, Observation } from '../env/env';
import type { Rng } from '../rng';
import { checkedLabel, lastUserTurn, pastStrategies, realizeStrategy, timesUsed } from './common';
import {
  asksAdvice,
  asksQuestion,
  barrierOf,
  dominantEmotion,
  priceGap,
  sellerCounters,
  sellerStance,
  soundsRefusing,
  soundsResisting,
  soundsWilling,
  talksPlan,
} from './cues';
import { askBaseline, type LlmBaselineOptions } from './llm';
import { proactiveAnswer, proactiveMessages } from './prompts/proactive';

/** Whether `label` was one of the actor's last `k` labels. */
function usedRecently(obs: Observation, label: string, k: number): boolean {
  return pastStrategies(obs).slice(-k).includes(label);
}

function esconv(obs: Observation): string {
  const last = lastUserTurn(obs);
  if (asksAdvice(last)) return 'Providing Suggestions';
  if (asksQuestion(last)) return 'Information';
  if (soundsResisting(last)) return 'Reflection of feelings';
  const emotion = dominantEmotion(last);
  if (emotion === 'hope' || talksPlan(last)) return 'Providing Suggestions';
  if (emotion !== 'neutral') {
    return usedRecently(obs, 'Reflection of feelings', 2)
      ? 'Affirmation and Reassurance'
      : 'Reflection of feelings';
  }
  if (last.split(/\s+/).length < 8) return 'Question';
  return 'Restatement or Paraphrasing';
}

function p4g(obs: Observation): string {
  const last = lastUserTurn(obs);
  if (obs.history.length === 0 || (obs.turn === 0 && timesUsed(obs, 'Greeting') === 0)) return 'Greeting';
  const barrier = barrierOf(last);
  if (barrier === 'trust') return 'Credibility appeal';
  if (barrier === 'impact') return 'Logical appeal';
  if (barrier === 'cost') return 'Foot in the door';
  if (soundsRefusing(last) || soundsResisting(last)) return 'Personal story';
  if (asksQuestion(last)) return 'Donation information';
  // A request is never repeated right away.
  if (soundsWilling(last) && pastStrategies(obs).at(-1) !== 'Proposition of donation')
    return 'Proposition of donation';
  if (obs.turn < 2) return 'Personal-related inquiry';
  return 'Emotion appeal';
}

function cb(obs: Observation): string {
  const last = lastUserTurn(obs);
  const counters = sellerCounters(obs);
  if (counters.length === 0) return timesUsed(obs, 'inquire') === 0 ? 'inquire' : 'propose price';
  if (priceGap(obs) < 0.35) return 'stance';
  if (asksQuestion(last)) return 'inform';
  return sellerStance(last) === 'firm' ? 'inform' : 'propose price';
}

const RULES = { esconv, p4g, cb } as const;

/** The Proactive template rule: the next strategy label from the observation's text (see the module comment). */
export function proactiveStrategy(obs: Observation): string {
  return checkedLabel(obs.task, RULES[obs.task](obs));
}

/** Proactive, template form. */
export class ProactiveTemplatePolicy implements Policy {
  readonly name = 'proactive';
  constructor(private readonly realizer: Realizer = new TemplateRealizer()) {}
  async act(obs: Observation, rng: Rng): Promise<Action> {
    return realizeStrategy(this.realizer, obs, proactiveStrategy(obs), rng);
  }
}

/** Proactive, LLM form: one structured call, label then message. */
export class ProactiveLlmPolicy implements Policy {
  readonly name = 'proactive';
  constructor(private readonly options: LlmBaselineOptions) {}
  async act(obs: Observation, rng: Rng): Promise<Action> {
    const answer = await askBaseline(
      this.options,
      proactiveMessages(obs),
      proactiveAnswer(obs),
      rng,
      'proactive',
    );
    return { strategy: answer.strategy, utterance: answer.response };
  }
}

/**
 * The actor's strategy-proposer role (docs/architecture.md "Roles and what each may see") in template mode:
 * the Proactive rules ({@link proactiveStrategy}) over the observation text. Deterministic; the random stream
 * is not used.
 */
export class TemplateStrategyProposer implements StrategyProposer {
  async propose(obs: Observation): Promise<string> {
    return proactiveStrategy(obs);
  }
}
