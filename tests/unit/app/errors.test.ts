/**
 * The app's shared error display words storage and worker failures plainly, keeping the library's own message
 * (database, file, line) — also for an error that crossed a worker boundary as plain data with its code.
 */
import { describe, expect, it } from 'vitest';
import { explainError, WorkerCrashedError } from '../../../demo/app/errors';
import { storageBlockedError, storageQuotaError } from '../../../src/store/errors';

describe('explainError', () => {
  it('gives a plain headline for a full disk and a blocked upgrade, followed by the library message', () => {
    const quota = explainError(storageQuotaError('pdl-data'));
    expect(quota).toMatch(
      /^Your browser has no more room for this site’s data\. Nothing already stored was lost/,
    );
    expect(quota).toContain('IndexedDB "pdl-data" is out of space');
    const blocked = explainError(storageBlockedError('pdl-data', 1, 2));
    expect(blocked).toMatch(/^Another tab of this app holds its stored data open/);
    expect(blocked).toContain('cannot upgrade from v1 to v2');
  });

  it('words an error by its code alone, as Comlink delivers it from a worker', () => {
    const fromWorker = Object.assign(new Error('IndexedDB "x" is out of space'), {
      name: 'DiskFullError',
      code: 'STORAGE_QUOTA',
    });
    expect(explainError(fromWorker)).toMatch(/^Your browser has no more room/);
    expect(explainError(new WorkerCrashedError('the worker failed: crashed'))).toContain(
      'the next run starts a fresh worker',
    );
  });

  it('shows any other error by its own message, and a thrown non-error as text', () => {
    expect(explainError(new TypeError('bad.jsonl:2: expected a seed'))).toBe('bad.jsonl:2: expected a seed');
    expect(explainError('plain text')).toBe('plain text');
  });
});
