/**
 * Wrong kinds of paths and runs: a run of the other trainer is named as such before any snapshot is
 * read, a run folder given as a file and a memory file given as a folder say what the path is, and the commands
 * report all three, and an empty `--seeds`, as usage errors (exit 2).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as principlesMain } from '../../../cli/principles';
import { main as simulateMain } from '../../../cli/simulate';
import { main as trainMain } from '../../../cli/train';
import { FileGrpoRunStore } from '../../../src/grpo/node';
import type { GrpoRunRecord } from '../../../src/grpo/store';
import type { GrpoSnapshot } from '../../../src/grpo/trainer';
import { readTextFile } from '../../../src/io/node';
import { FileRunStore } from '../../../src/rl/node';
import type { RunRecord } from '../../../src/rl/store';
import type { TrainerSnapshot } from '../../../src/rl/trainer';
import { runKindError } from '../../../src/runs/errors';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pdl-run-kind-'));
  const base = {
    config: { task: 'esconv', steps: 1 },
    step: 0,
    status: 'stopped',
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  };
  // Snapshots that would fail either kind's check: the kind must be told from run.json before they are read.
  await new FileGrpoRunStore(dir).createRun(
    { ...base, id: 'g1', algo: 'grpo-emollm' } as unknown as GrpoRunRecord,
    { step: 0 } as unknown as GrpoSnapshot,
    { files: { 'split.json': '{}' } },
  );
  await new FileRunStore(dir).createRun(
    { ...base, id: 't1' } as unknown as RunRecord,
    { step: 0 } as unknown as TrainerSnapshot,
    { files: { 'split.json': '{}' } },
  );
  await writeFile(join(dir, 'esconv.jsonl'), '{}\n');
  await mkdir(join(dir, 'memories'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function io() {
  const err: string[] = [];
  return { err, io: { stdout: () => undefined, stderr: (s: string) => err.push(s), isTTY: false } };
}

describe('run kind', () => {
  it('names a GRPO run loaded as a CSTPO one, and the reverse', async () => {
    await expect(new FileRunStore(dir).load('g1')).rejects.toThrow(
      runKindError(join(dir, 'g1'), 'grpo-emollm', 'cstpo'),
    );
    await expect(new FileRunStore(dir).load('g1')).rejects.toThrow(/g1 is a grpo-emollm run, not a CSTPO run$/);
    await expect(new FileGrpoRunStore(dir).load('t1')).rejects.toThrow(
      /t1 is a CSTPO run, not a grpo-emollm run$/,
    );
  });

  it('says a run folder given as a file is a file', async () => {
    const err = await new FileRunStore(dir).load('esconv.jsonl').catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'PathError', code: 'PATH_KIND_MISMATCH' });
    expect((err as Error).message).toBe(`${join(dir, 'esconv.jsonl')} is a file, not a run folder`);
  });

  it('says a file to read that is a folder is a folder', async () => {
    const path = join(dir, 'memories');
    await expect(readTextFile(path, { file: 'memory file' })).rejects.toThrow(
      `${path} is a folder, not a memory file`,
    );
  });
});

describe('commands', () => {
  it('simulate: a run folder given as a file, a GRPO run, an empty --seeds are usage errors', async () => {
    for (const [args, message] of [
      [['--policy', `cstpo:${join(dir, 'esconv.jsonl')}`], 'esconv.jsonl is a file, not a run folder'],
      [['--policy', `cstpo:${join(dir, 'g1')}`], 'g1 is a grpo-emollm run, not a CSTPO run'],
      [['--seeds', ''], '--seeds is empty'],
    ] as const) {
      const c = io();
      expect(await simulateMain(['--task', 'esconv', '--episodes', '1', ...args], c.io)).toBe(2);
      expect(c.err.join('')).toContain(message);
    }
  });

  it('principles query: a memory folder is a usage error', async () => {
    const c = io();
    const args = ['query', '--memory', join(dir, 'memories'), '--task', 'esconv', '--text', 'x'];
    expect(await principlesMain(args, c.io)).toBe(2);
    expect(c.err.join('')).toContain('memories is a folder, not a memory file');
  });

  it('train --resume: a GRPO run says so, and the reverse', async () => {
    const c = io();
    expect(await trainMain(['--resume', '--out', join(dir, 'g1')], c.io)).toBe(2);
    expect(c.err.join('')).toMatch(/g1 is a grpo-emollm run, not a CSTPO run\n\(use --algo grpo-emollm/);
    const g = io();
    expect(await trainMain(['--algo', 'grpo-emollm', '--resume', '--out', join(dir, 't1')], g.io)).toBe(2);
    expect(g.err.join('')).toContain('t1 is a CSTPO run, not a grpo-emollm run');
  });
});
