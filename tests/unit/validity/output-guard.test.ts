/**
 * Output checks of `validate-sim --out` and `npm run studies -- --out`: a folder that holds something else, or a
 * path under a file, is refused with exit 2 before any work and nothing is written; `--overwrite` replaces an
 * earlier validate-sim output.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../../cli/validate-sim';
import { readFixture } from '../data/paths';

function capture() {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    io: { stdout: (s: string) => void (out.stdout += s), stderr: (s: string) => void (out.stderr += s) },
  };
}

/** A scratch folder holding a small ESConv file (a fixture, so the test needs no shared data). */
function scratch(): { dir: string; data: string } {
  const dir = mkdtempSync(join(tmpdir(), 'validity-out-'));
  const data = join(dir, 'esconv.jsonl');
  writeFileSync(data, readFixture('esconv-quirks.jsonl'));
  return { dir, data };
}

const SMALL = ['--resamples', '100', '--dose-seeds', '2', '--check-seeds', '0', '--no-exploits'];

describe('validate-sim --out', () => {
  it('refuses a foreign folder with exit 2 before any work and writes nothing', async () => {
    const { dir, data } = scratch();
    const foreign = join(dir, 'foreign');
    mkdirSync(foreign);
    writeFileSync(join(foreign, 'notes.txt'), 'keep me');
    const r = capture();
    expect(await main(['--seeds', data, '--out', foreign, ...SMALL], r.io)).toBe(2);
    expect(r.out.stderr).toContain(foreign);
    expect(r.out.stderr).toContain('which has no validity.json');
    expect(r.out.stdout).toBe('');
    expect(readdirSync(foreign)).toEqual(['notes.txt']);
    // --overwrite does not make a foreign folder ours.
    expect(await main(['--seeds', data, '--out', foreign, '--overwrite', ...SMALL], capture().io)).toBe(2);
    expect(readFileSync(join(foreign, 'notes.txt'), 'utf8')).toBe('keep me');
  });

  it('takes a folder holding only a temporary file left by a killed write as empty', async () => {
    const { dir, data } = scratch();
    const out = join(dir, 'out');
    mkdirSync(out);
    writeFileSync(join(out, '.validity.md.9557-2-fb7bc3.tmp'), '');
    const r = capture();
    expect(await main(['--seeds', data, '--out', out, ...SMALL], r.io), r.out.stderr).toBe(0);
    expect(existsSync(join(out, 'validity.json'))).toBe(true);
    // Any other hidden file is still content that is not ours.
    const other = join(dir, 'other');
    mkdirSync(other);
    writeFileSync(join(other, '.validity.md.tmp'), 'x');
    expect(await main(['--seeds', data, '--out', other, ...SMALL], capture().io)).toBe(2);
  }, 60_000);

  it('refuses a path under a file with exit 2 before any work', async () => {
    const { dir, data } = scratch();
    const r = capture();
    expect(await main(['--seeds', data, '--out', join(data, 'sub'), ...SMALL], r.io)).toBe(2);
    expect(r.out.stderr).toMatch(/cannot write .*esconv\.jsonl\/sub: .* is a file, not a folder/);
    expect(r.out.stderr).not.toContain('ENOTDIR');
    expect(r.out.stdout).toBe('');
    expect(readdirSync(dir)).toEqual(['esconv.jsonl']);
  });

  it('refuses an earlier output without --overwrite and replaces it with it', async () => {
    const { dir, data } = scratch();
    const out = join(dir, 'out');
    expect(await main(['--seeds', data, '--out', out, ...SMALL], capture().io)).toBe(0);
    const again = capture();
    expect(await main(['--seeds', data, '--out', out, ...SMALL], again.io)).toBe(2);
    // validate-sim has no --resume: the refusal names the one switch it has, spelled as an option.
    expect(again.out.stderr).toMatch(/; pass --overwrite to replace it\n/);
    expect(again.out.stderr).not.toMatch(/resume/);
    expect(await main(['--seeds', data, '--out', out, '--overwrite', ...SMALL], capture().io)).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['validity.json', 'validity.md']);
    expect(await main(['--seeds', data, '--overwrite'], capture().io)).toBe(2);
  }, 60_000);
});

describe('npm run studies --out', () => {
  const studies = (out: string) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'experiments/studies.ts', '--out', out], {
      encoding: 'utf8',
      timeout: 60_000,
    });

  it('refuses a foreign folder with exit 2 and removes nothing', () => {
    const { dir } = scratch();
    const foreign = join(dir, 'foreign');
    mkdirSync(join(foreign, 'runs', 'esconv-full'), { recursive: true });
    writeFileSync(join(foreign, 'runs', 'esconv-full', 'mine.txt'), 'keep me');
    const r = studies(foreign);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('which has no studies.json');
    expect(readFileSync(join(foreign, 'runs', 'esconv-full', 'mine.txt'), 'utf8')).toBe('keep me');
    expect(existsSync(join(foreign, 'memories'))).toBe(false);
  }, 60_000);

  it('refuses a path under a file with exit 2 before any run', () => {
    const { data } = scratch();
    const r = studies(join(data, 'sub'));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/cannot write .*: .* is a file, not a folder/);
  }, 60_000);
});
