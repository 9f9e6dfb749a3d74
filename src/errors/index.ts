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

  /**
   * The library settings that the message names as the way forward, as configuration keys (dotted when nested:
   * `overwrite`, `allowRemote`, `language.default.model`), in the order the message names them; empty when it
   * names none. A front end that calls them something else shows the error through {@link LabError.render}.
   */
  get settings(): readonly string[] {
    return [];
  }

  /**
   * The message with every setting of {@link LabError.settings} spelled by `_spell` — the command line passes
   * its option for each (`overwrite` → `--overwrite`), so that it never rewrites the message's text. An error
   * that names no setting returns {@link Error.message} unchanged.
   */
  render(_spell: SettingSpeller): string {
    return this.message;
  }
}

/** How a front end spells a library setting (a configuration key, see {@link LabError.settings}) in a message. */
export type SettingSpeller = (setting: string) => string;
