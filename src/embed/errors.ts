/** Errors of the text embedders. */
import { LabError } from '../errors';

/** An embedder option out of range (a non-positive dimension or n-gram order). Code `EMBED_OPTION_INVALID`. */
export class EmbedOptionError extends LabError {
  override readonly name = 'EmbedOptionError';
  override readonly code = 'EMBED_OPTION_INVALID';
}

/**
 * A sentence-embedding model that cannot be used: its folder or a file in it is missing, the model does not
 * load, or it gives vectors of an unexpected size. The message names the folder and what to do.
 * Code `EMBED_MODEL_UNAVAILABLE`.
 */
export class EmbedModelError extends LabError {
  override readonly name = 'EmbedModelError';
  override readonly code = 'EMBED_MODEL_UNAVAILABLE';
}
