import { ConfigError } from '../errors';
/**
 * A bound on concurrent requests to a language engine: `boundedFetch(fetch, n)` is a `fetch` that lets at most `n`
 * requests be in flight (the rest wait, first come first served). The server hands it to the OpenAI-compatible
 * backend (`RuntimeOptions.fetch`, src/roles), so the simulator's and the judge's language roles of all its
 * sessions share one bound per process.
 */

/** `fetch` with at most `limit` requests in flight. @throws ConfigError when `limit` is not a positive integer. */
export function boundedFetch(inner: typeof fetch, limit: number): typeof fetch {
  if (!Number.isInteger(limit) || limit < 1)
    throw new ConfigError(
      'SERVER_OPTION_INVALID',
      `the request bound must be a positive integer, got ${limit}`,
    );
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else inFlight -= 1;
  };
  return async (input, init) => {
    if (inFlight < limit) inFlight += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await inner(input, init);
    } finally {
      release();
    }
  };
}
