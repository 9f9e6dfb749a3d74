/**
 * The project-wide base error. Every error that a public function of the library throws is a {@link LabError}
 * (or a subclass declared in its folder's `errors.ts`), so a caller can branch on `instanceof LabError` and on
 * the stable `code`. `structuredClone` and `postMessage` keep only an error's message (and a built-in name), so a
 * worker that reports an error sends `{ name, code, message }` as plain data.
 */

/**
 * Base class of the library's errors. Subclasses override `name` (the class name, spelled out so that it survives
 * minification) and `code` (a stable, upper-case identifier such as `DATASET_INVALID`; codes never change meaning
 * between versions, messages may).
 */
export class LabError extends Error {
  override name: string = 'LabError';
  /** Stable machine-readable identifier of the error kind, e.g. `'DATASET_INVALID'`. */
  readonly code: string = 'LAB_ERROR';
}
