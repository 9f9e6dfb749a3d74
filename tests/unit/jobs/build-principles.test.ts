import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../../cli/principles';
import { buildPrinciplesJob } from '../../../src/jobs/build-principles';
import { ConfigError } from '../../../src/errors';

describe('build-principles job', () => {
  let dir = '';
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('gives the same memory for the same configuration, another for another rng seed', async () => {
    const progress: number[] = [];
    const a = await buildPrinciplesJob(
      { task: 'esconv', episodes: 3, rngSeed: 5 },
      { onProgress: ({ done }) => progress.push(done) },
    );
    expect(progress).toEqual([1, 2, 3]);
    expect(a.memory.principles.length).toBe(a.kept);
    expect(a.kept).toBeGreaterThan(0);
    const b = await buildPrinciplesJob({ task: 'esconv', episodes: 3, rngSeed: 5 });
    expect(b).toEqual(a);
    const c = await buildPrinciplesJob({ task: 'esconv', episodes: 3, rngSeed: 6 });
    expect(c.memory.principles).not.toEqual(a.memory.principles);
  });

  it('the CLI writes the memory of a direct job call', async () => {
    dir = await mkdtemp(join(tmpdir(), 'pdl-principles-job-'));
    const out = join(dir, 'm.json');
    const err: string[] = [];
    const io = { stdout: () => {}, stderr: (s: string) => err.push(s) };
    const argv = ['build', '--task', 'cb', '--episodes', '2', '--rng-seed', '7', '--name', 'x', '--out', out];
    expect(await main(argv, io), err.join('')).toBe(0);
    const job = await buildPrinciplesJob({ task: 'cb', episodes: 2, rngSeed: 7, name: 'x' });
    expect(JSON.parse(await readFile(out, 'utf8'))).toEqual(JSON.parse(JSON.stringify(job.memory)));
  });

  it('stops when aborted and rejects a bad configuration naming the field', async () => {
    const stop = new AbortController();
    await expect(
      buildPrinciplesJob(
        { task: 'p4g', episodes: 5 },
        { signal: stop.signal, onProgress: ({ done }) => done === 1 && stop.abort('test') },
      ),
    ).rejects.toThrow(expect.objectContaining({ name: 'AbortedError', code: 'JOB_ABORTED' }));
    await expect(buildPrinciplesJob({ task: 'p4g', episodes: 0 })).rejects.toThrow(
      ConfigError.fromIssues('build-principles', [
        { path: 'episodes', message: 'Too small: expected number to be >=1' },
      ]),
    );
  });
});
