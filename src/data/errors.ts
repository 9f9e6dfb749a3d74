/** Errors of the dataset loaders. */
import { LabError } from '../errors';

/**
 * A record that cannot be loaded: truncated JSON, wrong field types, an unknown strategy label, a non-positive
 * price, a malformed CSV record, a missing column. `message` is `"<file>:<line>: <reason>"`. Code
 * `DATASET_INVALID`.
 */
export class DatasetError extends LabError {
  override readonly name = 'DatasetError';
  override readonly code = 'DATASET_INVALID';
  constructor(
    /** The file name as given to the loader. */
    readonly file: string,
    /** 1-based physical line of the record (its first line for multi-line CSV records); 0 = whole file. */
    readonly line: number,
    /** What is wrong, without the location. */
    readonly reason: string,
  ) {
    super(`${file}:${line}: ${reason}`);
  }
}
