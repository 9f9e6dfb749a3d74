/** Errors of the text embedders. */
import { LabError } from '../errors';

/** An embedder option out of range (a non-positive dimension or n-gram order). Code `EMBED_OPTION_INVALID`. */
export class EmbedOptionError extends LabError {
  override readonly name = 'EmbedOptionError';
  override readonly code = 'EMBED_OPTION_INVALID';
}
