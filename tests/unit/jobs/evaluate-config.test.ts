/**
 * The evaluate job's configuration applies the episode jobs' lookahead rule (the one simulate applies): the arg
 * policy's lookahead is at most the horizon of every task evaluated, refused before any episode.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../../cli/evaluate';
import { JobConfigError } from '../../../src/jobs/errors';
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
    ).rejects.toThrow(JobConfigError);
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
