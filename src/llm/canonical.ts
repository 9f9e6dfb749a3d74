import { InputError } from '../errors';
/** Canonical JSON of requests and configurations: the text their replay keys are hashed from. */

/**
 * JSON with object keys sorted at every depth and `undefined` members dropped, so that two requests that
 * differ only in key order or in absent-vs-undefined fields give the same text. Throws `InputError` (`LLM_INVALID_REQUEST`)
 * on values JSON cannot represent (functions, non-finite numbers, bigints).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value))
      throw new InputError('LLM_INVALID_REQUEST', `cannot canonicalise number ${value}`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value))
    return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  throw new InputError('LLM_INVALID_REQUEST', `cannot canonicalise a ${typeof value}`);
}
