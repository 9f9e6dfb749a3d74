/** Errors of the LLM actor roles (strategy proposer, realizer, LLM policy). */
import { LabError } from '../../errors';

/** The realizer returned no utterance for the chosen strategy. Code `REALIZER_EMPTY`. */
export class EmptyRealizationError extends LabError {
  override readonly name = 'EmptyRealizationError';
  override readonly code = 'REALIZER_EMPTY';
}

/** An LLM actor option out of range (candidate count). Code `ACTOR_OPTION_INVALID`. */
export class ActorOptionError extends LabError {
  override readonly name = 'ActorOptionError';
  override readonly code = 'ACTOR_OPTION_INVALID';
}
