import { AbortedError, hasCode, LabError } from '../src/entries/errors';
/**
 * Interrupts (Ctrl-C, `kill -INT`, and SIGTERM: `kill`, `timeout`, a process manager) told the same way by every
 * command: a job stops at its next safe point, keeps what it finished, says so in words, and the command exits with
 * 130 (128 + SIGINT, the shell's convention; also after SIGTERM, so that a script tells an interrupted run by one
 * code).
 *
 * A command listens while its job runs ({@link listenForInterrupt}). Outside that window — while the command
 * starts, loads its data or writes its last files — {@link exitOnStrayInterrupt}, installed by each command's
 * entry, says that the command was interrupted and exits with 130, so an interrupt never ends a command in
 * silence (it did, once in three, for `principles build` interrupted while it started).
 */

/** The exit code of an interrupted command. */
export const INTERRUPTED_EXIT_CODE = 130;

/** Whether `error` (or its cause) says that a job stopped because it was interrupted. */
export function isInterrupted(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++)
    if (hasCode(e, AbortedError, 'JOB_ABORTED')) return true;
  return false;
}

/** The signals a command takes as an interrupt. */
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Listen for SIGINT and SIGTERM while a job runs: the returned signal aborts on the first one (the job stops at its
 * next safe point); a second one exits at once with 130. Call `dispose` when the job ends (in a `finally`).
 */
export function listenForInterrupt(): { signal: AbortSignal; dispose: () => void } {
  const stop = new AbortController();
  const onSigint = (): void => {
    if (!stop.signal.aborted) {
      stop.abort('interrupted');
      return;
    }
    // A second Ctrl-C does not wait for the running step: what is on disk is whole (atomic writes, whole lines).
    process.stderr.write(
      'interrupted again: stopping now, without finishing the running step (exit code 130)\n',
    );
    process.exit(INTERRUPTED_EXIT_CODE);
  };
  for (const s of SIGNALS) process.on(s, onSigint);
  return {
    signal: stop.signal,
    dispose: () => {
      for (const s of SIGNALS) process.off(s, onSigint);
    },
  };
}

/**
 * For a command's entry: a SIGINT or SIGTERM that no job is listening for (the command is starting, loading data or writing
 * its last files) prints a line saying what was interrupted and exits with 130 instead of ending in silence.
 * While a job listens ({@link listenForInterrupt}), the job handles it. Installed once per process (the npm
 * scripts install it first of all, through `--import ./cli/preload.ts`, so that it covers the seconds spent loading
 * the command's modules; the entry installs it again for a plain `tsx cli/…` run, which is then a no-op).
 * @param command the command's name, for the message (`principles build`).
 */
export function exitOnStrayInterrupt(command: string, write: (s: string) => void): void {
  if (process.listeners('SIGINT').some((l) => l.name === 'strayInterrupt')) return;
  const strayInterrupt = (signal: NodeJS.Signals): void => {
    if (process.listeners(signal).some((l) => l !== strayInterrupt)) return;
    write(
      `${command}: interrupted while starting, loading its data or writing its last files; what was ` +
        'written before stays whole (exit code 130)\n',
    );
    process.exit(INTERRUPTED_EXIT_CODE);
  };
  for (const s of SIGNALS) process.on(s, strayInterrupt);
}

/**
 * What a command says when the disk filled up while it wrote `error.path`: `kept` (what stays, in words, e.g.
 * `12 finished episodes are kept in out.jsonl.partial`), then how to continue.
 */
export function diskFullMessage(error: Error, kept: string, resumable: boolean): string {
  return `${error.message}: ${kept}; free some space${resumable ? ', then run the same command with --resume to continue' : ' and run the command again'}`;
}

/** A training run stopped by a failure that keeps its saved steps (a full disk). Code `TRAIN_STOPPED`. */
export class TrainStoppedError extends LabError {
  override name = 'TrainStoppedError';
  override readonly code = 'TRAIN_STOPPED';
}

/** The hint after a damaged stored run's error (never "choose a new folder": the folder is the user's run). */
export const DAMAGED_RUN_HINT =
  'the run is damaged: restore it from a copy, or start a new run in another folder';
