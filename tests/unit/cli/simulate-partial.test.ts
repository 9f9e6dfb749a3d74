/**
 * simulate --out FILE when FILE.partial (an interrupted run) and a finished FILE are both there, as an interrupted
 * `--overwrite` run leaves them: `--resume` continues the partial file and replaces FILE when it completes; a plain
 * `--overwrite` says how many finished episodes of the partial file it discards; each refusal says what to run.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../cli/simulate';
import { cli } from './run-main';

let dir = '';
/** An uninterrupted run of `run(6)`: what a resumed run of it must write. */
let whole = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pdl-simulate-partial-'));
  const out = join(dir, 'whole.jsonl');
  const r = await cli(main, run(6, out));
  expect(r.code, r.err).toBe(0);
  whole = readFileSync(out, 'utf8');
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const run = (episodes: number, out: string, ...more: string[]) => [
  '--task',
  'cb',
  '--episodes',
  String(episodes),
  '--out',
  out,
  ...more,
];
const lineCount = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean).length;

/** A finished FILE (an earlier run of 3 episodes) and FILE.partial holding the first 4 episodes of `run(6)`. */
async function interruptedOverwrite(name: string): Promise<{ out: string; partial: string }> {
  const out = join(dir, `${name}.jsonl`);
  const earlier = await cli(main, run(3, out));
  expect(earlier.code, earlier.err).toBe(0);
  const partial = `${out}.partial`;
  writeFileSync(partial, whole.split('\n').slice(0, 4).join('\n') + '\n');
  return { out, partial };
}

describe('simulate --out beside an interrupted run', () => {
  it('--resume continues FILE.partial even beside a finished FILE, and replaces FILE when it completes', async () => {
    const { out, partial } = await interruptedOverwrite('resume');
    const r = await cli(main, run(6, out, '--resume'));
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(
      `notice: --resume: continuing the interrupted run in ${partial}; the finished ${out} of an earlier run is ` +
        'replaced when it completes',
    );
    expect(r.err).toContain('2 episodes run, 4 found finished');
    expect(readFileSync(out, 'utf8')).toBe(whole);
    expect(existsSync(partial)).toBe(false);
  });

  it('--resume still checks that the partial file is a run of the same options', async () => {
    const { out, partial } = await interruptedOverwrite('other');
    const r = await cli(main, run(6, out, '--resume', '--horizon', '5'));
    expect(r.code).toBe(2);
    expect(r.err).toContain(`--resume: the run in ${partial} was made with other settings: --horizon`);
    expect(lineCount(out)).toBe(3);
    expect(lineCount(partial)).toBe(4);
  });

  it('a plain --overwrite says how many finished episodes of FILE.partial it discards', async () => {
    const { out, partial } = await interruptedOverwrite('overwrite');
    const r = await cli(main, run(2, out, '--overwrite'));
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(
      `notice: --overwrite: ${partial} held 4 finished episodes of an interrupted run; they are discarded and the ` +
        'run starts again (to continue such a run, pass --resume in place of --overwrite)',
    );
    expect(lineCount(out)).toBe(2);
    expect(existsSync(partial)).toBe(false);
  });

  it('without --resume or --overwrite, the partial file is named before the finished FILE', async () => {
    const { out, partial } = await interruptedOverwrite('neither');
    const r = await cli(main, run(6, out));
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      `${partial} holds the episodes of an interrupted run; pass --resume to continue it or --overwrite to start again`,
    );
  });

  it('--resume --overwrite is refused saying what each one does', async () => {
    const { out, partial } = await interruptedOverwrite('both');
    const r = await cli(main, run(6, out, '--resume', '--overwrite'));
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      `give --resume or --overwrite, not both: --resume continues the interrupted run kept in ${partial} (it ` +
        `becomes ${out} when it completes), --overwrite starts the run again`,
    );
    expect(lineCount(partial)).toBe(4);
  });

  it('--resume with nothing to continue says what to run instead', async () => {
    const finished = join(dir, 'finished.jsonl');
    expect((await cli(main, run(2, finished))).code).toBe(0);
    const again = await cli(main, run(2, finished, '--resume'));
    expect(again.code).toBe(2);
    expect(again.err).toContain(
      `--resume: ${finished} is a finished run and there is no interrupted run to continue (no ${finished}.partial); ` +
        'to run it again, pass --overwrite in place of --resume, or choose another --out',
    );
    const none = join(dir, 'none.jsonl');
    const fresh = await cli(main, run(2, none, '--resume'));
    expect(fresh.code).toBe(2);
    expect(fresh.err).toContain(
      `--resume: there is no interrupted run to continue (${none}.partial does not exist); run the command ` +
        'without --resume to start it',
    );
  });

  it('Ctrl-C on an --overwrite run says to pass --resume in place of --overwrite, and that resume completes', async () => {
    const out = join(dir, 'ctrl-c.jsonl');
    expect((await cli(main, run(2, out))).code).toBe(0);
    const partial = `${out}.partial`;
    const interrupted = cli(main, run(2000, out, '--overwrite'));
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (existsSync(partial) && lineCount(partial) >= 3) {
          clearInterval(poll);
          process.emit('SIGINT');
          resolve();
        }
      }, 5);
    });
    const r = await interrupted;
    expect(r.code).toBe(130);
    expect(r.err).toContain('run the same command with --resume in place of --overwrite to continue');
    expect(lineCount(out)).toBe(2);
    const resumed = await cli(main, run(2000, out, '--resume'));
    expect(resumed.code, resumed.err).toBe(0);
    expect(lineCount(out)).toBe(2000);
    expect(existsSync(partial)).toBe(false);
  });
});
