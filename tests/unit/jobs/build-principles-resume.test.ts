/**
 * principles build resumes after an interruption (src/memory construction checkpoints), job and command; a resume
 * may raise --episodes (as simulate --resume), never below the episodes already finished.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../../cli/principles';
import { buildPrinciplesJob, type BuildCheckpoint } from '../../../src/jobs/build-principles';

const CONFIG = { task: 'cb' as const, episodes: 4, rngSeed: 2 };

function memoryCheckpoint(text: string | null = null) {
  const lines: string[] = [];
  const checkpoint: BuildCheckpoint = {
    source: 'mem',
    text,
    append: (line) => Promise.resolve(void lines.push(line)),
  };
  return { checkpoint, lines };
}

let dir = '';
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('principles build resume', () => {
  it('job: a build stopped after 2 episodes resumes from its checkpoint to the uninterrupted memory', async () => {
    const whole = await buildPrinciplesJob(CONFIG);
    const first = memoryCheckpoint();
    const stop = new AbortController();
    await expect(
      buildPrinciplesJob(CONFIG, {
        checkpoint: first.checkpoint,
        signal: stop.signal,
        onProgress: ({ done }) => done === 2 && stop.abort('test'),
      }),
    ).rejects.toThrow(expect.objectContaining({ name: 'AbortedError', code: 'JOB_ABORTED' }));
    expect(first.lines).toHaveLength(3); // header + 2 episodes
    const progress: number[] = [];
    const second = memoryCheckpoint(first.lines.join(''));
    const resumed = await buildPrinciplesJob(CONFIG, {
      checkpoint: second.checkpoint,
      onProgress: ({ done }) => progress.push(done),
    });
    expect(progress).toEqual([3, 4]);
    expect(second.lines).toHaveLength(2);
    expect(resumed).toEqual(whole);
    // Another build's checkpoint is refused naming the file and line.
    await expect(
      buildPrinciplesJob(
        { ...CONFIG, rngSeed: 3 },
        { checkpoint: memoryCheckpoint(first.lines.join('')).checkpoint },
      ),
    ).rejects.toThrow(
      expect.objectContaining({ name: 'CheckpointError', code: 'MEMORY_CHECKPOINT_DAMAGED' }),
    );
  });

  it('job: a resume may raise --episodes, to the memory of an uninterrupted build of the new count', async () => {
    const more = { ...CONFIG, episodes: 6 };
    const whole = await buildPrinciplesJob(more);
    const first = memoryCheckpoint();
    const stop = new AbortController();
    await expect(
      buildPrinciplesJob(CONFIG, {
        checkpoint: first.checkpoint,
        signal: stop.signal,
        onProgress: ({ done }) => done === 2 && stop.abort('test'),
      }),
    ).rejects.toThrow(expect.objectContaining({ code: 'JOB_ABORTED' }));
    const progress: number[] = [];
    const second = memoryCheckpoint(first.lines.join(''));
    const resumed = await buildPrinciplesJob(more, {
      checkpoint: second.checkpoint,
      onProgress: ({ done }) => progress.push(done),
    });
    expect(progress).toEqual([3, 4, 5, 6]);
    expect(second.lines).toHaveLength(4); // the new episodes only: the header stays the first build's
    expect(resumed).toEqual(whole);
    // Resumed once more, again with more: the header's count (the first build's) is no obstacle.
    const third = memoryCheckpoint([...first.lines, ...second.lines.slice(0, 2)].join(''));
    expect(await buildPrinciplesJob({ ...CONFIG, episodes: 5 }, { checkpoint: third.checkpoint })).toEqual(
      await buildPrinciplesJob({ ...CONFIG, episodes: 5 }),
    );
    // Fewer episodes than the checkpoint has finished: refused, naming episodes, before any episode is played.
    const fewer = memoryCheckpoint(first.lines.join(''));
    const played: number[] = [];
    const refused = await buildPrinciplesJob(
      { ...CONFIG, episodes: 1 },
      { checkpoint: fewer.checkpoint, onProgress: ({ done }) => played.push(done) },
    ).catch((e: unknown) => e);
    expect(refused).toMatchObject({
      name: 'CheckpointError',
      code: 'MEMORY_CHECKPOINT_DAMAGED',
      conflicts: [{ key: 'episodes', given: 1, stored: 2 }],
      message:
        'mem: holds 2 finished episodes, more than the 1 this build plays: give episodes 2 or more to resume it',
    });
    expect(played).toEqual([]);
    expect(fewer.lines).toEqual([]);
    // Any other setting that defines the build is still refused.
    await expect(
      buildPrinciplesJob(
        { ...more, maxAttempts: 2 },
        { checkpoint: memoryCheckpoint(first.lines.join('')).checkpoint },
      ),
    ).rejects.toThrow('mem line 1: made by another build: maxAttempts is 3, this build has 2');
  });

  it('command: --resume with more --episodes continues the build; with fewer than it finished, a usage error', async () => {
    const home = await mkdtemp(join(tmpdir(), 'pdl-principles-resume-more-'));
    try {
      const out = join(home, 'm.json');
      const checkpointFile = `${out}.checkpoint.jsonl`;
      const argv = (episodes: number) => [
        'build',
        '--task',
        'cb',
        '--episodes',
        String(episodes),
        '--rng-seed',
        '2',
        '--out',
        out,
        '--resume',
      ];
      const cut = memoryCheckpoint();
      const stop = new AbortController();
      await buildPrinciplesJob(CONFIG, {
        checkpoint: cut.checkpoint,
        signal: stop.signal,
        onProgress: ({ done }) => done === 2 && stop.abort('test'),
      }).catch(() => undefined);
      const text = cut.lines.join('');
      writeFileSync(checkpointFile, text);
      const err: string[] = [];
      const io = { stdout: () => {}, stderr: (s: string) => void err.push(s) };
      expect(await main(argv(1), io)).toBe(2);
      expect(err.join('')).toContain(
        `error: --resume: ${checkpointFile} already holds 2 finished episodes, more than the 1 this build plays ` +
          '(--episodes); resume with --episodes 2 or more, or move the file away or pass --overwrite to start again',
      );
      expect(readFileSync(checkpointFile, 'utf8')).toBe(text);
      expect(existsSync(out)).toBe(false);
      err.length = 0;
      expect(await main(argv(6), io), err.join('')).toBe(0);
      expect(existsSync(checkpointFile)).toBe(false);
      const whole = await buildPrinciplesJob({ ...CONFIG, episodes: 6 });
      expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(JSON.parse(JSON.stringify(whole.memory)));
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it('command: an interrupted build is refused without --resume and continued with it', async () => {
    dir = await mkdtemp(join(tmpdir(), 'pdl-principles-resume-'));
    const out = join(dir, 'm.json');
    const argv = ['build', '--task', 'cb', '--episodes', '4', '--rng-seed', '2', '--out', out];
    const err: string[] = [];
    const io = { stdout: () => {}, stderr: (s: string) => void err.push(s) };
    // An interrupted build: its checkpoint holds the header and two episodes.
    const cut = memoryCheckpoint();
    const stop = new AbortController();
    await buildPrinciplesJob(CONFIG, {
      checkpoint: cut.checkpoint,
      signal: stop.signal,
      onProgress: ({ done }) => done === 2 && stop.abort('test'),
    }).catch(() => undefined);
    writeFileSync(`${out}.checkpoint.jsonl`, cut.lines.join(''));
    expect(await main(argv, io)).toBe(2);
    expect(err.join('')).toContain('holds an interrupted build; pass --resume to continue it');
    expect(await main([...argv, '--resume'], io), err.join('')).toBe(0);
    expect(existsSync(`${out}.checkpoint.jsonl`)).toBe(false);
    const whole = await buildPrinciplesJob(CONFIG);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(JSON.parse(JSON.stringify(whole.memory)));
  });
});
