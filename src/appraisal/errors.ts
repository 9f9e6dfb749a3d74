/** Errors of the appraisal-reasoning (ARG) actor. */
import { LabError } from '../errors';

/** A trace text that is not in the ARG format (missing, repeated or out-of-order section, bad number, …). Code `ARG_PARSE`. */
export class ArgParseError extends LabError {
  override readonly name = 'ArgParseError';
  override readonly code = 'ARG_PARSE';
}

/** An ARG option out of range (candidate count, lookahead depth or step, an empty candidate list). Code `ARG_OPTION_INVALID`. */
export class ArgOptionError extends LabError {
  override readonly name = 'ArgOptionError';
  override readonly code = 'ARG_OPTION_INVALID';
}
