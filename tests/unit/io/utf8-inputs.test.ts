/**
 * Non-UTF-8 input is reported for every file a command reads, not only datasets: replay fixtures
 * (`--fixtures`), principle memory files (`principles query|eval --memory`, `--policy principles:FILE`) and run
 * files all go through the strict reader of src/io/node.ts, so an invalid byte is named with the file, the line and
 * the byte offset, never read as U+FFFD.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixturesFileError, readFixtures, UsageError } from '../../../cli/options';
import { main as principles } from '../../../cli/principles';
import { loadPolicyResources } from '../../../cli/resources';
import { fileReadError } from '../../../src/io';
import { FileRunStore } from '../../../src/rl/node';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pdl-utf8-inputs-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `{"a": 1,\n"b": "caf<0xE9>"}`: the Latin-1 "é" at byte 18, on line 2. */
const LATIN1 = Buffer.concat([Buffer.from('{"a": 1,\n"b": "caf'), Buffer.from([0xe9]), Buffer.from('"}\n')]);
const REASON = 'line 2 is not UTF-8 (invalid byte 0xe9 at byte 18)';

describe('non-UTF-8 input names the file, the line and the byte', () => {
  it('a replay fixture file (--fixtures)', async () => {
    const path = join(dir, 'fixture.json');
    await writeFile(path, LATIN1);
    const error = await readFixtures(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FixturesFileError);
    expect((error as Error).message).toBe(`--fixtures: cannot read ${path}: ${REASON}`);
  });

  it('a principle memory file (principles query --memory; --policy principles:FILE)', async () => {
    const path = join(dir, 'memory.json');
    await writeFile(path, LATIN1);
    let err = '';
    const code = await principles(['query', '--task', 'esconv', '--memory', path, '--text', 'low'], {
      stdout: () => {},
      stderr: (s) => void (err += s),
    });
    expect(code).toBe(1);
    expect(err).toBe(`error: cannot read ${path}: ${REASON}\n`);
    await expect(loadPolicyResources([`principles:${path}`])).rejects.toThrow(
      new UsageError(`--policy principles:${path}: cannot read ${path}: ${REASON}`),
    );
  });

  it('a run file', async () => {
    await mkdir(join(dir, 'runs', 'r'), { recursive: true });
    const path = join(dir, 'runs', 'r', 'run.json');
    await writeFile(path, LATIN1);
    await expect(new FileRunStore(join(dir, 'runs')).load('r')).rejects.toThrow(fileReadError(path, REASON));
  });
});
