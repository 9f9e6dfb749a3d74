/**
 * Errors of the template actor policies and the rollout loop, and the one policy-name error
 * ({@link PolicySpecError}: here, beside the `Policy` interface, so that every folder that names policies can
 * throw it; the policy catalogue in `src/policies` does). The LLM actor roles keep theirs in `llm/errors.ts`
 * (`EmptyRealizationError` is shared: a template realizer with no utterance throws it too).
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

/**
 * A policy name that cannot be used as given. The one policy-name error of the library: `policy` is the name
 * given, `known` the name patterns the policy catalogue accepts (`src/policies`), so a caller can offer the valid
 * names without reading the message. Thrown as one of its two kinds below.
 */
export class PolicySpecError extends LabError {
  override name = 'PolicySpecError';
  override readonly code: string = 'POLICY_SPEC_INVALID';
  constructor(
    /** The policy name as given. */
    readonly policy: string,
    /** The name patterns the catalogue accepts (`random`, `fixed:<label>`, …). */
    readonly known: readonly string[],
    message: string,
  ) {
    super(message);
  }
}

/**
 * A name the catalogue does not know, or a `fixed:` label that is not one of the task's (`detail` says which);
 * the message lists the valid names.
 */
export class UnknownPolicyError extends PolicySpecError {
  override name = 'UnknownPolicyError';
  override readonly code = 'POLICY_UNKNOWN';
  constructor(policy: string, known: readonly string[], detail?: string) {
    super(
      policy,
      known,
      `unknown policy "${policy}"${detail ? ` (${detail})` : ''}; valid policies: ${known.join(', ')}`,
    );
  }
}

/**
 * A known policy that cannot run in this configuration: a baseline without a template form and no language
 * backend, `ppdpp` without a trained planner, `principles:` / `cstpo:` whose memory or run was not loaded or
 * is for another task. The message names the policy and what it needs.
 */
export class PolicyUnavailableError extends PolicySpecError {
  override name = 'PolicyUnavailableError';
  override readonly code = 'POLICY_UNAVAILABLE';
}
