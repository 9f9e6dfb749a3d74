/**
 * `npm run sim-card --out`: a folder is refused before any work (exit 2, "give the path of a file"), an existing
 * file that is not a simulator card is refused unless --overwrite, a card the command wrote is replaced without it
 * (so that the plain `npm run sim-card` keeps regenerating its card), and the card is Markdown whatever the
 * extension (Prettier is told the parser, not left to infer one from `card.txt`).
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_HEADING, HELP, main } from '../../../scripts/simulator-card';
import { cli } from './run-main';

let dir = '';
/** A datasets folder that does not exist: the card then measures the bundled seeds only (a few seconds). */
let noData = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pdl-sim-card-out-'));
  noData = join(dir, 'no-data');
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('sim-card --out', () => {
  it('refuses a folder at once, with or without --overwrite, as simulate does', async () => {
    const folder = join(dir, 'folder');
    await mkdir(folder);
    for (const extra of [[], ['--overwrite']]) {
      const started = Date.now();
      const r = await cli(main, ['--out', folder, '--data', noData, ...extra]);
      expect(r.code).toBe(2);
      expect(r.err).toBe(
        `error: output ${folder} already holds an empty folder; give the path of a file\nRun with --help for the options.\n`,
      );
      // Before the reply measurement: nothing was measured.
      expect(Date.now() - started).toBeLessThan(3000);
    }
  });

  it('refuses a file that is not a simulator card unless --overwrite, and leaves it as it was', async () => {
    const notes = join(dir, 'notes.md');
    await writeFile(notes, 'my notes\n');
    const r = await cli(main, ['--out', notes, '--data', noData]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      `error: --out ${notes} holds a file that is not a simulator card (its first line is not "${CARD_HEADING}"): ` +
        'pass --overwrite to replace it, or choose another --out',
    );
    expect(await readFile(notes, 'utf8')).toBe('my notes\n');
    const over = await cli(main, ['--out', notes, '--data', noData, '--overwrite']);
    expect(over.code, over.err).toBe(0);
    expect((await readFile(notes, 'utf8')).split('\n')[0]).toBe(CARD_HEADING);
  });

  it('replaces a card it wrote without --overwrite (the default card is one)', async () => {
    expect((await readFile('results/simulator-card.md', 'utf8')).split('\n')[0]).toBe(CARD_HEADING);
    const card = join(dir, 'card.md');
    await writeFile(card, `${CARD_HEADING}\n\nan older card\n`);
    const r = await cli(main, ['--out', card, '--data', noData]);
    expect(r.code, r.err).toBe(0);
    expect(await readFile(card, 'utf8')).not.toContain('an older card');
  });

  it('writes Markdown to a path of any extension, in a folder it creates', async () => {
    const txt = join(dir, 'new', 'card.txt');
    const r = await cli(main, ['--out', txt, '--data', noData]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).not.toContain('No parser could be inferred');
    expect(existsSync(txt)).toBe(true);
    const text = await readFile(txt, 'utf8');
    expect(text.split('\n')[0]).toBe(CARD_HEADING);
    expect(text).toMatch(/\n\| .* \|\n\| -+ \|/);
  });

  it('says so in its help', () => {
    expect(HELP).toContain('--overwrite');
    expect(HELP).toContain('as Markdown whatever the extension');
    expect(HELP).toContain(`its first line "${CARD_HEADING}"`);
  });
});
