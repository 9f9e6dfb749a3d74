/**
 * Privacy: whole episodes in template mode and with every language role on the replay backend, in the page and
 * in the episode worker, while the browser context records every request (page, scripts, workers, fetches).
 * None may leave the page's own origin.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from './harness';

let p: OpenedPage | undefined;
afterEach(async () => {
  await p?.close();
  p = undefined;
});

type Outcome = { turns: number; endReason: string | null; calls: number };

describe('no request leaves the page’s origin', () => {
  it('the recorder sees a request to another origin (negative control)', async () => {
    p = await openPage('privacy');
    await p.run({ control: 'http://127.0.0.1:9/elsewhere' });
    expect(p.requests.filter((u) => new URL(u).origin !== p!.origin)).toEqual([
      'http://127.0.0.1:9/elsewhere',
    ]);
  });

  for (const mode of ['template', 'replay'] as const) {
    it(`${mode} mode, in the page and in the worker, every task`, async () => {
      p = await openPage('privacy');
      for (const task of ['esconv', 'p4g', 'cb'] as const) {
        for (const where of ['page', 'worker'] as const) {
          const out = await p.run<Outcome>({ mode, where, task });
          expect(out.turns, `${task} ${where}`).toBeGreaterThan(0);
          expect(out.endReason, `${task} ${where}`).not.toBeNull();
          if (mode === 'replay') expect(out.calls, `${task} ${where}`).toBeGreaterThan(20);
          else expect(out.calls).toBe(0);
        }
      }
      expect(p.requests.length).toBeGreaterThan(2);
      expect(p.requests.some((u) => u.includes('episode.worker'))).toBe(true);
      const foreign = p.requests.filter((u) => new URL(u).origin !== p!.origin);
      expect(foreign).toEqual([]);
    });
  }
});
