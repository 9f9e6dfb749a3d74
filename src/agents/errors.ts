/**
 * Errors of the template actor policies and the rollout loop. The LLM actor roles keep theirs in
 * `llm/errors.ts` (`EmptyRealizationError` is shared: a template realizer with no utterance throws it too).
 */
import { LabError } from '../errors';

/** A rollout option out of range (no seeds, a non-positive episode count); the message names it. */
export class AgentOptionError extends LabError {
  override readonly name = 'AgentOptionError';
  override readonly code = 'AGENT_OPTION_INVALID';
}

/** A strategy label that is not one of the task's; the message lists the labels. */
export class UnknownStrategyError extends LabError {
  override readonly name = 'UnknownStrategyError';
  override readonly code = 'AGENT_STRATEGY_UNKNOWN';
}

/** A policy spec that names no policy (`random`, `replay`, `fixed:<label>`, `llm`, `arg`). */
export class PolicySpecError extends LabError {
  override readonly name = 'PolicySpecError';
  override readonly code = 'AGENT_POLICY_SPEC_INVALID';
}
