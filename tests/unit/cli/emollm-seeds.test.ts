/**
 * `--seeds emollm-ed=FILE.jsonl` and a bare `--seeds FILE.jsonl` with an EmoLLM setting: every command reads a
 * user's EmoLLM scenario JSONL through the one loader (src/data/node.ts → `parseEmollmSeeds`), so simulate and
 * evaluate play the same seeds; a malformed line, or a seed of another setting, ends with exit 1 naming file:line.
 * (The GRPO trainer's `--seeds` is tested in tests/unit/grpo/cli.test.ts.)
 */
import { writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as evaluateMain, parseEvaluateArgs } from '../../../cli/evaluate';
import { main as simulateMain } from '../../../cli/simulate';
import { loadSeedsFromPath } from '../../../src/data/node';
import { EMOLLM_SEED_SPECS } from '../../../src/tasks/defaults';
import { emollmSeedsToJsonl, parseEmollmSeeds } from '../../../src/tasks/emollm-loader';

let dir: string;
let good: string;
let bad: string;
let msd: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'emollm-seeds-'));
  good = join(dir, 'mine.jsonl');
  writeFileSync(good, emollmSeedsToJsonl(EMOLLM_SEED_SPECS.ed.slice(0, 2)));
  bad = join(dir, 'bad.jsonl');
  writeFileSync(bad, `${JSON.stringify(EMOLLM_SEED_SPECS.ed[0])}\n{"id": "x", "setting": "ed"}\n`);
  msd = join(dir, 'msd.jsonl');
  writeFileSync(msd, emollmSeedsToJsonl(EMOLLM_SEED_SPECS.msd.slice(0, 1)));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const io = () => {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: { stdout: (s: string) => out.push(s), stderr: (s: string) => err.push(s), isTTY: false },
  };
};

describe('the shared loader', () => {
  it('reads an EmoLLM setting’s scenario JSONL as parseEmollmSeeds does, and refuses another setting', async () => {
    const loaded = await loadSeedsFromPath(good, 'emollm-ed');
    expect(loaded.seeds).toEqual(parseEmollmSeeds(await readFile(good, 'utf8'), good).seeds);
    expect((await loadSeedsFromPath(msd, 'emollm')).seeds).toHaveLength(1);
    await expect(loadSeedsFromPath(msd, 'emollm-ed')).rejects.toThrow(
      `${msd}:1: setting: seed "${EMOLLM_SEED_SPECS.msd[0]!.id}" is of setting msd, not ed`,
    );
  });
});

describe('evaluate --seeds emollm-ed=FILE', () => {
  it('evaluates the file’s scenarios as the emollm-ed set, with the EmoLLM metrics', async () => {
    const c = io();
    const out = join(dir, 'eval');
    const argv = ['--task', 'emollm-ed', '--policy', 'random', '--seeds', `emollm-ed=${good}`];
    const code = await evaluateMain([...argv, '--out', out, '--json'], c.io);
    expect(c.err.join('')).not.toContain('error');
    expect(code).toBe(0);
    const report = JSON.parse(c.out.join(''));
    expect(report.config.seedSets).toEqual([expect.objectContaining({ name: 'emollm-ed', seeds: 2 })]);
    expect(report.emollm).toEqual([expect.objectContaining({ seedSet: 'emollm-ed', cases: 2 })]);
    // A bare path is for the one setting asked for, as in simulate.
    expect(parseEvaluateArgs(['--task', 'emollm-ed', '--policy', 'random', '--seeds', good])).toMatchObject({
      seeds: { 'emollm-ed': good },
    });
  });

  it('exit 1 naming file:line for a malformed line or a seed of another setting; exit 2 for a task not asked', async () => {
    const a = io();
    const run = (seeds: string, c: ReturnType<typeof io>) =>
      evaluateMain(
        ['--task', 'emollm-ed', '--policy', 'random', '--seeds', seeds, '--out', join(dir, 'e-bad')],
        c.io,
      );
    expect(await run(`emollm-ed=${bad}`, a)).toBe(1);
    expect(a.err.join('')).toContain(`${bad}:2: `);
    const b = io();
    expect(await run(msd, b)).toBe(1);
    expect(b.err.join('')).toContain(`${msd}:1: setting:`);
    const c = io();
    expect(await run(`emollm-msd=${msd}`, c)).toBe(2);
    expect(c.err.join('')).toContain('emollm-msd is not among the tasks (emollm-ed)');
  });
});

describe('simulate reads the same file the same way', () => {
  it('plays the file’s seeds; a seed of another setting is exit 1 naming file:line', async () => {
    const c = io();
    const code = await simulateMain(
      ['--task', 'emollm-ed', '--seeds', `emollm-ed=${good}`, '--episodes', '2', '--json'],
      c.io,
    );
    expect(code).toBe(0);
    expect(JSON.parse(c.out.join(''))).toMatchObject({ seeds: 2, seedSource: good });
    const d = io();
    expect(await simulateMain(['--task', 'emollm-ed', '--seeds', msd, '--episodes', '1'], d.io)).toBe(1);
    expect(d.err.join('')).toContain(`${msd}:1:`);
  });
});

describe('--task emollm (all four settings) with a file', () => {
  it('is a usage error that names the per-setting form, in simulate and evaluate', async () => {
    const s = io();
    expect(await simulateMain(['--task', 'emollm', '--seeds', good, '--episodes', '1'], s.io)).toBe(2);
    expect(s.err.join('')).toContain('name the setting: --task esconv --seed-set emollm-ed --seeds FILE');
    const e = io();
    const argv = ['--task', 'emollm', '--policy', 'random', '--seeds', good, '--out', join(dir, 'e-all')];
    expect(await evaluateMain(argv, e.io)).toBe(2);
    expect(e.err.join('')).toContain('name the setting');
  });
});
