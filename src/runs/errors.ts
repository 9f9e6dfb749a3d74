/** Errors of the run store's file encoding. */
import { LabError } from '../errors';

/**
 * A `{ "$f32": … }` value of a run file is not a base64 string of whole float32 values. The run stores turn it
 * into their damaged-run error naming the file. Code `RUN_FLOAT32_INVALID`.
 */
export class Float32PayloadError extends LabError {
  override name: string = 'Float32PayloadError';
  override readonly code: string = 'RUN_FLOAT32_INVALID';
}
