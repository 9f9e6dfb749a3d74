/**
 * Errors of the evaluation module, all {@link LabError}s with a stable `code`
 * (docs/architecture.md "Errors"). `ConfigError` (`EVAL_CONFIG_INVALID`) (harness.ts) and `DataFormatError` (`EVAL_STORED_EPISODE_INVALID`) (harness-node.ts)
 * stay beside the code that throws them.
 */
import { InputError } from '../errors';

/**
 * A policy answered a free-form strategy and no label mapper is set (strategy F1, harness-f1.ts). The message
 * names the policy and the answer. Code `EVAL_STRATEGY_UNMAPPED`.
 */
export function unmappedStrategyError(policy: string, strategy: string): InputError {
  return new InputError(
    'EVAL_STRATEGY_UNMAPPED',
    `policy ${policy} answered free-form strategy "${strategy}" and no label mapper is set`,
    { expected: 'a strategy label of the task (or a label mapper)', got: strategy },
  );
}
