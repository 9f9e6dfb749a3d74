import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
/**
 * Runs a command's `main` in this process with captured output, as the CLI tests do: the exit code, and what it
 * wrote to stderr and stdout (not a TTY).
 */

/** A command's entry point (`cli/<name>.ts` `main`). */
export type Main = (
  argv: string[],
  io: { stdout: (s: string) => void; stderr: (s: string) => void; isTTY: boolean },
) => Promise<number>;

/** Runs `main` with `argv`; resolves to its exit code and its output. */
export async function cli(main: Main, argv: string[]): Promise<{ code: number; err: string; out: string }> {
  const err: string[] = [];
  const out: string[] = [];
  const code = await main(argv, {
    stdout: (s) => void out.push(s),
    stderr: (s) => void err.push(s),
    isTTY: false,
  });
  return { code, err: err.join(''), out: out.join('') };
}

/**
 * The command line of a small `evaluate` run the resume tests share: random on CB, `episodes` episodes, 100
 * bootstrap resamples, into `out`, then `more`.
 */
export function smallEvaluateArgv(out: string, episodes: string, ...more: string[]): string[] {
  return [
    '--task',
    'cb',
    '--policy',
    'random',
    '--episodes',
    episodes,
    '--resamples',
    '100',
    '--out',
    out,
    ...more,
  ];
}

/**
 * Runs `simulate` on CB (200 episodes into `out`) in a child process, sends it `signal` once `out.partial` holds 3
 * finished episodes, and resolves to its exit code and stderr: how the interrupt tests stop a job mid-run.
 */
export async function simulateInterrupted(
  out: string,
  signal: NodeJS.Signals,
): Promise<{ code: number | null; err: string }> {
  const partial = `${out}.partial`;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'cli/simulate.ts', '--task', 'cb', '--episodes', '200', '--out', out],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  await new Promise<void>((resolve) => {
    const poll = setInterval(() => {
      if (existsSync(partial) && readFileSync(partial, 'utf8').split('\n').filter(Boolean).length >= 3) {
        clearInterval(poll);
        child.kill(signal);
        resolve();
      }
    }, 5);
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  return { code, err };
}
