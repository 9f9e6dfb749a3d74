import { AbortedError, TimeoutError } from '../errors';
/**
 * The caller's limits on one backend call, as a promise to race the call against: it rejects with
 * {@link TimeoutError} after `timeoutMs`, or with {@link AbortedError} when `signal` aborts (at once when it already
 * has). `dispose()` clears the timer and the listener; call it when the race is over. Used by the in-browser
 * backends (WebLLM, wllama), whose engines take no signal of their own for every step.
 */

/** What limits a call: the caller's signal, a timeout in milliseconds, and the call's name for the messages. */
export interface CallLimits {
  signal?: AbortSignal;
  timeoutMs?: number;
  what: string;
}

/** See the module comment. */
export function callerStop(how: CallLimits): { stop: Promise<never>; dispose: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    if (how.timeoutMs !== undefined) {
      const ms = how.timeoutMs;
      timer = setTimeout(() => reject(new TimeoutError(ms, how.what)), ms);
    }
    if (how.signal) {
      onAbort = () => reject(new AbortedError('LLM_ABORTED', `${how.what} aborted by the caller`));
      if (how.signal.aborted) onAbort();
      else how.signal.addEventListener('abort', onAbort, { once: true });
    }
  });
  return {
    stop,
    dispose: () => {
      clearTimeout(timer);
      if (onAbort) how.signal?.removeEventListener('abort', onAbort);
    },
  };
}
