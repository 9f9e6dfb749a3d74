/**
 * `validate-sim`'s numeric options: each has a documented range, shown in `--help`; a value outside it
 * is a usage error (exit 2, one plain message naming the option and its range) and nothing runs.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main, parseValidateArgs } from '../../../cli/validate-sim';

function capture() {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    io: { stdout: (s: string) => void (out.stdout += s), stderr: (s: string) => void (out.stderr += s) },
  };
}

describe('validate-sim option ranges', () => {
  it('shows every numeric range in --help', async () => {
    const r = capture();
    expect(await main(['--help'], r.io)).toBe(0);
    expect(r.out.stdout).toContain('range 1 to 1,000');
    expect(r.out.stdout).toContain('range 0 to 1,000');
    expect(r.out.stdout).toContain('range 100 to 100,000');
  });

  it.each([
    ['--resamples', '1', /--resamples must be an integer in 100 to 100,000, got "1"/],
    ['--resamples', '99999999999', /--resamples must be an integer in 100 to 100,000/],
    ['--resamples', '1e3', /--resamples must be an integer/],
    ['--dose-seeds', '0', /--dose-seeds must be an integer in 1 to 1,000, got "0"/],
    ['--dose-seeds', '1001', /--dose-seeds must be an integer in 1 to 1,000/],
    ['--check-seeds', '-1', /--check-seeds must be an integer in 0 to 1,000, got "-1"/],
    ['--check-seeds', '2.5', /--check-seeds must be an integer in 0 to 1,000/],
    ['--exploit-seeds', '-1', /--exploit-seeds must be an integer in 0 to 1,000, got "-1"/],
    ['--exploit-seeds', '1001', /--exploit-seeds must be an integer in 0 to 1,000/],
  ])('%s %s: exit 2, a plain message, nothing run', async (flag, value, message) => {
    const out = join(mkdtempSync(join(tmpdir(), 'validity-range-')), 'out');
    const r = capture();
    expect(await main(['--task', 'cb', flag, value, '--out', out], r.io)).toBe(2);
    expect(r.out.stderr).toMatch(message);
    expect(r.out.stderr.split('\n')).toHaveLength(3);
    expect(r.out.stderr).not.toMatch(/\bat .*\.ts:\d+/);
    expect(r.out.stdout).toBe('');
    expect(existsSync(out)).toBe(false);
  });

  it('--no-exploits skips the exploit table; with a positive --exploit-seeds it is a usage error', async () => {
    const args = (argv: string[]) => {
      const a = parseValidateArgs(argv);
      if (a === 'help') throw new Error('unexpected help');
      return a;
    };
    expect(args([]).exploitSeeds).toBe(20);
    expect(args(['--exploit-seeds', '7']).exploitSeeds).toBe(7);
    expect(args(['--no-exploits']).exploitSeeds).toBe(0);
    expect(args(['--no-exploits', '--exploit-seeds', '0']).exploitSeeds).toBe(0);
    const r = capture();
    expect(await main(['--task', 'cb', '--no-exploits', '--exploit-seeds', '5'], r.io)).toBe(2);
    expect(r.out.stderr).toMatch(/--no-exploits and --exploit-seeds 5 contradict each other/);
    const h = capture();
    expect(await main(['--help'], h.io)).toBe(0);
    expect(h.out.stdout).toContain('--exploit-seeds N');
    expect(h.out.stdout).toContain('--no-exploits');
  });
});
