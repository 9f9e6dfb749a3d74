/**
 * SIGTERM (`kill`, `timeout`, a process manager) stops a command as Ctrl-C does: the job stops at its next safe
 * point, says what it kept, releases its output lock and exits with 130; `--resume` then completes the run.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main as simulateMain } from '../../../cli/simulate';
import { cli, simulateInterrupted } from './run-main';

const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean);

describe('SIGTERM', () => {
  it('simulate: stops at a safe point, keeps FILE.partial, leaves no lock, exits 130; --resume completes it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pdl-sigterm-'));
    const out = join(dir, 'term.jsonl');
    const partial = `${out}.partial`;
    const { code, err } = await simulateInterrupted(out, 'SIGTERM');
    expect(code, err).toBe(130);
    const kept = lines(partial).length;
    expect(err).toContain(`${kept} finished episodes are kept in ${partial}`);
    expect(existsSync(join(dirname(out), `.${basename(out)}.lock`))).toBe(false);
    const resumed = await cli(simulateMain, ['--task', 'cb', '--episodes', '200', '--out', out, '--resume']);
    expect(resumed.code, resumed.err).toBe(0);
    expect(resumed.err).not.toContain('lock');
    expect(lines(out)).toHaveLength(200);
  }, 120_000);
});
