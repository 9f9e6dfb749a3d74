/**
 * `llm/overhead`: what the library costs around each language-model call on the replay backend. The recorded
 * full episodes of tests/fixtures/llm/episodes (every role — strategy proposer, realizer, mode classifier, change
 * proposer, responder, judge — with realistic and malformed recorded answers, which are retried) are run two
 * ways, interleaved:
 * - **replay**: the real `ReplayBackend` (request validation, hashing, look-up, copies); the time inside its
 *   `complete` is summed per run;
 * - **tape**: `ReplayBackend.complete` hands back the answers the replay run received, in call order, with no
 *   work at all (checked once beforehand: every request of a tape run equals the replay run's).
 * The library's time is the tape run's (prompt building, parsing, validation, retries, the simulator's rules
 * between calls) minus the replay backend's construction (its copy and validation of the fixture, timed on its
 * own), which belongs to the backend. It is not "replay run − time inside `complete`": that difference also holds
 * the fixture's copy and validation, and collector and cache work that the backend's allocations cause and that
 * lands in whatever runs next (the first answer check after a call took 3–4 times as long as the same check
 * repeated); it is still reported, as `outside`, in the library entry's `extra`. The share is the library's time
 * over the replay run's; the rest of that run is the backend's: its own time and that collector and cache work.
 */
import { ReplayBackend, canonicalJson } from '../../src/llm/replay';
import type { ChatResponse } from '../../src/llm/types';
import { runLanguageJob } from '../../src/roles/job';
import { deepFreeze } from '../../src/sim/freeze';
import { replayJob, type EpisodeFixture } from '../../tests/fixtures/llm/episode';
import cbFixture from '../../tests/fixtures/llm/episodes/cb.replay.json';
import esconvFixture from '../../tests/fixtures/llm/episodes/esconv.replay.json';
import p4gFixture from '../../tests/fixtures/llm/episodes/p4g.replay.json';
import { compare, measure } from '../timing';
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

/** What the instrumented `complete` does: time the real one (and record its answers), check, or play the tape. */
type Mode = 'record' | 'replay' | 'verify' | 'tape';

export const llmOverheadBenchmark: Benchmark = {
  name: 'llm/overhead',
  async run(ctx) {
    const entries: BenchEntry[] = [];
    const original = Object.getOwnPropertyDescriptor(ReplayBackend.prototype, 'complete');
    if (!original) throw new Error('ReplayBackend.complete not found');
    const complete = original.value as ReplayBackend['complete'];
    let mode: Mode = 'replay';
    let inside = 0;
    let tape: ChatResponse[] = [];
    let requests: string[] = [];
    let position = 0;
    // Bench-only instrumentation of the backend's method, restored below.
    Object.defineProperty(ReplayBackend.prototype, 'complete', {
      ...original,
      value: async function instrumented(
        this: ReplayBackend,
        ...args: Parameters<ReplayBackend['complete']>
      ): Promise<ChatResponse> {
        if (mode === 'tape') return tape[position++] as ChatResponse;
        if (mode === 'verify') {
          const expected = requests[position];
          if (canonicalJson(args[0]) !== expected)
            throw new Error(`the tape run's request ${position} differs from the replay run's`);
          return tape[position++] as ChatResponse;
        }
        const start = performance.now();
        try {
          const response = await complete.apply(this, args);
          if (mode === 'record') {
            tape.push(deepFreeze(structuredClone(response)));
            requests.push(canonicalJson(args[0]));
          }
          return response;
        } finally {
          inside += performance.now() - start;
        }
      },
    });
    try {
      for (const [task, episode] of Object.entries(EPISODES)) {
        const job = replayJob(episode);
        mode = 'record';
        tape = [];
        requests = [];
        await runLanguageJob(job);
        const calls = tape.length;
        mode = 'verify';
        position = 0;
        await runLanguageJob(job);
        if (position !== calls)
          throw new Error(`the tape run made ${position} calls, the replay run ${calls}`);

        const runs = ctx.timing.runs;
        // Interleaved pairs: drift of a shared machine hits both runs of a pair alike.
        const insideByRun: number[] = [];
        const comparison = await compare(
          async () => {
            mode = 'replay';
            inside = 0;
            await runLanguageJob(job);
            insideByRun.push(inside);
          },
          async () => {
            mode = 'tape';
            position = 0;
            await runLanguageJob(job);
          },
          { warmup: Math.max(ctx.timing.warmup, 1), runs },
        );
        const construction = await measure(() => new ReplayBackend({ fixture: episode.fixture }), {
          warmup: 3,
          runs: 4 * runs,
        });
        const replay = comparison.target.samples;
        const timedInside = insideByRun.slice(-replay.length);
        const perCall = comparison.target.median / calls;
        const library = (comparison.baseline.median - construction.median) / calls;
        const backend = (median(timedInside) + construction.median) / calls;
        const outside = median(replay.map((t, i) => t - (timedInside[i] as number))) / calls;
        const interaction = perCall - library - backend;
        const cpuPerCall = comparison.target.cpuMedian === null ? null : comparison.target.cpuMedian / calls;
        ctx.log(
          `${task}: ${calls} calls, ${perCall.toFixed(3)} ms per call (library ${library.toFixed(3)} ms, backend ${backend.toFixed(3)} ms)`,
        );
        const cpu = cpuPerCall === null ? '' : `; CPU ${round(cpuPerCall)} ms per call`;
        const tapeCpu = comparison.baseline.cpuMedian;
        const libraryCpu =
          tapeCpu === null || construction.cpuMedian === null
            ? ''
            : `; library CPU ${round((tapeCpu - construction.cpuMedian) / calls)} ms per call`;
        entries.push(
          {
            name: `llm/replayed episode time per LLM call (${task}, every role on replay)`,
            unit: 'ms',
            value: round(perCall),
            extra: `wall median of ${replay.length} episodes / ${calls} calls${cpu}`,
          },
          {
            name: `llm/library time per replayed LLM call (${task}): prompt building, parsing, validation, rules`,
            unit: 'ms',
            value: round(library),
            extra:
              `median tape run (answers handed back without work) − the replay backend's construction (` +
              `${round(construction.median)} ms), per call; the backend took ${round(backend)} ms per call ` +
              `(inside ReplayBackend.complete, plus its construction); outside complete ${round(outside)} ms${libraryCpu}`,
          },
          {
            name: `llm/library share of a replayed LLM call (${task})`,
            unit: '%',
            value: round((100 * library) / perCall),
            extra:
              `library time / replay run per call (${round(library)} ms of ${round(perCall)} ms); the rest is the replay ` +
              `backend: ${round(backend)} ms of its own, and ${round(interaction)} ms that only the two together take ` +
              `(collector and cache work the backend's allocations cause outside it) (aim ≤ 5%)`,
          },
        );
      }
    } finally {
      Object.defineProperty(ReplayBackend.prototype, 'complete', original);
    }
    return entries;
  },
};
