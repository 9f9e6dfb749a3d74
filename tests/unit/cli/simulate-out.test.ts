/**
 * simulate --out writes each finished episode to a visible FILE.partial and renames it to FILE on completion;
 * an interrupted run keeps its finished episodes readable there.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../cli/simulate';
import { readFixture } from '../data/paths';

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

  it('--resume refuses a seed file whose content changed since the run, even with the same seed ids', async () => {
    const seeds = join(dir, 'seeds.jsonl');
    const text = readFixture('esconv-quirks.jsonl');
    writeFileSync(seeds, text);
    const out = join(dir, 'changed.jsonl');
    const args = ['--task', 'esconv', '--seeds', seeds, '--episodes', '3', '--out', out];
    expect(await main(args, capture().io)).toBe(0);
    // An interrupted run: its first episode kept.
    writeFileSync(`${out}.partial`, readFileSync(out, 'utf8').split('\n')[0] + '\n');
    renameSync(out, join(dir, 'changed-whole.jsonl'));
    // The first dialogue now tells another situation; its id (file:line) is the same.
    const [first, ...rest] = text.split('\n');
    const changed = JSON.parse(first as string) as { situation: string };
    changed.situation = 'My landlord wants me out by the end of the month and I have nowhere to go.';
    writeFileSync(seeds, [JSON.stringify(changed), ...rest].join('\n'));
    const refused = capture();
    expect(await main([...args, '--resume'], refused.io)).toBe(2);
    const message = refused.err.join('');
    expect(message).toContain('was made with other settings: --seeds');
    expect(message).toMatch(
      /content sha256 [0-9a-f]{12}\)" where this run plays ".*content sha256 [0-9a-f]{12}\)"/,
    );
    expect(existsSync(out)).toBe(false);
    // The file as it was: the run continues to the uninterrupted result.
    writeFileSync(seeds, text);
    const resumed = capture();
    expect(await main([...args, '--resume'], resumed.io), resumed.err.join('')).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(dir, 'changed-whole.jsonl'), 'utf8'));
  });

  it('--overwrite without --out is a usage error (exit 2), as --resume without --out is', async () => {
    const c = capture();
    expect(await main(['--task', 'cb', '--episodes', '1', '--overwrite'], c.io)).toBe(2);
    expect(c.err.join('')).toContain('--overwrite needs --out');
  });
});
