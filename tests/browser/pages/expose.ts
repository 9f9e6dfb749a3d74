/**
 * Page-side half of the browser-test harness (see tests/browser/harness.ts). A page calls `expose(fn)` once
 * its setup is done; the harness then calls `fn(args)` through `window.__run` and waits for `window.__ready`.
 * Results must be structured-cloneable (plain JSON is safest). A thrown error is returned as
 * `{ ok: false, error: { name, message, ... } }` so the Node side can rethrow it with the same `name`.
 */

/** What `window.__run` resolves to. */
export type RunOutcome =
  | { ok: true; value: unknown }
  | { ok: false; error: { name: string; message: string; stack?: string; details?: unknown } };

declare global {
  interface Window {
    __run?: (args: unknown) => Promise<RunOutcome>;
    __ready?: boolean;
  }
}

/** Installs `fn` as the page's entry point for the test and marks the page ready. */
export function expose<A, R>(fn: (args: A) => Promise<R> | R): void {
  window.__run = async (args: unknown): Promise<RunOutcome> => {
    try {
      return { ok: true, value: await fn(args as A) };
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      const details = Object.fromEntries(
        Object.entries(err).filter(
          ([, v]) => v === null || ['string', 'number', 'boolean'].includes(typeof v),
        ),
      );
      return { ok: false, error: { name: err.name, message: err.message, stack: err.stack, details } };
    }
  };
  window.__ready = true;
}
