/** Errors of the Cog-Sim user simulator. */
import { LabError } from '../errors';

/** Thrown when a proposal is unsupported or malformed; the state it was applied to is unchanged. */
export class ProposalRejectedError extends LabError {
  override readonly name = 'ProposalRejectedError';
  override readonly code = 'SIM_PROPOSAL_REJECTED';
  constructor(readonly reason: string) {
    super(`proposal rejected: ${reason}`);
  }
}

/** A step on a dialogue that has already ended; the message names the seed and how it ended. */
export class DialogueEndedError extends LabError {
  override readonly name = 'DialogueEndedError';
  override readonly code = 'SIM_DIALOGUE_ENDED';
}

/** The fitted parameter file (`fitted/params.ts`) does not match this simulator's inputs: rerun `npm run fit-sim`. */
export class FittedParamsError extends LabError {
  override readonly name = 'FittedParamsError';
  override readonly code = 'SIM_FITTED_PARAMS_INVALID';
}
