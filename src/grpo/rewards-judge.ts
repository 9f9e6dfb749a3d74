/**
 * LLM-judge forms of EmoLLM's Stage II rewards (EmoLLM paper §3.2.2, appendices A and B.1: "at each turn, a
 * judge model evaluates four aspects", gpt-5-mini in the paper), selected by `rewards: 'llm'` in the GRPO
 * configuration. Same outputs and ranges as the template scorers of rewards.ts, so the aggregation
 * (rewards-trajectory.ts) and the weights are shared:
 *
 * - one call per turn ({@link turnRewardMessages}, {@link turnRewardVerdictSchema}): cognitive reliability, ARG
 *   trace quality (only when a trace was written), reverse-perspective plausibility (only when a lookahead
 *   path exists: the predicted user-side transition ŝ⁽¹⁾…ŝ⁽ⁿ⁾ read against the strategy and what the user then
 *   visibly said) on 1–5, mapped to [0, 1] by (s − 1) / 4, and whether the user's last turn was simple;
 *   R_over = 0.5 · [trace ∧ simple] + 0.5 · wasted depth — the depth part stays the numeric measure of
 *   rewards.ts (how little each further lookahead step moved the predicted value), which needs no judgement;
 * - one call per trajectory ({@link emotionalTrajectoryMessages}): the user's emotional state at the start and
 *   at the end, 1–5; R_emo = (final − initial) / 4 ∈ [−1, 1].
 *
 * The judge reads the actor-visible observations (the dialogue and the actor's task view), the turn's reply,
 * trace and lookahead path and the user's later visible turns — never the simulator's state. Answers are
 * validated by the zod schemas and retried a bounded number of times by `askRole` (`maxAttempts`, default 3);
 * when every attempt fails it throws `RoleOutputError` (role `judge`, code `LLM_ROLE_OUTPUT_INVALID`) carrying
 * every raw answer. Calls are made one after another in turn order, so a replayed run is deterministic.
 */
import { z } from 'zod';
import { formatArgTrace } from '../appraisal/trace';
import type { PredictedUserState } from '../appraisal/types';
import type { Observation } from '../env/env';
import { askRole, type RoleCallOptions, type RoleDefaults } from '../llm/call';
import type { ChatMessage } from '../llm/types';
import type { GrpoConfig } from './config';
import { wastedDepth } from './rewards';
import {
  combineRewards,
  type StageTwoScorer,
  type TrajectoryRewards,
  type TurnRecord,
  type TurnRewardParts,
} from './rewards-trajectory';
import { InputError } from '../errors';

const likert = z.number().min(1).max(5);

/** What a turn showed the judge: whether it carried an ARG trace and a lookahead path. */
export interface TurnShown {
  trace: boolean;
  path: boolean;
}

/**
 * The schema of the per-turn verdict. A score for the trace (and for the prediction) is required exactly when
 * one was shown; otherwise it must be null.
 */
export function turnRewardVerdictSchema(shown: TurnShown) {
  return z
    .object({
      cognitive_reliability: likert.describe(
        'R_cog: the reply is factually and logically consistent with the dialogue and the assistant’s task ' +
          '(5), or hallucinates, contradicts the context or makes unsupported claims (1)',
      ),
      arg_trace_quality: likert
        .nullable()
        .describe(
          'R_ARG when a trace is shown: grounded facts, justified needs, a plausible appraisal, emotion ' +
            'consistent with the appraisal, a strategy relevant to the user (5 all hold … 1 none); null when ' +
            'no trace is shown',
        ),
      reverse_perspective_plausibility: likert
        .nullable()
        .describe(
          'R_RP when a prediction is shown: the predicted user-side needs, appraisal and emotion are ' +
            'consistent with the context, psychologically plausible, in line with the strategy and with what ' +
            'the user then said (5) … (1); null when no prediction is shown',
        ),
      simple_turn: z
        .boolean()
        .describe(
          "the user's last turn is a simple, straightforward query that needs no structured reasoning",
        ),
    })
    .superRefine((v, ctx) => {
      const check = (field: 'arg_trace_quality' | 'reverse_perspective_plausibility', shownIt: boolean) => {
        if ((v[field] !== null) !== shownIt)
          ctx.addIssue({
            code: 'custom',
            path: [field],
            message: shownIt ? 'give a score from 1 to 5: it is shown' : 'give null: nothing of it is shown',
          });
      };
      check('arg_trace_quality', shown.trace);
      check('reverse_perspective_plausibility', shown.path);
    });
}
export type TurnRewardVerdict = z.infer<ReturnType<typeof turnRewardVerdictSchema>>;

/** The schema of the per-trajectory verdict (R_emo). */
export const EmotionalTrajectoryVerdictSchema = z.object({
  initial_state: likert.describe("the user's emotional state before the assistant's first turn, 1 … 5"),
  final_state: likert.describe("the user's emotional state in their last turn, 1 … 5"),
});
export type EmotionalTrajectoryVerdict = z.infer<typeof EmotionalTrajectoryVerdictSchema>;

/** The reward judge's sampling defaults (near-deterministic scoring, short answers). */
export const REWARD_JUDGE_DEFAULTS: RoleDefaults = { temperature: 0.2, maxTokens: 120 };

const SYSTEM =
  'You score one turn of an assistant in a conversation with a user, for training the assistant. Judge only ' +
  'from what is shown. Answer with one JSON object and nothing else.';

function taskLine(obs: Observation): string {
  const v = obs.actorView;
  return `The assistant is a ${v.role}. Its goal: ${v.goal}`;
}

function dialogue(obs: Observation): string {
  return obs.history.map((t) => `${t.speaker === 'actor' ? 'Assistant' : 'User'}: ${t.text}`).join('\n');
}

const f2 = (x: number) => x.toFixed(2);

/** One predicted user state in words. */
export function formatPredictedState(s: PredictedUserState, k: number): string {
  const a = s.appraisal;
  return (
    `step ${k}: needs ${s.needs.join('; ')} | appraisal: goal congruence ${f2(a.goal_congruence)}, coping ` +
    `potential ${f2(a.coping_potential)}, future expectancy ${f2(a.future_expectancy)} | emotion ` +
    `${s.emotional_state.emotion}, score ${s.emotional_state.score}/5`
  );
}

const lastUser = (obs: Observation): string | undefined =>
  obs.history.filter((t) => t.speaker === 'user').at(-1)?.text;

/**
 * Messages of the per-turn call for turn `index` of `turns`; the user's later turns shown are those after this
 * turn, as many as the lookahead path is long (at least the next one).
 * @throws InputError (GRPO_INPUT_INVALID) for an index outside the trajectory.
 */
export function turnRewardMessages(turns: readonly TurnRecord[], index: number): ChatMessage[] {
  const t = turns[index];
  if (!t)
    throw new InputError(
      'GRPO_INPUT_INVALID',
      `turn ${index} is outside a trajectory of ${turns.length} turns`,
    );
  const ahead = Math.max(1, t.path?.length ?? 0);
  const later = turns
    .slice(index, index + ahead)
    .map((u, k) => `${k + 1}: ${lastUser(u.next) ?? '(no reply: the conversation ended)'}`);
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content: [
        taskLine(t.obs),
        '',
        'Dialogue before the turn:',
        dialogue(t.obs),
        '',
        `Assistant's turn (strategy "${t.label}"): ${t.reply}`,
        '',
        t.trace
          ? `Reasoning trace (ARG) written before the turn:\n${formatArgTrace(t.trace)}`
          : 'No reasoning trace was written for this turn.',
        '',
        t.path && t.path.length > 0
          ? `Predicted user-side transition after the turn:\n${t.path.map((s, k) => formatPredictedState(s, k + 1)).join('\n')}`
          : 'No prediction of the user was made for this turn.',
        '',
        "The user's next turns:",
        ...later,
        '',
        'Fields: cognitive_reliability, arg_trace_quality, reverse_perspective_plausibility, simple_turn.',
      ].join('\n'),
    },
  ];
}

/** Messages of the per-trajectory call (R_emo) over the whole visible dialogue. @throws InputError (GRPO_INPUT_INVALID) when empty. */
export function emotionalTrajectoryMessages(turns: readonly TurnRecord[]): ChatMessage[] {
  const first = turns[0];
  const last = turns.at(-1);
  if (!first || !last) throw new InputError('GRPO_INPUT_INVALID', 'a trajectory needs at least one turn');
  const before = first.obs.history.length;
  return [
    { role: 'system', content: SYSTEM.replace('one turn of', 'a whole conversation of') },
    {
      role: 'user',
      content: [
        taskLine(last.next),
        '',
        'Dialogue before the assistant’s turns:',
        dialogue(first.obs),
        '',
        'The assistant’s turns and the user’s replies:',
        dialogue({ ...last.next, history: last.next.history.slice(before) }),
        '',
        "Rate the user's emotional state (1 distressed, 3 neutral, 5 relieved; courtesy such as thanks is not " +
          'a state) in their last turn before the assistant’s turns and in their last turn of all.',
        'Fields: initial_state, final_state.',
      ].join('\n'),
    },
  ];
}

const unit = (s: number) => (s - 1) / 4;

/** The Stage II rewards scored by an LLM judge (see the module comment). */
export class LlmStageTwoScorer implements StageTwoScorer {
  readonly kind = 'llm';
  constructor(private readonly options: RoleCallOptions) {}

  /**
   * The rewards of one trajectory: one judge call per turn, then one for R_emo.
   * @throws InputError (GRPO_INPUT_INVALID) for an empty trajectory; RoleOutputError (LLM_ROLE_OUTPUT_INVALID) (role `judge`) when every attempt of a call
   *   is invalid; the backend's errors unchanged.
   */
  async trajectory(turns: readonly TurnRecord[], config: GrpoConfig): Promise<TrajectoryRewards> {
    if (turns.length === 0)
      throw new InputError('GRPO_INPUT_INVALID', 'a trajectory needs at least one turn');
    const rpOn = config.ablations.reversePerspective;
    const parts: TurnRewardParts[] = [];
    for (let i = 0; i < turns.length; i++) {
      const t = turns[i] as TurnRecord;
      const path = rpOn ? t.path : null;
      const shown = { trace: t.trace !== null, path: path !== null && path.length > 0 };
      const v = await askRole(this.options, {
        role: 'judge',
        answerName: 'grpo_turn_rewards',
        messages: turnRewardMessages(rpOn ? turns : turns.map((u) => ({ ...u, path: null })), i),
        schema: turnRewardVerdictSchema(shown),
        defaults: REWARD_JUDGE_DEFAULTS,
      });
      const simple = shown.trace && v.simple_turn ? 1 : 0;
      parts.push({
        cog: unit(v.cognitive_reliability),
        arg: v.arg_trace_quality === null ? 0 : unit(v.arg_trace_quality),
        rp: v.reverse_perspective_plausibility === null ? 0 : unit(v.reverse_perspective_plausibility),
        over: 0.5 * simple + 0.5 * wastedDepth(path, config.thresholds.depthGain),
      });
    }
    const emo = await askRole(this.options, {
      role: 'judge',
      answerName: 'grpo_emotional_trajectory',
      messages: emotionalTrajectoryMessages(turns),
      schema: EmotionalTrajectoryVerdictSchema,
      defaults: REWARD_JUDGE_DEFAULTS,
    });
    return combineRewards(turns, parts, (emo.final_state - emo.initial_state) / 4, config);
  }
}
