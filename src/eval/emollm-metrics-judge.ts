/**
 * LLM-judge forms of EmoLLM's metrics (EmoLLM paper appendix F, judge prompts 1 and 2), with the same outputs
 * as the template scorers of `emollm-metrics.ts`:
 * - turn quality (prompt 2), once per actor turn: whether the user's reply resolves the scenario (sr_proxy), the
 *   user's state in that reply (1–5), empathic appropriateness (1–5), and whether the turn is fact-sensitive and,
 *   if so, factually correct against the scenario's facts;
 * - emotional state (prompt 1), once per episode: the user's initial and final state (1–5).
 * The judge reads the scenario (its text and public facts) and the visible transcript only — never the
 * simulator's state. Answers are validated by the zod schemas below and retried by `askRole`.
 */
import { z } from 'zod';
import { askRole, type RoleCallOptions, type RoleDefaults } from '../llm/call';
import type { ChatMessage } from '../llm/types';
import {
  aggregateTurns,
  EMOLLM_METRIC_DEFINITIONS,
  type EmollmEpisodeInput,
  type EmollmEpisodeScores,
  type EmollmScorer,
  type EmollmTurnScores,
} from './emollm-metrics';

const likert = z.number().min(1).max(5);

/** Judge prompt 2: the quality of one actor turn. */
export const TurnQualityVerdictSchema = z
  .object({
    resolved: z
      .boolean()
      .describe(
        'the dialogue has reached a satisfactory emotional resolution of the scenario (EmoLLM’s sr_proxy): the ' +
          'user’s reply shows a positive state (relief, comfort, reassurance) that holds from the reply before ' +
          'or ends the conversation — not a polite thanks over lingering distress, not one positive remark ' +
          'between distressed ones',
      ),
    user_state: likert.describe("the user's emotional state in their reply, 1 distressed … 5 relieved"),
    empathic_appropriateness: likert.describe('empathy, tone and fit of the assistant turn, 1 … 5'),
    fact_sensitive: z
      .boolean()
      .describe('the assistant turn speaks about a scenario fact or makes a domain claim'),
    factually_correct: z
      .boolean()
      .nullable()
      .describe('when fact-sensitive: it asserts nothing the facts or domain knowledge rule out; else null'),
  })
  .refine((v) => v.fact_sensitive === (v.factually_correct !== null), {
    message: 'give factually_correct (true or false) exactly when fact_sensitive is true, else null',
  });
export type TurnQualityVerdict = z.infer<typeof TurnQualityVerdictSchema>;

/** Judge prompt 1: the user's emotional state at the start and at the end. */
export const EmotionalStateVerdictSchema = z.object({
  initial_state: likert.describe("the user's state in their opening utterance, 1 … 5"),
  final_state: likert.describe("the user's state in their last reply, 1 … 5"),
});
export type EmotionalStateVerdict = z.infer<typeof EmotionalStateVerdictSchema>;

/** The metric judges' sampling defaults. */
export const EMOLLM_JUDGE_DEFAULTS: RoleDefaults = { temperature: 0.3, maxTokens: 160 };

function scenarioText(input: EmollmEpisodeInput): string {
  return [
    `Scenario (${input.scenario.setting}): ${input.scenario.description}`,
    'Facts of the situation (ground truth):',
    ...input.scenario.facts.map((f) => `- ${f.text}`),
  ].join('\n');
}

function dialogue(turns: EmollmEpisodeInput['transcript']): string {
  return turns.map((t) => `${t.speaker === 'actor' ? 'Assistant' : 'User'}: ${t.text}`).join('\n');
}

const SYSTEM =
  'You are an impartial evaluator of a conversation between an assistant and a user. Judge only from the ' +
  'scenario, its facts and the dialogue shown. Answer with one JSON object and nothing else.';

/** Messages of judge prompt 2 for the actor turn at `index` of the transcript (with the user's reply). */
export function turnQualityMessages(input: EmollmEpisodeInput, index: number): ChatMessage[] {
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content: [
        scenarioText(input),
        '',
        'Dialogue so far:',
        dialogue(input.transcript.slice(0, index)),
        '',
        'Turn to judge:',
        dialogue(input.transcript.slice(index, index + 2)),
        '',
        `Judge the assistant turn and the user's reply. ${EMOLLM_METRIC_DEFINITIONS.EA} ${EMOLLM_METRIC_DEFINITIONS.FA}`,
        'Fields: resolved, user_state, empathic_appropriateness, fact_sensitive, factually_correct.',
      ].join('\n'),
    },
  ];
}

/** Messages of judge prompt 1 for a whole episode. */
export function emotionalStateMessages(input: EmollmEpisodeInput): ChatMessage[] {
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content: [
        scenarioText(input),
        '',
        'Dialogue:',
        dialogue(input.transcript),
        '',
        `${EMOLLM_METRIC_DEFINITIONS.ES} Rate the user's state at the start (opening utterance) and at the end (last reply).`,
        'Fields: initial_state, final_state.',
      ].join('\n'),
    },
  ];
}

/** The EmoLLM metrics scored by an LLM judge (one call per actor turn and one per episode). */
export class LlmEmollmScorer implements EmollmScorer {
  readonly name = 'llm-judge';
  constructor(private readonly options: RoleCallOptions) {}

  /** @throws RoleOutputError (role `judge`) when every attempt of a call gives an invalid answer. */
  async episode(input: EmollmEpisodeInput): Promise<EmollmEpisodeScores> {
    const perTurn: EmollmTurnScores[] = [];
    for (let i = input.prefixTurns; i < input.transcript.length; i++) {
      if (input.transcript[i]?.speaker !== 'actor') continue;
      const v = await askRole(this.options, {
        role: 'judge',
        answerName: 'emollm_turn_quality',
        messages: turnQualityMessages(input, i),
        schema: TurnQualityVerdictSchema,
        defaults: EMOLLM_JUDGE_DEFAULTS,
      });
      perTurn.push({
        state: v.user_state,
        resolved: v.resolved,
        empathic: v.empathic_appropriateness,
        factSensitive: v.fact_sensitive,
        factCorrect: v.factually_correct,
      });
    }
    const state = await askRole(this.options, {
      role: 'judge',
      answerName: 'emollm_emotional_state',
      messages: emotionalStateMessages(input),
      schema: EmotionalStateVerdictSchema,
      defaults: EMOLLM_JUDGE_DEFAULTS,
    });
    return aggregateTurns(state.initial_state, perTurn, state.final_state);
  }
}
