/**
 * `pdl`, the one command with subcommands (docs/architecture.md "Command line"): the dispatcher's table, its
 * usage and errors, and each subcommand reached through it with the help its own module computes (respelled
 * for `pdl`). The built bin (stored help, `npx pdl`) is tested from the packed tarball in tests/package.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMANDS, isHelpRequest, main, pdlSpelling, usage, type CommandIo } from '../../../cli/dispatch';

function capture(): CommandIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    isTTY: false,
    stdout: (s: string) => void (io.out += s),
    stderr: (s: string) => void (io.err += s),
  };
  return io;
}

describe('pdl dispatcher', () => {
  it('has a subcommand for every command entry of cli/ (a module exporting main)', () => {
    const dir = new URL('../../../cli/', import.meta.url);
    const entries = readdirSync(dir).filter(
      (f) =>
        f.endsWith('.ts') &&
        !['dispatch.ts', 'pdl.ts'].includes(f) &&
        /^export async function main\(/m.test(readFileSync(new URL(f, dir), 'utf8')),
    );
    expect(entries.length).toBeGreaterThan(3);
    expect(entries.map((f) => f.replace(/\.ts$/, '')).sort()).toEqual(Object.keys(COMMANDS).sort());
  });

  it('--help lists every command with its summary; no command prints it to stderr with exit code 2', async () => {
    const io = capture();
    expect(await main(['--help'], io)).toBe(0);
    for (const [name, c] of Object.entries(COMMANDS)) {
      expect(io.out.split('\n')).toContainEqual(expect.stringMatching(new RegExp(`^  ${name} +\\S`)));
      expect(io.out).toContain(c.summary);
    }
    expect(io.out).toBe(usage());
    const none = capture();
    expect(await main([], none)).toBe(2);
    expect(none.out).toBe('');
    expect(none.err).toBe(usage());
  });

  it('an unknown command is a usage error naming the commands', async () => {
    const io = capture();
    expect(await main(['simulat'], io)).toBe(2);
    expect(io.err).toMatch(/unknown command 'simulat'; the commands: simulate, evaluate/);
    const proto = capture();
    expect(await main(['toString'], proto)).toBe(2);
  });

  it('--version prints the version given', async () => {
    const io = capture();
    expect(await main(['--version'], io, '9.9.9')).toBe(0);
    expect(io.out).toBe('9.9.9\n');
  });

  it('respells the npm scripts of its own commands only', () => {
    expect(pdlSpelling('Usage: npm run simulate -- --task TASK')).toBe('Usage: pdl simulate --task TASK');
    expect(pdlSpelling('  npm run principles -- build --task esconv')).toBe(
      '  pdl principles build --task esconv',
    );
    expect(pdlSpelling('  npm run validate-sim\n')).toBe('  pdl validate-sim\n');
    expect(pdlSpelling('(npm run bench -- --filter x)')).toBe('(npm run bench -- --filter x)');
  });

  it('stored help is used only for the one-argument form', () => {
    expect(isHelpRequest(['--help'])).toBe(true);
    expect(isHelpRequest(['-h'])).toBe(true);
    expect(isHelpRequest(['--help', '--task', 'esconv'])).toBe(false);
    expect(isHelpRequest([])).toBe(false);
  });

  it.each(Object.keys(COMMANDS))(
    'pdl %s --help loads the command and prints its help as pdl spells it',
    async (name) => {
      const io = capture();
      expect(await main([name, '--help'], io)).toBe(0);
      expect(io.out).toMatch(new RegExp(`^Usage: pdl ${name} `));
      expect(io.out).not.toMatch(new RegExp(`npm run ${name}\\b`));
      expect(io.err).toBe('');
    },
    60_000,
  );

  it('help NAME is NAME --help', async () => {
    const a = capture();
    const b = capture();
    expect(await main(['help', 'validate-sim'], a)).toBe(0);
    expect(await main(['validate-sim', '--help'], b)).toBe(0);
    expect(a.out).toBe(b.out);
  });
});
