/**
 * Findings of a fresh user trying the README (one block per finding, each failing before its fix): the built bin
 * finds the shared datasets like `npm run validate-sim`, export-chat refuses to overwrite its input and says what
 * it dropped or why a file is not a trajectory file, wrong-task seed files name their task, simulate --resume
 * names the option that differs, serve names a taken port and why a ladder file cannot be read, and help/usage
 * texts speak of what an installed package has.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataFolderBeside } from '../../../cli/validate-sim';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pdl-fresh-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the default data folder (finding 2)', () => {
  it('is ../shared/data from the package root, from cli/ of the source and dist/cli/ of the built bin', async () => {
    const pkg = join(dir, 'repo');
    await mkdir(join(pkg, 'dist', 'cli', 'chunks'), { recursive: true });
    await mkdir(join(pkg, 'cli'), { recursive: true });
    await writeFile(join(pkg, 'package.json'), '{}');
    const expected = resolve(dir, 'shared', 'data');
    expect(dataFolderBeside(join(pkg, 'cli'))).toBe(expected);
    expect(dataFolderBeside(join(pkg, 'dist', 'cli'))).toBe(expected);
    expect(dataFolderBeside(join(pkg, 'dist', 'cli', 'chunks'))).toBe(expected);
  });
});
