/**
 * Evaluation worker threads started by the npm script's command line (`node --import tsx --import
 * ./cli/preload.ts cli/evaluate.ts`): a thread inherits the parent's Node options, and the `.ts` preload failed
 * there before the thread's own bootstrap registered tsx ("Unknown file extension"), so `--workers 2` crashed
 * from the command line while the in-process tests passed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { threadExecArgv } from '../../../src/eval/harness-node';

const dir = mkdtempSync(join(tmpdir(), 'pdl-worker-preload-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('evaluation worker threads', () => {
  it('drop the preloads of every spelling and keep the other Node options', () => {
    expect(
      threadExecArgv([
        '--import',
        'tsx',
        '--import=./cli/preload.ts',
        '--max-old-space-size=512',
        '-r',
        'x.cjs',
        '--require=y.cjs',
        '--loader',
        'l.mjs',
        '--experimental-loader=m.mjs',
        '--enable-source-maps',
      ]),
    ).toEqual(['--max-old-space-size=512', '--enable-source-maps']);
  });

  it('start from the npm script command line: --workers 2 gives the report of --workers 1', () => {
    const run = (workers: string) => {
      const out = join(dir, `w${workers}`);
      const r = spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          '--import',
          './cli/preload.ts',
          'cli/evaluate.ts',
          ...['--task', 'cb', '--policy', 'random', '--episodes', '4', '--workers', workers, '--out', out],
        ],
        { encoding: 'utf8', timeout: 240_000 },
      );
      expect(r.status, r.stderr).toBe(0);
      return readFileSync(join(out, 'report.csv'), 'utf8');
    };
    expect(run('2')).toBe(run('1'));
  }, 300_000);
});
