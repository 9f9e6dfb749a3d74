/**
 * Nothing lost, nothing leaked, nothing silent: one block per failure class, each failing on the code
 * before the fix — locks on outputs (a live holder named, a stale lock taken over), a full disk (injected with
 * `PDL_FAULT_DISK_FULL_AFTER_BYTES`: the true count kept, exit 1, resumable), a damaged stored run in one line,
 * input size bounds and reading only what a run needs, messages that point at the right cause, progress, interrupts
 * (exit 130, `simulate --resume`, no silent exit) and the quick start without data.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, symlink, utimes, writeFile, mkdir } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitOnStrayInterrupt } from '../../../cli/interrupt';
import { main as principlesMain } from '../../../cli/principles';
import { startProgress } from '../../../cli/progress';
import { main as simulateMain } from '../../../cli/simulate';
import { main as trainMain } from '../../../cli/train';
import { main as validateMain } from '../../../cli/validate-sim';

import { loadSeedsFromPath } from '../../../src/data/node';

import { lockOutput, lockPathOf } from '../../../src/io/lock';
import { cli, simulateInterrupted } from './run-main';

let dir = '';
const ESCONV = '../shared/data/esconv/esconv-valid.jsonl';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pdl-robust-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Runs a command in a child process (`node --import tsx cli/<name>.ts`), with extra environment variables. */
function spawnCli(name: string, args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', `cli/${name}.ts`, ...args], {
    encoding: 'utf8',
    timeout: 850_000,
    env: { ...process.env, ...env },
  });
  return { code: r.status, err: r.stderr, out: r.stdout };
}

const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean);

describe('locks on outputs', () => {
  it('a second process on one --out is refused, naming the first (pid, host, start time)', async () => {
    const out = join(dir, 'locked.jsonl');
    const lock = await lockOutput(out, { command: 'simulate --out locked.jsonl' });
    try {
      const r = await cli(simulateMain, ['--task', 'cb', '--episodes', '2', '--out', out]);
      expect(r.code).toBe(1);
      expect(r.err).toContain(`pid ${process.pid} on host ${hostname()}`);
      expect(r.err).toMatch(/started \d{4}-\d\d-\d\dT/);
      expect(r.err).not.toContain('interrupted run');
      expect(existsSync(`${out}.partial`)).toBe(false);
      // The same for a train run folder and a principles build.
      const run = join(dir, 'locked-run');
      const lockRun = await lockOutput(run);
      try {
        const t = await cli(trainMain, ['--task', 'cb', '--steps', '1', '--out', run]);
        expect(t.code).toBe(1);
        expect(t.err).toContain('is in use by another process');
      } finally {
        await lockRun.release();
      }
    } finally {
      await lock.release();
    }
    expect(existsSync(lockPathOf(out))).toBe(false);
  });

  it('a lock left by a dead process (pid gone) or with an old heartbeat does not block', async () => {
    const out = join(dir, 'stale.jsonl');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    const deadPid = Number(dead.stdout);
    await writeFile(
      lockPathOf(out),
      JSON.stringify({ pid: deadPid, host: hostname(), started: new Date().toISOString(), command: 'x' }),
    );
    expect((await cli(simulateMain, ['--task', 'cb', '--episodes', '2', '--out', out])).code).toBe(0);
    // Another host's lock whose heartbeat stopped a minute ago.
    const out2 = join(dir, 'stale2.jsonl');
    await writeFile(
      lockPathOf(out2),
      JSON.stringify({ pid: 1, host: 'elsewhere', started: new Date().toISOString(), command: 'x' }),
    );
    const old = new Date(Date.now() - 60_000);
    await utimes(lockPathOf(out2), old, old);
    expect((await cli(simulateMain, ['--task', 'cb', '--episodes', '2', '--out', out2])).code).toBe(0);
    // A live one on another host is not taken over.
    await writeFile(
      lockPathOf(out2),
      JSON.stringify({ pid: 1, host: 'elsewhere', started: new Date().toISOString(), command: 'x' }),
    );
    await expect(lockOutput(out2)).rejects.toMatchObject({ name: 'LockHeldError', code: 'OUTPUT_LOCKED' });
  });
});

describe('a full disk', () => {
  it('simulate: the true count kept in FILE.partial, no cut line, exit 1, and --resume gives the full run', async () => {
    const out = join(dir, 'full.jsonl');
    const r = spawnCli('simulate', ['--task', 'cb', '--episodes', '30', '--out', out], {
      PDL_FAULT_DISK_FULL_AFTER_BYTES: '20000',
    });
    expect(r.code).toBe(1);
    expect(r.err).not.toMatch(/ENOSPC/);
    const kept = lines(`${out}.partial`).length;
    expect(kept).toBeGreaterThan(0);
    expect(readFileSync(`${out}.partial`, 'utf8').endsWith('\n')).toBe(true);
    expect(r.err).toContain(
      `the disk is full while writing ${out}.partial: ${kept} finished episodes are kept in ${out}.partial`,
    );
    const resumed = await cli(simulateMain, ['--task', 'cb', '--episodes', '30', '--out', out, '--resume']);
    expect(resumed.code, resumed.err).toBe(0);
    const whole = join(dir, 'whole.jsonl');
    expect((await cli(simulateMain, ['--task', 'cb', '--episodes', '30', '--out', whole])).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(whole, 'utf8'));
  }, 900_000);

  it('principles build exits 1 (not 2) with the count kept; train and evaluate print no raw ENOSPC', () => {
    const out = join(dir, 'full-memory.json');
    const b = spawnCli('principles', ['build', '--task', 'cb', '--episodes', '20', '--out', out], {
      PDL_FAULT_DISK_FULL_AFTER_BYTES: '30000',
    });
    expect(b.code).toBe(1);
    const kept = lines(`${out}.checkpoint.jsonl`).length - 1;
    expect(b.err).toContain(
      `the disk is full while writing ${out}.checkpoint.jsonl: ${kept} finished episode`,
    );
    expect(b.err).toContain('--resume');
    const e = spawnCli(
      'evaluate',
      ['--task', 'cb', '--policy', 'random', '--episodes', '30', '--out', join(dir, 'full-eval')],
      { PDL_FAULT_DISK_FULL_AFTER_BYTES: '60000' },
    );
    expect(e.code).toBe(1);
    expect(e.err).toMatch(/the disk is full while writing .*: \d+ finished episodes? (is|are) kept in/);
    expect(e.err).not.toMatch(/ENOSPC/);
    const t = spawnCli(
      'train',
      ['--task', 'cb', '--steps', '2', '--no-eval', '--out', join(dir, 'full-run')],
      {
        PDL_FAULT_DISK_FULL_AFTER_BYTES: '1000',
      },
    );
    expect(t.code).toBe(1);
    expect(t.err).toContain('the disk is full while writing');
    expect(t.err).not.toMatch(/ENOSPC/);
  }, 900_000);
});

describe('a damaged stored run is answered in one line', () => {
  it('Infinity in a run config: the file and the field, and what to do', async () => {
    const run = join(dir, 'damaged-run');
    expect((await cli(trainMain, ['--task', 'cb', '--steps', '1', '--no-eval', '--out', run])).code).toBe(0);
    const path = join(run, 'run.json');
    await writeFile(
      path,
      (await readFile(path, 'utf8')).replace(/"actorLearningRate": [0-9.e-]+/, '"actorLearningRate": 1e999'),
    );
    const r = await cli(trainMain, ['--resume', '--out', run, '--steps', '2']);
    expect(r.code).toBe(1);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toContain(`${path}: config.actorLearningRate must be a finite number`);
    expect(r.err).toContain(
      'the run is damaged: restore it from a copy or start a new run in another folder',
    );
    expect(r.err).not.toContain('choose a new or empty folder');
  }, 60_000);

  it('a run folder missing its marker is called damaged, not someone else’s folder', async () => {
    const run = join(dir, 'no-split');
    await mkdir(run);
    await writeFile(join(run, 'run.json'), '{}');
    const r = await cli(trainMain, ['--resume', '--task', 'cb', '--out', run]);
    expect(r.err).toContain('damaged');
    expect(r.err).not.toContain('choose a new or empty folder');
  });
});

describe('input size', () => {
  it('a line over the bound and a field over the bound are refused with file:line, size and bound', async () => {
    const line = join(dir, 'long-line.jsonl');
    await writeFile(line, `${JSON.stringify({ x: 'y'.repeat(5000) })}\n`);
    const before = process.env.PDL_MAX_LINE_BYTES;
    process.env.PDL_MAX_LINE_BYTES = '2048';
    try {
      await expect(loadSeedsFromPath(line, 'esconv')).rejects.toThrow(
        `${line}:1: the line is 5,008 bytes long, more than the bound of 2,048 bytes`,
      );
      // Read as a stream (a run that needs only its first seeds), reading stops past the bound: a lower size.
      const huge = join(dir, 'huge-line.jsonl');
      await writeFile(huge, `${JSON.stringify({ x: 'y'.repeat(300_000) })}\n`);
      await expect(loadSeedsFromPath(huge, 'esconv', { needed: 1 })).rejects.toThrow(
        /huge-line\.jsonl:1: the line is at least [\d,]+ bytes long \(read no further\), more than the bound of 2,048 bytes/,
      );
    } finally {
      if (before === undefined) delete process.env.PDL_MAX_LINE_BYTES;
      else process.env.PDL_MAX_LINE_BYTES = before;
    }
    const first = readFileSync(ESCONV, 'utf8').split('\n')[0] as string;
    const record = JSON.parse(first) as { dialog: { content: string }[] };
    (record.dialog[0] as { content: string }).content = 'z'.repeat(200_000);
    const field = join(dir, 'long-field.jsonl');
    await writeFile(field, `${JSON.stringify(record)}\n`);
    await expect(loadSeedsFromPath(field, 'esconv')).rejects.toThrow(
      'the field dialog.0.content holds 200,000 characters, more than the bound of 100,000',
    );
  });

  it.each(['1000', '1', 'abc', '2e4'])(
    'PDL_MAX_LINE_BYTES=%s is refused, naming the variable, its value and the range',
    async (value) => {
      const before = process.env.PDL_MAX_LINE_BYTES;
      process.env.PDL_MAX_LINE_BYTES = value;
      try {
        const expected = `PDL_MAX_LINE_BYTES is "${value}": it must be a whole number of bytes ≥ 1,024`;
        await expect(loadSeedsFromPath(ESCONV, 'esconv')).rejects.toMatchObject({
          name: 'ConfigError',
          code: 'DATA_OPTION_INVALID',
          option: 'PDL_MAX_LINE_BYTES',
          got: value,
        });
        await expect(loadSeedsFromPath(ESCONV, 'esconv')).rejects.toThrow(expected);
        const r = await cli(simulateMain, [
          '--task',
          'esconv',
          '--seeds',
          ESCONV,
          '--episodes',
          '1',
          '--json',
        ]);
        expect(r.code).toBe(1);
        expect(r.err).toContain(expected);
        process.env.PDL_MAX_LINE_BYTES = '1024';
        // The smallest accepted value is in force: the file's 3,535-byte first line is over it.
        await expect(loadSeedsFromPath(ESCONV, 'esconv', { needed: 1 })).rejects.toThrow(
          'more than the bound of 1,024 bytes',
        );
      } finally {
        if (before === undefined) delete process.env.PDL_MAX_LINE_BYTES;
        else process.env.PDL_MAX_LINE_BYTES = before;
      }
    },
  );

  it('a run of N episodes reads a seed file only up to its Nth seed', async () => {
    const good = readFileSync(ESCONV, 'utf8').split('\n').filter(Boolean).slice(0, 5);
    const file = join(dir, 'prefix.jsonl');
    // Line 6 is damaged: a run that needs 5 seeds never reads it; one that needs all of them does.
    await writeFile(file, `${good.join('\n')}\n{"broken\n`);
    const some = await loadSeedsFromPath(file, 'esconv', { needed: 5 });
    expect(some.seeds).toHaveLength(5);
    expect(some.stoppedAfter).toBe(5);
    await expect(loadSeedsFromPath(file, 'esconv')).rejects.toMatchObject({
      name: 'DataFormatError',
      code: 'DATASET_INVALID',
    });
    const r = await cli(simulateMain, ['--task', 'esconv', '--seeds', file, '--episodes', '3', '--json']);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out).seeds).toBe(3);
    // A file of exactly N seeds (trailing blank lines aside) is read whole: nothing is left unread.
    const exact = join(dir, 'exact.jsonl');
    await writeFile(exact, `${good.join('\n')}\n\n\n`);
    const whole = await loadSeedsFromPath(exact, 'esconv', { needed: 5 });
    expect(whole.seeds).toHaveLength(5);
    expect(whole.stoppedAfter).toBeUndefined();
    const all = await cli(simulateMain, ['--task', 'esconv', '--seeds', exact, '--episodes', '5']);
    expect(all.code, all.err).toBe(0);
    expect(all.out).not.toContain('not read');
    const one = await cli(simulateMain, ['--task', 'esconv', '--seeds', file, '--episodes', '1']);
    expect(one.out).toContain('(its first seed, all this run plays; the rest of the file is not read)');
  });
});

describe('messages point at the right cause', () => {
  it('UTF-16: the iconv that converts it, not latin1', async () => {
    const file = join(dir, 'utf16.jsonl');
    const text = readFileSync(ESCONV, 'utf8').split('\n').slice(0, 2).join('\n');
    await writeFile(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const r = await cli(simulateMain, ['--task', 'esconv', '--seeds', file, '--episodes', '1']);
    expect(r.code).toBe(1);
    expect(r.err).toContain('iconv -f utf-16 -t utf-8');
    expect(r.err).not.toContain('latin1');
  });

  it('never echoes the content of a file (a link to a private file)', async () => {
    const secret = join(dir, 'secret.txt');
    await writeFile(secret, 'hunter2-password:topsecret\n');
    const link = join(dir, 'link.jsonl');
    await symlink(secret, link);
    for (const task of ['esconv', 'cb']) {
      const r = await cli(simulateMain, ['--task', task, '--seeds', link, '--episodes', '1']);
      expect(r.code).toBe(1);
      expect(r.err).not.toMatch(/hunter|secret:|password/);
    }
  });

  it('a folder given as --seeds is reported as a folder', async () => {
    const folder = join(dir, 'empty-folder');
    await mkdir(folder);
    const r = await cli(simulateMain, ['--task', 'esconv', '--seeds', folder, '--episodes', '1']);
    expect(r.err).toContain(`${folder} is a folder`);
    expect(r.err).not.toContain('no esconv seeds in the file');
  });

  it('principles query on a trajectory file: not a memory file', async () => {
    const traj = join(dir, 'traj.jsonl');
    expect((await cli(simulateMain, ['--task', 'cb', '--episodes', '2', '--out', traj])).code).toBe(0);
    const r = await cli(principlesMain, ['query', '--memory', traj, '--task', 'cb', '--text', 'hello']);
    expect(r.code).toBe(1);
    expect(r.err).toContain('not a memory file (it looks like a trajectory file');
    expect(r.err).not.toContain('damaged');
  });
});

describe('long work is not silent', () => {
  it('without a terminal, a plain line with counts and an ETA every few seconds', () => {
    const err: string[] = [];
    let now = 0;
    const progress = startProgress(
      { stdout: () => {}, stderr: (s) => void err.push(s), isTTY: false },
      false,
      'episodes',
      { now: () => now },
    );
    for (let done = 1; done <= 100; done++) {
      now += 200; // 0.2 s an episode
      progress.update(done, 100);
    }
    progress.stop();
    expect(err.length).toBeGreaterThanOrEqual(3);
    expect(err[0]).toMatch(/^episodes \d+\/100 \(\d+%\), about \d+ s left\n$/);
  });

  it('GRPO says what it does before its first step', () => {
    const r = spawnCli('train', [
      '--algo',
      'grpo-emollm',
      '--task',
      'esconv',
      '--steps',
      '1',
      '--no-eval',
      '--out',
      join(dir, 'grpo'),
    ]);
    expect(r.code, r.err).toBe(0);
    const before = r.err.slice(0, r.err.indexOf('step 1 '));
    expect(before).toMatch(/GRPO on \w+: 1 step to go/);
  }, 900_000);
});

describe('interrupts', () => {
  it('an interrupt with no job listening is told in words and exits with 130', () => {
    const script =
      "import('./cli/interrupt.ts').then((m) => { m.exitOnStrayInterrupt('x', (s) => process.stderr.write(s));" +
      " process.kill(process.pid, 'SIGINT'); setTimeout(() => {}, 10000); });";
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(130);
    expect(r.stderr).toContain('x: interrupted');
    expect(typeof exitOnStrayInterrupt).toBe('function');
  });

  it('validate-sim: Ctrl-C while it bootstraps stops it at the next safe point, exit 130, nothing written', async () => {
    const out = join(dir, 'validity-ctrl-c');
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'cli/validate-sim.ts',
        '--seeds',
        'esconv=../shared/data/esconv/esconv-valid.jsonl',
        '--check-seeds',
        '0',
        '--no-exploits',
        '--out',
        out,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let err = '';
    let sent = false;
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      if (!sent && err.includes('bootstrapping the validity table')) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(sent).toBe(true);
    expect(code).toBe(130);
    expect(err).toContain(
      'validate-sim: interrupted: stopped before the report was complete; nothing was written',
    );
    // It stopped in the table, before the phases after it.
    expect(err).not.toContain('dose–response on');
    expect(existsSync(join(out, 'validity.json'))).toBe(false);
  }, 300_000);

  it('simulate: Ctrl-C exits 130 and --resume continues from FILE.partial to the uninterrupted result', async () => {
    const out = join(dir, 'ctrl-c.jsonl');
    const partial = `${out}.partial`;
    const { code, err } = await simulateInterrupted(out, 'SIGINT');
    expect(code).toBe(130);
    const kept = lines(partial).length;
    expect(err).toContain(`${kept} finished episodes are kept in ${partial}`);
    expect(err).toContain('--resume');
    const resumed = await cli(simulateMain, ['--task', 'cb', '--episodes', '200', '--out', out, '--resume']);
    expect(resumed.code, resumed.err).toBe(0);
    const whole = join(dir, 'ctrl-c-whole.jsonl');
    expect((await cli(simulateMain, ['--task', 'cb', '--episodes', '200', '--out', whole])).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(whole, 'utf8'));
    // Another run's options: the stored episodes are not this run's.
    const again = join(dir, 'ctrl-c-2.jsonl');
    await writeFile(
      `${again}.partial`,
      readFileSync(whole, 'utf8').split('\n').slice(0, 2).join('\n') + '\n',
    );
    const other = await cli(simulateMain, [
      '--task',
      'cb',
      '--episodes',
      '5',
      '--rng-seed',
      '7',
      '--out',
      again,
      '--resume',
    ]);
    expect(other.code).toBe(2);
    expect(other.err).toContain(`${again}.partial was made with other settings: --rng-seed`);
    expect(other.err).toContain('rng seed 0 where this run plays 7');
  }, 900_000);
});

describe('quick start without data', () => {
  it('validate-sim with no data present says where the default data is and how to point at one', async () => {
    const before = process.env.PDL_DATA_DIR;
    process.env.PDL_DATA_DIR = join(dir, 'no-data-here');
    try {
      const r = await cli(validateMain, []);
      expect(r.code).toBe(1);
      expect(r.err).not.toContain('--seeds: no such file');
      expect(r.err).toContain('no dataset to validate against');
      expect(r.err).toContain('--seeds TASK=PATH');
    } finally {
      if (before === undefined) delete process.env.PDL_DATA_DIR;
      else process.env.PDL_DATA_DIR = before;
    }
  });
});
