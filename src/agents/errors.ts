/**
 * The policy-name errors' messages: here, beside the `Policy` interface, so that every folder that names policies
 * can throw them; the policy catalogue in `src/policies` does. Both are a {@link PolicySpecError}.
 */
import { PolicySpecError } from '../errors';

/**
 * A name the catalogue does not know, or a `fixed:` label that is not one of the task's (`detail` says which);
 * the message lists the valid names. Code `POLICY_UNKNOWN`.
 */
export function unknownPolicyError(
  policy: string,
  known: readonly string[],
  detail?: string,
): PolicySpecError {
  return new PolicySpecError(
    'POLICY_UNKNOWN',
    `unknown policy "${policy}"${detail ? ` (${detail})` : ''}; valid policies: ${known.join(', ')}`,
    { policy, known },
  );
}

/**
 * A known policy that cannot run in this configuration: a baseline without a template form and no language
 * backend, `ppdpp` without a trained planner, `principles:` / `cstpo:` whose memory or run was not loaded or
 * is for another task. The message names the policy and what it needs. Code `POLICY_UNAVAILABLE`.
 */
export function policyUnavailableError(
  policy: string,
  known: readonly string[],
  message: string,
): PolicySpecError {
  return new PolicySpecError('POLICY_UNAVAILABLE', message, { policy, known });
}
