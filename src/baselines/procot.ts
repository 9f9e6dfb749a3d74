/**
 * ProCoT baseline (Deng et al., 2023; Principles paper appendix F.2): analyse the dialogue's progress toward
 * the goal, pick a strategy label from that analysis, respond.
 *
 * Template form: {@link analyseProgress} reads the whole dialogue (all user turns, the actor's past labels,
 * the public events) and names the stage the conversation is in, with the observations behind it;
 * {@link procotStrategy} maps the stage to a label (avoiding the label used last when the stage offers two),
 * which the template realizer realises (a candidate picked uniformly).
 * LLM form: one structured call answering analysis, label and message (prompts/procot.ts).
 */
import { TemplateRealizer, realizerContext } from '../agents/realizer';
import type { Policy, Realizer } from '../agents/types';
import type { Action, Observation } from '../env/env';
import type { Rng } from '../rng';
import { checkedLabel, lastUserTurn, pastStrategies, realizeStrategy, userTurns } from './common';
import {
  barrierOf,
  dominantEmotion,
  priceGap,
  recentUserText,
  sellerCounters,
  sellerStance,
  soundsRefusing,
  soundsResisting,
  soundsWilling,
  talksPlan,
  type Barrier,
} from './cues';
import { askBaseline, type LlmBaselineOptions } from './llm';
import { procotAnswer, procotMessages } from './prompts/procot';
import { ExecutionError } from '../errors';

/** Stages of each task's conversation, in the order a successful dialogue usually passes them. */
export const PROCOT_STAGES = {
  esconv: ['exploration', 'comforting', 'action', 'closing'],
  p4g: ['rapport', 'needs', 'barrier', 'ask', 'resisting', 'committed'],
  cb: ['opening', 'bargaining', 'stalled', 'closing'],
} as const;

/** The template analysis: the stage and the observations that put the dialogue there. */
export interface ProgressAnalysis {
  stage: string;
  /** Short notes on what was read (for inspection and tests). */
  notes: string[];
  /** P4G: the barrier still to address in the `barrier` stage. */
  barrier?: Barrier;
}

/** The appeal that answers each P4G barrier. */
const BARRIER_APPEAL: Readonly<Record<Barrier, string>> = {
  trust: 'Credibility appeal',
  impact: 'Logical appeal',
  cost: 'Foot in the door',
};

function esconvAnalysis(obs: Observation): ProgressAnalysis {
  const users = userTurns(obs);
  const last = lastUserTurn(obs);
  const concernKnown = realizerContext(obs).concern !== 'situation';
  const emotion = dominantEmotion(last);
  const labels = pastStrategies(obs);
  const lastAction = Math.max(labels.lastIndexOf('Providing Suggestions'), labels.lastIndexOf('Information'));
  const comforted = labels
    .slice(lastAction + 1)
    .filter((s) => s === 'Reflection of feelings' || s === 'Affirmation and Reassurance').length;
  const notes = [
    `${users.length} user turns`,
    `concern ${concernKnown ? 'known' : 'unknown'}`,
    `last: ${emotion}`,
    `${comforted} comforting turns since the last suggestion`,
  ];
  const negative = emotion === 'sadness' || emotion === 'anxiety' || emotion === 'anger';
  if (talksPlan(last) && !negative)
    return { stage: 'closing', notes: [...notes, 'the user talks about a plan'] };
  if (!concernKnown || users.length < 2) return { stage: 'exploration', notes };
  if (soundsResisting(last)) return { stage: 'comforting', notes: [...notes, 'the user pushed back'] };
  if (emotion === 'hope' || comforted >= 2) return { stage: 'action', notes };
  return { stage: emotion === 'neutral' ? 'exploration' : 'comforting', notes };
}

function p4gAnalysis(obs: Observation): ProgressAnalysis {
  const last = lastUserTurn(obs);
  const notes: string[] = [];
  if (obs.events.some((e) => e.type === 'commit'))
    return { stage: 'committed', notes: ['the user committed'] };
  if (soundsRefusing(last) || soundsResisting(last))
    return { stage: 'resisting', notes: ['the last turn refuses or pushes back'] };
  const labels = pastStrategies(obs);
  // A barrier voiced in the last two user turns and not answered since by its appeal.
  const barrier = barrierOf(recentUserText(obs, 2));
  if (barrier && labels.at(-1) !== BARRIER_APPEAL[barrier]) {
    return { stage: 'barrier', notes: [`barrier: ${barrier}`], barrier };
  }
  const appeals = labels.filter((s) => s.endsWith('appeal') || s === 'Personal story').length;
  notes.push(`${appeals} appeals so far`);
  // Never ask twice in a row: a request that did not bring a commitment is followed by an appeal.
  const askedLast = labels.at(-1) === 'Proposition of donation';
  if (!askedLast && (soundsWilling(last) || appeals >= 2)) return { stage: 'ask', notes };
  if (obs.turn < 1 && appeals === 0) return { stage: 'rapport', notes };
  return { stage: 'needs', notes };
}

function cbAnalysis(obs: Observation): ProgressAnalysis {
  const counters = sellerCounters(obs);
  const gap = priceGap(obs);
  const notes = [`${counters.length} counters`, `gap ${gap.toFixed(2)}`];
  if (counters.length === 0) return { stage: 'opening', notes };
  if (gap < 0.35) return { stage: 'closing', notes };
  const stuck = counters.length >= 2 && counters.at(-1) === counters.at(-2);
  if (stuck || sellerStance(lastUserTurn(obs)) === 'firm') return { stage: 'stalled', notes };
  return { stage: 'bargaining', notes };
}

/** The ProCoT template analysis of an observation: which stage the dialogue is in (see the module comment). */
export function analyseProgress(obs: Observation): ProgressAnalysis {
  if (obs.task === 'esconv') return esconvAnalysis(obs);
  if (obs.task === 'p4g') return p4gAnalysis(obs);
  return cbAnalysis(obs);
}

/** The first of `options` that is not the actor's last label (the first option when all were). */
function varied(obs: Observation, options: readonly string[]): string {
  const last = pastStrategies(obs).at(-1);
  return options.find((o) => o !== last) ?? (options[0] as string);
}

/** The ProCoT template rule: stage → label (see the module comment). */
export function procotStrategy(obs: Observation, analysis: ProgressAnalysis = analyseProgress(obs)): string {
  const choice = (() => {
    switch (analysis.stage) {
      case 'exploration':
        return varied(obs, ['Question', 'Restatement or Paraphrasing']);
      case 'comforting':
        return varied(obs, ['Reflection of feelings', 'Affirmation and Reassurance']);
      case 'action':
        return varied(obs, ['Providing Suggestions', 'Information']);
      case 'closing':
        return obs.task === 'cb' ? 'stance' : 'Affirmation and Reassurance';
      case 'rapport':
        return 'Personal-related inquiry';
      case 'needs':
        return varied(obs, ['Task-related inquiry', 'Emotion appeal']);
      case 'barrier':
        return BARRIER_APPEAL[analysis.barrier ?? 'impact'];
      case 'ask':
        return 'Proposition of donation';
      case 'resisting':
        return varied(obs, ['Personal story', 'Self-modeling']);
      case 'committed':
        return 'Greeting';
      case 'opening':
        return pastStrategies(obs).includes('inquire') ? 'propose price' : 'inquire';
      case 'bargaining':
        return 'propose price';
      case 'stalled':
        return varied(obs, ['inform', 'propose price']);
      default:
        throw new ExecutionError('BASELINE_FAILED', `unknown ProCoT stage "${analysis.stage}"`);
    }
  })();
  return checkedLabel(obs.task, choice);
}

/** ProCoT, template form. */
export class ProcotTemplatePolicy implements Policy {
  readonly name = 'procot';
  constructor(private readonly realizer: Realizer = new TemplateRealizer()) {}
  async act(obs: Observation, rng: Rng): Promise<Action> {
    return realizeStrategy(this.realizer, obs, procotStrategy(obs), rng);
  }
}

/** ProCoT, LLM form: one structured call, analysis then label then message. */
export class ProcotLlmPolicy implements Policy {
  readonly name = 'procot';
  constructor(private readonly options: LlmBaselineOptions) {}
  async act(obs: Observation, rng: Rng): Promise<Action> {
    const answer = await askBaseline(this.options, procotMessages(obs), procotAnswer(obs), rng, 'procot');
    return { strategy: answer.strategy, utterance: answer.response };
  }
}
