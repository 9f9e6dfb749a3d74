/** Errors of the baselines. */
import { LabError } from '../errors';

/**
 * A baseline that cannot produce an action: the realizer returned no utterance, a rule table or a model answer
 * named a stage or label the task does not have. Code `BASELINE_FAILED`.
 */
export class BaselineError extends LabError {
  override readonly name = 'BaselineError';
  override readonly code = 'BASELINE_FAILED';
}

/** A PPDPP training option out of range (episode counts, learning rate, gamma, an empty seed list). Code `PPDPP_OPTION_INVALID`. */
export class PpdppOptionError extends LabError {
  override readonly name = 'PpdppOptionError';
  override readonly code = 'PPDPP_OPTION_INVALID';
}

/** A planner that does not fit its task or featurizer (missing parameter, wrong shape). Code `PPDPP_MODEL_INVALID`. */
export class PpdppModelError extends LabError {
  override readonly name = 'PpdppModelError';
  override readonly code = 'PPDPP_MODEL_INVALID';
}
