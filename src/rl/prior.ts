/**
 * The optional LLM prior of the strategy policy (docs/architecture.md "CSTPO": optionally with a language
 * model's own label log-probabilities as a prior). A {@link StrategyPrior} gives one log-probability per task
 * label for an observation; the strategy network adds it, times a trainable weight, to its logits.
 */
import type { Observation } from '../env/env';
import { scoreLabels, type ChatBackend, type ChatMessage } from '../llm';
import { getTask } from '../tasks';

/** Label log-probabilities for an observation. */
export interface StrategyPrior {
  /** One natural-log probability per label of the observation's task, in the task's label order. */
  logProbs(observation: Observation): Promise<Float32Array>;
}

/** The prompt asking the actor LLM for its next strategy: the role, the goal and the dialogue so far. */
export function priorMessages(obs: Observation): ChatMessage[] {
  const task = getTask(obs.task);
  const lines = obs.history.map(
    (t) => `${t.speaker === 'actor' ? task.actorRole : task.userRole}: ${t.text}`,
  );
  return [
    {
      role: 'system',
      content: `You are the ${task.actorRole} in this conversation (${task.title}). Your goal: ${obs.actorView.goal}`,
    },
    {
      role: 'user',
      content: `The conversation so far:\n${lines.join('\n')}\n\nWhich strategy should the ${task.actorRole} use next?`,
    },
  ];
}

/**
 * The LLM's label log-probabilities through {@link scoreLabels} (one request per call). Labels the model did not
 * rank among its top tokens get `unseenUpperBound − ln 2` (below every returned token); the result is then
 * normalised over the task's labels (log-softmax), so it is a log-distribution over the labels.
 * @throws whatever the backend or `scoreLabels` throws (e.g. BackendError (LLM_MALFORMED_RESPONSE) without logprobs).
 */
export class LlmStrategyPrior implements StrategyPrior {
  constructor(
    private readonly backend: ChatBackend,
    private readonly topLogprobs = 5,
  ) {}

  async logProbs(observation: Observation): Promise<Float32Array> {
    const labels = getTask(observation.task).strategies;
    const { scores, unseenUpperBound } = await scoreLabels(this.backend, priorMessages(observation), labels, {
      topLogprobs: this.topLogprobs,
    });
    const raw = scores.map((s) => s.logprob ?? unseenUpperBound - Math.LN2);
    const max = Math.max(...raw);
    const logZ = max + Math.log(raw.reduce((a, v) => a + Math.exp(v - max), 0));
    return Float32Array.from(raw, (v) => v - logZ);
  }
}
