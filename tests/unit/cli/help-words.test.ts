/**
 * Words a new user reads: a `--no-…` option's help says that it turns off what is on by default (not a bare
 * "off:" that reads as the opposite), no option's help prints its default twice, and an interrupted
 * `principles build` names the command as the user typed it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as trainMain } from '../../../cli/train';
import { main as principlesMain } from '../../../cli/principles';
import { cli } from './run-main';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pdl-help-words-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('train --help', () => {
  it('--no-normalize-advantages says it turns the normalisation off', async () => {
    const r = await cli(trainMain, ['--help']);
    expect(r.code).toBe(0);
    const at = r.out.indexOf('--no-normalize-advantages');
    expect(at).toBeGreaterThan(0);
    const help = r.out.slice(at, r.out.indexOf('\n  --', at + 1)).replace(/\s+/g, ' ');
    expect(help).toContain('turn off what is on by default: normalise the advantages of each step');
    expect(r.out).not.toMatch(/ off: /);
  });

  it('no option prints its default twice (cstpo and grpo-emollm)', async () => {
    for (const argv of [['--help'], ['--algo', 'grpo-emollm', '--help']]) {
      const r = await cli(trainMain, argv);
      expect(r.code).toBe(0);
      const options = r.out.split('\n  --').slice(1);
      expect(options.length).toBeGreaterThan(10);
      for (const option of options) expect(option, option).not.toMatch(/default ([^;)]+)\).*default \1\)/s);
    }
    const grpo = await cli(trainMain, ['--algo', 'grpo-emollm', '--help']);
    expect(grpo.out).toMatch(
      /--depth N +reverse-perspective lookahead depth n \(range 1 to 8; default 3\)\n/,
    );
  });
});

describe('principles build interrupted', () => {
  it('says "principles build stopped", the command as typed, not the job\'s name', async () => {
    const out = join(dir, 'memory.json');
    const checkpoint = `${out}.checkpoint.jsonl`;
    const run = cli(principlesMain, ['build', '--task', 'cb', '--episodes', '5000', '--out', out]);
    // Interrupt once an episode is kept (the checkpoint's header line, then one line per finished episode).
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (
          existsSync(checkpoint) &&
          readFileSync(checkpoint, 'utf8').split('\n').filter(Boolean).length >= 2
        ) {
          clearInterval(poll);
          process.emit('SIGINT');
          resolve();
        }
      }, 5);
    });
    const r = await run;
    expect(r.code).toBe(130);
    expect(r.err).toMatch(
      /^principles build stopped: interrupted; \d+ finished episodes? (is|are) kept in /m,
    );
    expect(r.err).not.toContain('build-principles');
  });
});
