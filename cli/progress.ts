/**
 * Progress of a long job, the same in every command: in a terminal, a bar with the counts and an estimate of the
 * time left (cli-progress, on stderr); elsewhere (a pipe, a log file, CI), a plain line every few seconds with the
 * same figures, so that no job runs for minutes in silence.
 */
import cliProgress from 'cli-progress';
import type { Io } from './options';

/** A job's progress display from {@link startProgress}. */
export interface Progress {
  /**
   * `done` of `total` units finished; `detail` is shown after the counts (e.g. `return 0.31`).
   */
  update(done: number, total: number, detail?: string): void;
  /** Ends the display (the bar's line is left in place). Safe to call twice. */
  stop(): void;
}

/** `1 min 20 s`, `45 s` */
export function formatSeconds(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/**
 * Start a progress display on `io`'s stderr.
 * @param quiet no display at all (e.g. `--json`, where the caller prints one object).
 * @param unit what is counted (`episodes`, `steps`).
 * @param options `everyMs`: the interval of the plain lines (default 5,000 ms); `now`: the clock (tests).
 */
export function startProgress(
  io: Io,
  quiet: boolean,
  unit: string,
  options: { everyMs?: number; now?: () => number } = {},
): Progress {
  const now = options.now ?? Date.now;
  const everyMs = options.everyMs ?? 5_000;
  const started = now();
  let firstDone: { at: number; done: number } | null = null;
  let last = started;
  let bar: cliProgress.SingleBar | null = null;
  let stopped = quiet;
  const eta = (done: number, total: number): string => {
    // Measured from the first update (work resumed from a file is not counted as speed).
    if (!firstDone || done <= firstDone.done) return 'time left not known yet';
    const rate = (now() - firstDone.at) / (done - firstDone.done);
    return `about ${formatSeconds((rate * (total - done)) / 1000)} left`;
  };
  return {
    update(done, total, detail) {
      if (stopped) return;
      if (firstDone === null) firstDone = { at: now(), done };
      if (io.isTTY) {
        if (!bar) {
          bar = new cliProgress.SingleBar(
            {
              format: `${unit} [{bar}] {value}/{total} {detail}{eta_text}`,
              stream: process.stderr,
              hideCursor: false,
            },
            cliProgress.Presets.shades_classic,
          );
          bar.start(total, done, { detail: '', eta_text: '' });
        }
        bar.setTotal(total);
        bar.update(done, { detail: detail ? `${detail} · ` : '', eta_text: eta(done, total) });
        return;
      }
      const t = now();
      if (t - last < everyMs) return;
      last = t;
      const pct = total > 0 ? ` (${Math.floor((100 * done) / total)}%)` : '';
      io.stderr(`${unit} ${done}/${total}${pct}${detail ? `, ${detail}` : ''}, ${eta(done, total)}\n`);
    },
    stop() {
      if (stopped) return;
      stopped = true;
      bar?.stop();
    },
  };
}
