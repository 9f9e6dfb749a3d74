/**
 * simulate --out writes each finished episode to a visible FILE.partial and renames it to FILE on completion;
 * an interrupted run keeps its finished episodes readable there.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../cli/simulate';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pdl-simulate-out-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

function capture() {
  const err: string[] = [];
  return { err, io: { stdout: () => {}, stderr: (s: string) => void err.push(s), isTTY: false } };
}
const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { seed: { id: string } });

describe('simulate --out', () => {
  it('a completed run renames FILE.partial to FILE', async () => {
    const out = join(dir, 'done.jsonl');
    const c = capture();
    expect(await main(['--task', 'cb', '--episodes', '3', '--out', out], c.io), c.err.join('')).toBe(0);
    expect(lines(out)).toHaveLength(3);
    expect(existsSync(`${out}.partial`)).toBe(false);
  });

  it('Ctrl-C keeps every finished episode readable in FILE.partial; a later run refuses it unless --overwrite', async () => {
    const out = join(dir, 'cut.jsonl');
    const partial = `${out}.partial`;
    const c = capture();
    const run = main(['--task', 'cb', '--episodes', '5000', '--out', out], c.io);
    // Interrupt once a few episodes are on disk (each is written through as it finishes).
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (existsSync(partial) && lines(partial).length >= 3) {
          clearInterval(poll);
          process.emit('SIGINT');
          resolve();
        }
      }, 5);
    });
    expect(await run).toBe(130);
    const kept = lines(partial);
    expect(kept.length).toBeGreaterThanOrEqual(3);
    expect(kept.length).toBeLessThan(5000);
    expect(c.err.join('')).toContain(`${kept.length} finished episodes are kept in ${partial}`);
    expect(existsSync(out)).toBe(false);

    const again = capture();
    expect(await main(['--task', 'cb', '--episodes', '2', '--out', out], again.io)).toBe(2);
    expect(again.err.join('')).toContain('holds the episodes of an interrupted run');
    const over = capture();
    expect(await main(['--task', 'cb', '--episodes', '2', '--out', out, '--overwrite'], over.io)).toBe(0);
    expect(lines(out)).toHaveLength(2);
    expect(existsSync(partial)).toBe(false);
  });

  it('--overwrite without --out is a usage error (exit 2), as --resume without --out is', async () => {
    const c = capture();
    expect(await main(['--task', 'cb', '--episodes', '1', '--overwrite'], c.io)).toBe(2);
    expect(c.err.join('')).toContain('--overwrite needs --out');
  });
});
