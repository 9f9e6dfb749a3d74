/**
 * Named seed sets (TaskDefinition.seedSets): EmoLLM's settings are seed sets of `esconv`, chosen by `seedSet` in
 * the job configurations and `--seed-set NAME` on the command line. The old task names (`--task emollm-ed`,
 * `task: 'emollm-ed'`) still work through one normalising edge, with a one-line notice, and give the same
 * results; an unknown seed-set name is a typed error listing the valid names.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as evaluateMain } from '../../../cli/evaluate';
import { main as exportChatMain } from '../../../cli/export-chat';
import { main as simulateMain } from '../../../cli/simulate';
import { parseGrpoArgs } from '../../../cli/train-grpo';
import { ConfigError } from '../../../src/errors';
import { evaluateJob } from '../../../src/jobs/evaluate';
import { simulateJob } from '../../../src/jobs/simulate';
import { EMOLLM_SEED_SPECS } from '../../../src/tasks/defaults';
import { EMOLLM_HORIZON } from '../../../src/tasks/emollm';
import { getSeedSet, legacyTaskName, seedSetNames, seedSetParts } from '../../../src/tasks/seed-sets';
import { cli } from '../cli/run-main';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'seed-sets-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const VALID = 'emollm-ed, emollm-msd, emollm-medd, emollm-iclr, emollm';

describe('seed sets of a task', () => {
  it("esconv's EmoLLM sets carry their seeds, the 8-turn cap and EmoLLM's success rule", () => {
    expect(seedSetNames('esconv')).toEqual(VALID.split(', '));
    expect(seedSetNames('p4g')).toEqual([]);
    const msd = getSeedSet('esconv', 'emollm-msd');
    expect(msd.horizon).toBe(EMOLLM_HORIZON);
    expect(msd.seeds().map((s) => s.id)).toEqual(EMOLLM_SEED_SPECS.msd.map((s) => s.id));
    expect(msd.success?.isResolved({ state: 4, previousState: 4, initialState: 2, closing: false })).toBe(
      true,
    );
    expect(msd.success?.isResolved({ state: 4, previousState: 2, initialState: 2, closing: false })).toBe(
      false,
    );
    // The union: its members, each apart, in order.
    expect(seedSetParts('esconv', 'emollm').map((p) => [p.name, p.seeds.length])).toEqual([
      ['emollm-ed', 40],
      ['emollm-msd', 40],
      ['emollm-medd', 40],
      ['emollm-iclr', 40],
    ]);
    expect(legacyTaskName('emollm-iclr')).toEqual({
      name: 'emollm-iclr',
      task: 'esconv',
      seedSet: 'emollm-iclr',
    });
    expect(legacyTaskName('esconv')).toBeNull();
  });

  it('an unknown name is ConfigError SEED_SET_UNKNOWN listing the valid names, in code and in the jobs', async () => {
    const check = (e: unknown) => {
      expect(e).toBeInstanceOf(ConfigError);
      expect((e as ConfigError).code).toBe('SEED_SET_UNKNOWN');
      expect((e as ConfigError).message).toContain('"emollm-xx"');
      expect((e as ConfigError).message).toContain(VALID);
    };
    let thrown: unknown;
    try {
      getSeedSet('esconv', 'emollm-xx');
    } catch (e) {
      thrown = e;
    }
    check(thrown);
    check(await simulateJob({ task: 'esconv', seedSet: 'emollm-xx' }).catch((e: unknown) => e));
    check(
      await evaluateJob({ tasks: ['esconv'], seedSet: ['emollm-xx'], policies: ['random'] }).catch(
        (e: unknown) => e,
      ),
    );
    expect(() => getSeedSet('cb', 'emollm-ed')).toThrow('cb has no named seed sets');
  });
});

describe('the old task names', () => {
  it('simulateJob: task emollm-ed plays as task esconv with seed set emollm-ed, with one notice', async () => {
    const notices: string[] = [];
    const old = await simulateJob(
      { task: 'emollm-ed', episodes: 2 },
      { onNotice: (t) => void notices.push(t) },
    );
    const now = await simulateJob(
      { task: 'esconv', seedSet: 'emollm-ed', episodes: 2 },
      { onNotice: (t) => void notices.push(t) },
    );
    expect(notices).toEqual([
      "notice: task 'emollm-ed' is now task 'esconv' with seedSet 'emollm-ed' (the old spelling still works)\n",
    ]);
    expect(now).toEqual(old);
    expect(now.taskName).toBe('emollm-ed');
  });

  it('evaluateJob: tasks [emollm] gives the same report as tasks [esconv] with seedSet [emollm]', async () => {
    const notices: string[] = [];
    const generatedAt = new Date(0);
    const base = { policies: ['random'], episodes: 1, resamples: 100 };
    const old = await evaluateJob(
      { ...base, tasks: ['emollm'] },
      { generatedAt, onNotice: (t) => void notices.push(t) },
    );
    const now = await evaluateJob(
      { ...base, tasks: ['esconv'], seedSet: ['emollm'] },
      { generatedAt, onNotice: (t) => void notices.push(t) },
    );
    expect(notices).toHaveLength(1);
    expect(now.report).toEqual(old.report);
    expect(now.report.config.horizon).toBe(EMOLLM_HORIZON);
    // A task also named by its own name keeps its default seeds, as before.
    const mixed = await evaluateJob(
      { ...base, tasks: ['esconv', 'emollm-ed'], horizon: 3 },
      { generatedAt, onNotice: () => {} },
    );
    expect(mixed.report.config.seedSets.map((s) => s.name)).toEqual(['bundled', 'emollm-ed']);
  });

  it('simulate --task emollm-ed: the same summary as --task esconv --seed-set emollm-ed, plus the notice', async () => {
    const args = ['--policy', 'random', '--episodes', '2', '--json'];
    const old = await cli(simulateMain, ['--task', 'emollm-ed', ...args]);
    const now = await cli(simulateMain, ['--task', 'esconv', '--seed-set', 'emollm-ed', ...args]);
    expect([old.code, now.code]).toEqual([0, 0]);
    expect(old.err).toBe(
      'notice: --task emollm-ed is now --task esconv --seed-set emollm-ed (the old spelling still works)\n',
    );
    expect(now.err).toBe('');
    expect(now.out).toBe(old.out);
    const text = await cli(simulateMain, ['--task', 'esconv', '--seed-set', 'emollm-msd', '--episodes', '1']);
    expect(text.out).toMatch(/^EmoLLM technical assistance \(MSDialog-like\) · policy random/);
  });

  it('evaluate --task emollm-ed writes the same report files as --task esconv --seed-set emollm-ed', async () => {
    const args = ['--policy', 'random', '--episodes', '2', '--resamples', '100'];
    const oldOut = join(dir, 'old');
    const nowOut = join(dir, 'now');
    const old = await cli(evaluateMain, ['--task', 'emollm-ed', ...args, '--out', oldOut]);
    const now = await cli(evaluateMain, [
      '--task',
      'esconv',
      '--seed-set',
      'emollm-ed',
      ...args,
      '--out',
      nowOut,
    ]);
    expect([old.code, now.code]).toEqual([0, 0]);
    expect(old.err).toContain('notice: --task emollm-ed is now --task esconv --seed-set emollm-ed');
    expect(now.err).not.toContain('notice: --task');
    const read = async (folder: string, name: string) =>
      (await readFile(join(folder, name), 'utf8'))
        .replace(/"generatedAt":\s*"[^"]*"/g, '')
        .replace(/generated [^\n]*/g, '');
    for (const name of ['report.csv', 'report.json', 'report.md'])
      expect(await read(nowOut, name), name).toBe(await read(oldOut, name));
  });

  it('export-chat --task emollm-ed exports as --seed-set emollm-ed does (the seed set’s seeds)', async () => {
    const run = join(dir, 'run.jsonl');
    expect(
      (
        await cli(simulateMain, [
          '--task',
          'esconv',
          '--seed-set',
          'emollm-ed',
          '--episodes',
          '1',
          '--out',
          run,
        ])
      ).code,
    ).toBe(0);
    const [a, b] = [join(dir, 'a.jsonl'), join(dir, 'b.jsonl')];
    const now = await cli(exportChatMain, ['--in', run, '--out', a, '--seed-set', 'emollm-ed']);
    const old = await cli(exportChatMain, ['--in', run, '--out', b, '--task', 'emollm-ed']);
    expect([now.code, old.code]).toEqual([0, 0]);
    expect(old.err).toContain('notice: --task emollm-ed is now --task esconv --seed-set emollm-ed');
    expect(await readFile(a, 'utf8')).toBe(await readFile(b, 'utf8'));
    // Without the option, the seed set the lines record is used: the same rows.
    const c = join(dir, 'c.jsonl');
    const none = await cli(exportChatMain, ['--in', run, '--out', c]);
    expect(none.code).toBe(0);
    expect(await readFile(c, 'utf8')).toBe(await readFile(a, 'utf8'));
    // Another seed set named explicitly wins, and does not hold the episode's seed.
    const other = await cli(exportChatMain, [
      '--in',
      run,
      '--out',
      join(dir, 'd.jsonl'),
      '--seed-set',
      'emollm-msd',
    ]);
    expect(other.code).toBe(2);
    expect(other.err).toContain('pass the same --seeds (and --task, --seed-set) as the run');
  });

  it('train --algo grpo-emollm: --seed-set is the seed source; --task emollm-msd the same, with the notice', () => {
    const base = ['--algo', 'grpo-emollm', '--out', join(dir, 'grpo')];
    const err: string[] = [];
    const io = { stdout: () => {}, stderr: (t: string) => void err.push(t), isTTY: false };
    const now = parseGrpoArgs([...base, '--task', 'esconv', '--seed-set', 'emollm-msd'], io);
    expect(err).toEqual([]);
    const old = parseGrpoArgs([...base, '--task', 'emollm-msd'], io);
    expect(err.join('')).toContain('notice: --task emollm-msd is now --task esconv --seed-set emollm-msd');
    expect(now).toEqual(old);
    expect(now).toMatchObject({ task: 'esconv', seeds: 'emollm-msd' });
    expect(() => parseGrpoArgs([...base, '--task', 'esconv', '--seed-set', 'nope'], io)).toThrow(
      `unknown seed set "nope" of task esconv; valid seed sets: ${VALID}`,
    );
  });

  it('an unknown --seed-set is a usage error listing the valid names', async () => {
    const s = await cli(simulateMain, ['--task', 'esconv', '--seed-set', 'emollm-xx']);
    expect(s.code).toBe(2);
    expect(s.err).toContain(`unknown seed set "emollm-xx" of task esconv; valid seed sets: ${VALID}`);
    const e = await cli(evaluateMain, ['--task', 'esconv', '--seed-set', 'emollm-xx', '--policy', 'random']);
    expect(e.code).toBe(2);
    expect(e.err).toContain(`unknown seed set "emollm-xx" of esconv; valid seed sets: ${VALID}, bundled`);
  });
});
