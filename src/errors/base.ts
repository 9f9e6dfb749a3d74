/**
 * The project-wide errors. Every error that a public function of the library throws is a {@link LabError}, and
 * in fact one of the about twenty classes of `classes.ts`, grouped by what the user must do (fix an option, fix a
 * data file, free disk space, pick another backend, …). Within a class the stable `code` says exactly what went
 * wrong (`MEMORY_OPTION_INVALID`, `DATASET_INVALID`): codes are the contract, classes the grouping, so a caller
 * branches on `instanceof ConfigError` for the kind and on `code` for the case. `structuredClone` and
 * `postMessage` keep only an error's message (and a built-in name), so a worker that reports an error sends
 * `{ name, code, message }` as plain data.
 */

/** Options every {@link LabError} takes: a `cause`, and the settings its message names (see {@link LabError.render}). */
export interface LabErrorOptions extends ErrorOptions {
  /** The settings the message names as the way forward, as configuration keys (see {@link LabError.settings}). */
  settings?: readonly string[];
  /** The message with each setting spelled by the given speller (see {@link LabError.render}). */
  render?: (spell: SettingSpeller) => string;
}

/**
 * Base class of the library's errors. Subclasses override `name` (the class name, spelled out so that it survives
 * minification) and `code` (a stable, upper-case identifier such as `DATASET_INVALID`; codes never change meaning
 * between versions, messages may).
 */
export class LabError extends Error {
  override name: string = 'LabError';
  /** Stable machine-readable identifier of the error kind, e.g. `'DATASET_INVALID'`. */
  readonly code: string = 'LAB_ERROR';
  readonly #settings: readonly string[];
  readonly #render: ((spell: SettingSpeller) => string) | undefined;

  /**
   * @param message what went wrong and what to do, in words.
   * @param options `cause`; `settings` and `render` when the message names settings.
   */
  constructor(message?: string, options: LabErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.#settings = options.settings ?? [];
    this.#render = options.render;
  }

  /**
   * The library settings that the message names as the way forward, as configuration keys (dotted when nested:
   * `overwrite`, `allowRemote`, `language.default.model`), in the order the message names them; empty when it
   * names none. A front end that calls them something else shows the error through {@link LabError.render}.
   */
  get settings(): readonly string[] {
    return this.#settings;
  }

  /**
   * The message with every setting of {@link LabError.settings} spelled by `spell` — the command line passes
   * its option for each (`overwrite` → `--overwrite`), so that it never rewrites the message's text. An error
   * that names no setting returns {@link Error.message} unchanged.
   */
  render(spell: SettingSpeller): string {
    return this.#render ? this.#render(spell) : this.message;
  }
}

/** How a front end spells a library setting (a configuration key, see {@link LabError.settings}) in a message. */
export type SettingSpeller = (setting: string) => string;

/**
 * Whether `error` is an instance of `Class` whose `code` is one of `codes` (any code of the class when none is
 * given): the check a caller makes for one case of a class, e.g.
 * `hasCode(e, CheckpointError, 'FINISHED_EPISODE_MISMATCH')`. A code the class does not have is a type error.
 */
export function hasCode<E extends LabError>(
  error: unknown,
  Class: abstract new (...args: never[]) => E,
  ...codes: readonly E['code'][]
): error is E {
  return error instanceof Class && (codes.length === 0 || codes.includes(error.code));
}
