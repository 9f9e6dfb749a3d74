/** Errors of the Cog-Sim user simulator. */
import { StateUpdateRejectedError } from '../errors';

/**
 * A proposed state update breaks a rule of the simulator (an unknown record, a value out of range); `reason` says
 * which. Nothing was changed. Code `SIM_PROPOSAL_REJECTED`.
 */
export function proposalRejectedError(reason: string): StateUpdateRejectedError {
  return new StateUpdateRejectedError('SIM_PROPOSAL_REJECTED', `proposal rejected: ${reason}`, { reason });
}
