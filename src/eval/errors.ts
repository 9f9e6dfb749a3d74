/**
 * Errors of the evaluation module, all {@link LabError}s with a stable `code`
 * (docs/architecture.md "Errors"). `EvalConfigError` (harness.ts) and `StoredEpisodeError` (harness-node.ts)
 * stay beside the code that throws them.
 */
import { LabError } from '../errors';

/**
 * Thrown for evaluation input that cannot be summarised: empty samples, non-finite values, mismatched lengths,
 * unpaired or duplicated case keys, labels outside a declared label set, options out of range. The message
 * names the offending argument and, where there is one, the index or key.
 */
export class EvalInputError extends LabError {
  override name: string = 'EvalInputError';
  override readonly code: string = 'EVAL_INPUT_INVALID';
}

/**
 * A policy's strategy prediction is free text (not a label of the task) and no label mapper was given to map it
 * (strategy F1, harness-f1.ts). The message names the policy and the answer.
 */
export class UnmappedStrategyError extends LabError {
  override name: string = 'UnmappedStrategyError';
  override readonly code: string = 'EVAL_STRATEGY_UNMAPPED';
  constructor(
    readonly policy: string,
    readonly strategy: string,
  ) {
    super(`policy ${policy} answered free-form strategy "${strategy}" and no label mapper is set`);
  }
}

/** An evaluation worker used out of order (`run` before `init`) or started outside a worker thread. */
export class EvalWorkerError extends LabError {
  override name: string = 'EvalWorkerError';
  override readonly code: string = 'EVAL_WORKER_MISUSE';
}
