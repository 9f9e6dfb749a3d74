/**
 * `llm/overhead`: what the library costs around each language-model call, measured on the replay backend (whose
 * answer is a table look-up, so everything else is the library's): the recorded full episodes of
 * tests/fixtures/llm/episodes (every role — strategy proposer, realizer, mode classifier, change proposer,
 * responder, judge — with realistic and malformed recorded answers, which are retried) are replayed, the time
 * spent inside `ReplayBackend.complete` (request hashing and look-up) is summed, and the rest is the library's:
 * prompt building, parsing, validation, retries, plus the simulator's rules between calls.
 */
import { ReplayBackend } from '../../src/llm/replay';
import { runLanguageJob } from '../../src/roles/job';
import { replayJob, type EpisodeFixture } from '../../tests/fixtures/llm/episode';
import cbFixture from '../../tests/fixtures/llm/episodes/cb.replay.json';
import esconvFixture from '../../tests/fixtures/llm/episodes/esconv.replay.json';
import p4gFixture from '../../tests/fixtures/llm/episodes/p4g.replay.json';
import { measure } from '../timing';
import type { BenchEntry, Benchmark } from '../types';

const EPISODES: Record<string, EpisodeFixture> = {
  esconv: esconvFixture as unknown as EpisodeFixture,
  p4g: p4gFixture as unknown as EpisodeFixture,
  cb: cbFixture as unknown as EpisodeFixture,
};

const round = (x: number): number => Number(x.toPrecision(4));
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2
    ? (s[(s.length - 1) / 2] as number)
    : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
};

export const llmOverheadBenchmark: Benchmark = {
  name: 'llm/overhead',
  async run(ctx) {
    const entries: BenchEntry[] = [];
    const original = Object.getOwnPropertyDescriptor(ReplayBackend.prototype, 'complete');
    if (!original) throw new Error('ReplayBackend.complete not found');
    let inside = 0;
    let calls = 0;
    const complete = original.value as ReplayBackend['complete'];
    // Bench-only instrumentation of the backend's method, restored below.
    Object.defineProperty(ReplayBackend.prototype, 'complete', {
      ...original,
      value: async function timed(this: ReplayBackend, ...args: Parameters<ReplayBackend['complete']>) {
        const start = performance.now();
        try {
          return await complete.apply(this, args);
        } finally {
          inside += performance.now() - start;
          calls++;
        }
      },
    });
    try {
      for (const [task, episode] of Object.entries(EPISODES)) {
        const job = replayJob(episode);
        const insideByRun: number[] = [];
        const timing = await measure(
          async () => {
            inside = 0;
            calls = 0;
            await runLanguageJob(job);
            insideByRun.push(inside);
          },
          { warmup: 1, runs: Math.min(ctx.timing.runs, 7) },
        );
        // Per timed run (the warm-up's entry is dropped): the library's part is the run minus its backend time.
        const timedInside = insideByRun.slice(-timing.samples.length);
        const perCall = timing.median / calls;
        const backend = median(timedInside) / calls;
        const library = median(timing.samples.map((t, i) => t - (timedInside[i] as number))) / calls;
        const share = median(timing.samples.map((t, i) => (t - (timedInside[i] as number)) / t));
        const cpuPerCall = timing.cpuMedian === null ? null : timing.cpuMedian / calls;
        ctx.log(
          `${task}: ${calls} calls, ${perCall.toFixed(3)} ms per call (backend ${backend.toFixed(3)} ms)`,
        );
        const cpu = cpuPerCall === null ? '' : `; CPU ${round(cpuPerCall)} ms per call`;
        entries.push(
          {
            name: `llm/replayed episode time per LLM call (${task}, every role on replay)`,
            unit: 'ms',
            value: round(perCall),
            extra: `wall median of ${timing.samples.length} episodes / ${calls} calls${cpu}`,
          },
          {
            name: `llm/library time per replayed LLM call (${task}): prompt building, parsing, validation, rules`,
            unit: 'ms',
            value: round(library),
            extra: `median over runs of (episode time − time in ReplayBackend.complete) per call; the backend (hash + look-up + copies) took ${round(backend)} ms per call`,
          },
          {
            name: `llm/library share of a replayed LLM call (${task})`,
            unit: '%',
            value: round(100 * share),
            extra: `median over runs of the library's share of the episode (${round(library)} ms of ${round(perCall)} ms per call); the rest is the replay backend (aim ≤ 5%)`,
          },
        );
      }
    } finally {
      Object.defineProperty(ReplayBackend.prototype, 'complete', original);
    }
    return entries;
  },
};
