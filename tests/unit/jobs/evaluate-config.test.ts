/**
 * The evaluate job's configuration applies the episode jobs' lookahead rule (the one simulate applies): the arg
 * policy's lookahead is at most the horizon of every task evaluated, refused before any episode.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../../cli/evaluate';

import { EvaluateConfigSchema, evaluateJob } from '../../../src/jobs/evaluate';
import { SimulateConfigSchema } from '../../../src/jobs/simulate';

let dir = '';
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('evaluate --lookahead', () => {
  it('is refused beyond the horizon, like simulate, naming the task and horizon', async () => {
    await expect(
      evaluateJob({ tasks: ['cb'], policies: ['arg'], horizon: 3, lookahead: 20 }),
    ).rejects.toThrow(expect.objectContaining({ name: 'ConfigError', code: 'JOB_CONFIG_INVALID' }));
    await expect(
      evaluateJob({ tasks: ['cb'], policies: ['arg'], horizon: 3, lookahead: 20 }),
    ).rejects.toThrow(/lookahead: at most the horizon \(3 turns for cb under cstpo\), got 20/);
    // The protocol's horizon when none is given: the shortest task counts (ESConv under ppdpp: 8 turns).
    const issue = (schema: typeof EvaluateConfigSchema | typeof SimulateConfigSchema, c: object) =>
      schema.safeParse(c).error?.issues[0]?.message;
    expect(
      issue(EvaluateConfigSchema, {
        tasks: ['cb', 'esconv'],
        policies: ['arg'],
        protocol: 'ppdpp',
        lookahead: 9,
      }),
    ).toBe(issue(SimulateConfigSchema, { task: 'esconv', policy: 'arg', protocol: 'ppdpp', lookahead: 9 }));
    expect(EvaluateConfigSchema.safeParse({ tasks: ['cb'], policies: ['arg'], lookahead: 3 }).success).toBe(
      true,
    );
  });

  it('exits 2 from the command line before any episode is played', async () => {
    dir = await mkdtemp(join(tmpdir(), 'pdl-eval-lookahead-'));
    const out = join(dir, 'e');
    const err: string[] = [];
    const code = await main(
      ['--task', 'cb', '--policy', 'arg', '--horizon', '3', '--lookahead', '20', '--out', out],
      { stdout: () => {}, stderr: (s) => void err.push(s), isTTY: false },
    );
    expect(code).toBe(2);
    expect(err.join('')).toMatch(/lookahead: at most the horizon \(3 turns for cb under cstpo\), got 20/);
    expect(await readdir(out).catch(() => [])).not.toContain('manifest.json');
  });
});

describe('evaluate --judge-repeats and --level', () => {
  const quiet = { stdout: () => {}, stderr: () => {}, isTTY: false };

  it('reach the harness from the command line: the report records them and each judge call is judged 5 times', async () => {
    dir ||= await mkdtemp(join(tmpdir(), 'pdl-eval-lookahead-'));
    const out = join(dir, 'judge-repeats');
    const code = await main(
      [
        ...['--task', 'cb', '--policy', 'random', '--episodes', '1', '--horizon', '2', '--resamples', '100'],
        ...['--judge-repeats', '5', '--level', '0.9', '--out', out, '--json'],
      ],
      quiet,
    );
    expect(code).toBe(0);
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as {
      config: { judgeRepeats: number; level: number };
    };
    expect(report.config).toMatchObject({ judgeRepeats: 5, level: 0.9 });
    const [line] = (await readFile(join(out, 'trajectories', 'cb', 'random.jsonl'), 'utf8')).split('\n');
    const record = JSON.parse(line as string) as { judgeRuns: { terminal: unknown[] } };
    expect(record.judgeRuns.terminal).toHaveLength(5);
  });

  it('default to the harness defaults (3 judgments, 95%) when not given', async () => {
    const { report } = await evaluateJob({
      tasks: ['cb'],
      policies: ['random'],
      episodes: 1,
      horizon: 2,
      resamples: 100,
    });
    expect(report.config).toMatchObject({ judgeRepeats: 3, level: 0.95 });
  });

  it('are refused outside their ranges with exit code 2', async () => {
    for (const [flag, value] of [
      ['--judge-repeats', '0'],
      ['--judge-repeats', '26'],
      ['--level', '1'],
      ['--level', '0'],
    ] as const) {
      const err: string[] = [];
      const code = await main(['--task', 'cb', '--policy', 'random', flag, value], {
        ...quiet,
        stderr: (s) => void err.push(s),
      });
      expect(code).toBe(2);
      expect(err.join('')).toContain(`${flag} must be`);
    }
  });
});
