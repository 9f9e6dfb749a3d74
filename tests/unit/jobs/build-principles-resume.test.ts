/** principles build resumes after an interruption (src/memory construction checkpoints), job and command. */
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
