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
