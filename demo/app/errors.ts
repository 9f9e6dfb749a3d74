import { LabError } from '../../src/entries/errors';
/** Errors of the demo app (one class per kind, each with a stable `code`). */

/** A bundled seed id that the task does not have (a hand-edited URL, for example). */
export class UnknownSeedError extends LabError {
  override name: string = 'UnknownSeedError';
  override readonly code: string = 'APP_UNKNOWN_SEED';
}

/** A job's worker crashed or failed to load (the page keeps working; the next run starts a fresh worker). */
export class WorkerCrashedError extends LabError {
  override name: string = 'WorkerCrashedError';
  override readonly code: string = 'APP_WORKER_CRASHED';
}

/**
 * Plain-words headlines for the errors a page can meet, by error `code` (an error that crossed a worker boundary
 * through Comlink keeps its `code`, `name` and `message` but not its class: src/pool/comlink-errors.ts). The
 * library's own message follows the headline, so the details (database, file, line, option) are never lost.
 */
const HEADLINES: Readonly<Record<string, string>> = {
  STORAGE_QUOTA:
    'Your browser has no more room for this site’s data. Nothing already stored was lost; delete old runs, ' +
    'memories or seed sets (or free disk space) and try again.',
  STORAGE_BLOCKED:
    'Another tab of this app holds its stored data open with an older version, so this page cannot update it. ' +
    'Close the other tabs of the app and try again; nothing stored was changed.',
  STORAGE_CLOSED:
    'Another tab updated this app’s stored data to a newer version. Reload this page to keep working.',
  STORAGE_VERSION:
    'The stored data was written by a newer version of this app. Reload the page to get the newer app.',
  STORAGE_DENIED:
    'The browser does not allow this page to store data (private window, storage turned off, or the page was ' +
    'opened from a file). Template mode still works; runs and memories cannot be kept.',
  STORAGE_UNAVAILABLE: 'This browser has no storage for web pages (IndexedDB), so nothing can be kept here.',
  APP_WORKER_CRASHED:
    'The background worker running the job stopped unexpectedly. The page still works: the next run starts a ' +
    'fresh worker.',
  POLICY_UNAVAILABLE: 'The chosen policy needs a memory or a trained run that is not stored in this browser.',
};

/**
 * The message a page shows for `e`: a plain-words headline for the kinds above, followed by the error's own
 * message; any other error is shown by its message alone (the library's messages name the file, line or option).
 */
export function explainError(e: unknown): string {
  const err = e instanceof Error ? e : new Error(String(e));
  const code = (err as Error & { code?: unknown }).code;
  const headline = typeof code === 'string' ? HEADLINES[code] : undefined;
  return headline ? `${headline} (Details: ${err.message})` : err.message;
}
