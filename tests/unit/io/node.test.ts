import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LabError, DataFormatError, PathError, OutputConflictError } from '../../../src/errors';
import {
  assertOutputAvailable,
  createDirAtomic,
  openJsonlWriter,
  readJsonFile,
  readJsonlLines,
  readTextFile,
  writeFileAtomic,
} from '../../../src/io/node';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lab-io-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Run the kill fixture, wait for it to report its temporary path, then SIGKILL it. */
async function killAfterWrite(mode: 'jsonl' | 'dir', target: string): Promise<string> {
  const script = resolve(__dirname, 'fixtures/killed-writer.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', script, mode, target], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const temp = await new Promise<string>((done, fail) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /WRITTEN (.+)\n/.exec(out);
      if (match?.[1]) done(match[1]);
    });
    child.on('exit', (code) => fail(new Error(`child exited early (${code})`)));
  });
  const exited = new Promise((done) => child.on('exit', done));
  child.kill('SIGKILL');
  await exited;
  return temp;
}

describe('writeFileAtomic', () => {
  it('writes, replaces whole, and leaves no temporary file', async () => {
    const path = join(dir, 'sub', 'manifest.json');
    await writeFileAtomic(path, '{"v":1}');
    await writeFileAtomic(path, '{"v":2}');
    expect(await readFile(path, 'utf8')).toBe('{"v":2}');
    expect(await readdir(join(dir, 'sub'))).toEqual(['manifest.json']);
  });

  it('refuses a path under a file with a typed error naming the path', async () => {
    await writeFile(join(dir, 'a-file'), 'x');
    const target = join(dir, 'a-file', 'out.json');
    const error = await writeFileAtomic(target, '{}').catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'PathError', code: 'OUTPUT_PATH_INVALID' });
    expect(error).toBeInstanceOf(LabError);
    expect((error as PathError).code).toBe('OUTPUT_PATH_INVALID');
    expect((error as Error).message).toContain(target);
    expect((error as Error).message).not.toMatch(/ENOTDIR|EEXIST/);
  });
});

describe('a kill between write and rename', () => {
  it('leaves the previous JSONL file whole (streaming writer killed with SIGKILL)', async () => {
    const path = join(dir, 'episodes.jsonl');
    const previous = '{"episode":0,"text":"old"}\n{"episode":1,"text":"old"}\n';
    await writeFileAtomic(path, previous);
    const temp = await killAfterWrite('jsonl', path);
    expect((await stat(temp)).size).toBeGreaterThan(0); // the new data was on disk, not yet renamed
    expect(await readFile(path, 'utf8')).toBe(previous);
  });

  it('leaves no run folder when killed while the folder is being filled', async () => {
    const path = join(dir, 'run-1');
    const temp = await killAfterWrite('dir', path);
    expect(await readFile(join(temp, 'run.json'), 'utf8')).toBe('{"id":"new"}');
    await expect(stat(path)).rejects.toThrow();
  });
});

describe('createDirAtomic', () => {
  it('creates the folder complete', async () => {
    const path = join(dir, 'runs', 'r1');
    const got = await createDirAtomic(path, async (temp) => {
      await writeFile(join(temp, 'run.json'), '{}');
      await writeFile(join(temp, 'split.json'), '[]');
      return 7;
    });
    expect(got).toBe(7);
    expect((await readdir(path)).sort()).toEqual(['run.json', 'split.json']);
    expect(await readdir(join(dir, 'runs'))).toEqual(['r1']);
  });

  it('creates nothing when filling fails', async () => {
    const path = join(dir, 'r1');
    const boom = new Error('disk on fire');
    await expect(
      createDirAtomic(path, async (temp) => {
        await writeFile(join(temp, 'run.json'), '{}');
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses a non-empty folder and keeps it, unless replace', async () => {
    const path = join(dir, 'r1');
    await mkdir(path);
    await writeFile(join(path, 'old.txt'), 'keep');
    const error = await createDirAtomic(path, async (temp) => writeFile(join(temp, 'new.txt'), 'n')).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: 'OutputConflictError', code: 'OUTPUT_CONFLICT' });
    expect((error as Error).message).toContain('old.txt');
    expect(await readdir(path)).toEqual(['old.txt']);
    expect(await readdir(dir)).toEqual(['r1']);
    await createDirAtomic(path, async (temp) => writeFile(join(temp, 'new.txt'), 'n'), { replace: true });
    expect(await readdir(path)).toEqual(['new.txt']);
    expect(await readdir(dir)).toEqual(['r1']);
  });
});

describe('assertOutputAvailable', () => {
  it('accepts a new path (missing parents included) and an empty folder', async () => {
    await expect(assertOutputAvailable(join(dir, 'a', 'b', 'out.json'), { kind: 'file' })).resolves.toBe(
      'absent',
    );
    await mkdir(join(dir, 'empty'));
    await expect(assertOutputAvailable(join(dir, 'empty'), { kind: 'dir' })).resolves.toBe('empty');
  });

  it('refuses an existing file unless overwrite or resume, naming what is there', async () => {
    const path = join(dir, 'memory.json');
    await writeFile(path, '12345');
    const error = await assertOutputAvailable(path, { kind: 'file' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'OutputConflictError', code: 'OUTPUT_CONFLICT' });
    expect((error as OutputConflictError).code).toBe('OUTPUT_CONFLICT');
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).toContain('a file (5 bytes)');
    await expect(assertOutputAvailable(path, { kind: 'file', overwrite: true })).resolves.toBe('replace');
    await expect(assertOutputAvailable(path, { kind: 'file', resume: true })).resolves.toBe('resume');
  });

  it('refuses a folder where a file is expected and a file where a folder is expected', async () => {
    await mkdir(join(dir, 'd'));
    await writeFile(join(dir, 'f'), 'x');
    await expect(assertOutputAvailable(join(dir, 'd'), { kind: 'file', overwrite: true })).rejects.toThrow(
      /already holds an empty folder/,
    );
    await expect(assertOutputAvailable(join(dir, 'f'), { kind: 'dir', overwrite: true })).rejects.toThrow(
      /already holds a file \(1 bytes\)/,
    );
  });

  it('refuses a non-empty folder that is not the caller’s, even with overwrite or resume', async () => {
    const path = join(dir, 'home');
    await mkdir(path);
    await writeFile(join(path, 'thesis.tex'), 'x');
    for (const flags of [{}, { overwrite: true }, { resume: true }]) {
      const error = await assertOutputAvailable(path, {
        kind: 'dir',
        ownerMarker: 'run.json',
        ...flags,
      }).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'OutputConflictError', code: 'OUTPUT_CONFLICT' });
      expect((error as Error).message).toMatch(/1 entry \(thesis\.tex\), which has no run\.json/);
    }
  });

  it('lets the caller resume or overwrite its own folder, and refuses it otherwise', async () => {
    const path = join(dir, 'run');
    await mkdir(path);
    await writeFile(join(path, 'run.json'), '{}');
    await expect(assertOutputAvailable(path, { kind: 'dir', ownerMarker: 'run.json' })).rejects.toThrow(
      /pass resume to continue it or overwrite to replace it/,
    );
    await expect(
      assertOutputAvailable(path, { kind: 'dir', ownerMarker: 'run.json', resume: true }),
    ).resolves.toBe('resume');
    await expect(
      assertOutputAvailable(path, { kind: 'dir', ownerMarker: 'run.json', overwrite: true }),
    ).resolves.toBe('replace');
  });

  it('refuses a path under a file', async () => {
    await writeFile(join(dir, 'f'), 'x');
    const error = await assertOutputAvailable(join(dir, 'f', 'deeper', 'out'), { kind: 'dir' }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: 'PathError', code: 'OUTPUT_PATH_INVALID' });
    expect((error as Error).message).toContain(`${join(dir, 'f')} is a file, not a folder`);
  });

  it('refuses a folder where nothing can be created (probe write, so it holds for root too)', async () => {
    // /proc refuses new files for every user, root included.
    const error = await assertOutputAvailable('/proc/lab-output/report.json', { kind: 'file' }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: 'PathError', code: 'OUTPUT_PATH_INVALID' });
    expect((error as Error).message).toContain('folder /proc is not writable');
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('openJsonlWriter', () => {
  it('streams records to a temporary file and renames it into place on close', async () => {
    const path = join(dir, 'out.jsonl');
    const writer = await openJsonlWriter(path, { flushBytes: 100 });
    for (let i = 0; i < 1000; i++) await writer.write({ i, text: 'line\nbreak' });
    await expect(stat(path)).rejects.toThrow(); // nothing at the target before close
    expect((await stat(writer.tempPath)).size).toBeGreaterThan(0); // flushed as it goes
    await writer.close();
    const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
    expect(lines).toHaveLength(1000);
    expect(JSON.parse(lines[999] ?? '')).toEqual({ i: 999, text: 'line\nbreak' });
    expect(writer.count).toBe(1000);
    expect(await readdir(dir)).toEqual(['out.jsonl']);
    await expect(writer.write({})).rejects.toMatchObject({
      name: 'StateUpdateRejectedError',
      code: 'WRITER_CLOSED',
    });
  });

  it('abort keeps the previous file and removes the temporary one', async () => {
    const path = join(dir, 'out.jsonl');
    await writeFile(path, '{"old":true}\n');
    const writer = await openJsonlWriter(path, { flushBytes: 1 });
    await writer.write({ new: true });
    await writer.abort();
    expect(await readFile(path, 'utf8')).toBe('{"old":true}\n');
    expect(await readdir(dir)).toEqual(['out.jsonl']);
  });
});

describe('readJsonFile / readTextFile', () => {
  it('reports a file cut short with its name and line, not the raw parser text', async () => {
    const path = join(dir, 'manifest.json');
    const whole = JSON.stringify(
      { runs: Array.from({ length: 50 }, (_, i) => ({ id: `run-${i}` })) },
      null,
      2,
    );
    await writeFile(path, whole.slice(0, whole.length / 2));
    const error = await readJsonFile(path).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'DataFormatError', code: 'FILE_DAMAGED' });
    expect((error as DataFormatError).code).toBe('FILE_DAMAGED');
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).toMatch(/line \d+ is damaged: the JSON ends early .*cut short/);
    expect((error as Error).message).not.toMatch(/position|Unterminated|Unexpected end/);
  });

  it('reports invalid JSON with the line and the unexpected character', async () => {
    const path = join(dir, 'a.json');
    await writeFile(path, '{\n  "a": 1,\n  "b": x\n}');
    await expect(readJsonFile(path)).rejects.toThrow(
      `${path} line 3 is damaged: not valid JSON: unexpected "x"`,
    );
  });

  it('reports an empty file', async () => {
    const path = join(dir, 'empty.json');
    await writeFile(path, '');
    await expect(readJsonFile(path)).rejects.toThrow(/empty\.json is damaged: the file is empty/);
  });

  it('reports a missing file in words, not a bare ENOENT', async () => {
    const path = join(dir, 'nope.json');
    const error = await readJsonFile(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PathError);
    expect((error as Error).message).toBe(`cannot read ${path}: no such file or folder`);
  });

  it('reports non-UTF-8 bytes with the line', async () => {
    const path = join(dir, 'latin1.txt');
    await writeFile(
      path,
      Buffer.concat([Buffer.from('ok\nstill ok\ncaf'), Buffer.from([0xe9]), Buffer.from('\n')]),
    );
    await expect(readTextFile(path)).rejects.toThrow(
      `cannot read ${path}: line 3 is not UTF-8 (invalid byte 0xe9`,
    );
  });
});

describe('readJsonlLines', () => {
  const collect = async (path: string, torn: { line: number; bytes: number }[] = []) => {
    const out: { text: string; line: number }[] = [];
    for await (const l of readJsonlLines(path, { onTornLine: (t) => torn.push(t) })) out.push(l);
    return out;
  };

  it('yields every line of a file read in chunks, multi-byte characters split across chunks included', async () => {
    const path = join(dir, 'big.jsonl');
    // ~600 KB (several 64 KiB read chunks); each line holds 3-byte and 4-byte characters at varying offsets.
    const lines = Array.from({ length: 3000 }, (_, i) =>
      JSON.stringify({ i, text: `${'é…😀'.repeat(i % 17)}${'x'.repeat(i % 190)}` }),
    );
    await writeFile(path, `${lines.join('\n')}\n`);
    const torn: { line: number; bytes: number }[] = [];
    const read = await collect(path, torn);
    expect(read.map((l) => l.text)).toEqual(lines);
    expect(read.map((l) => l.line)).toEqual(lines.map((_, i) => i + 1));
    expect(torn).toEqual([]);
  });

  it('drops a last line cut short, cuts it off the file and reports it once', async () => {
    const path = join(dir, 'torn.jsonl');
    await writeFile(path, '{"a":1}\n{"a":2}\n{"a":3, "b":"cut');
    const torn: { line: number; bytes: number }[] = [];
    expect((await collect(path, torn)).map((l) => l.text)).toEqual(['{"a":1}', '{"a":2}']);
    expect(torn).toEqual([{ path, line: 3, bytes: 16 }]);
    expect(await readFile(path, 'utf8')).toBe('{"a":1}\n{"a":2}\n');
    // Appends now continue on a clean line; a second read finds nothing to drop.
    torn.length = 0;
    expect(await collect(path, torn)).toHaveLength(2);
    expect(torn).toEqual([]);
  });

  it('yields nothing for a missing file and reports a line that is not UTF-8 by number', async () => {
    expect(await collect(join(dir, 'missing.jsonl'))).toEqual([]);
    const path = join(dir, 'latin1.jsonl');
    await writeFile(path, Buffer.concat([Buffer.from('{}\n"caf'), Buffer.from([0xe9]), Buffer.from('"\n')]));
    const error = await collect(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PathError);
    expect((error as Error).message).toMatch(
      new RegExp(`^cannot read ${path}: line 2 is not UTF-8 \\(invalid byte 0xe9`),
    );
  });
});
