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
 *
 * That library time holds the simulator's rules, the env and the judge's averaging too. The target figure, the
 * **plumbing** (prompt building, parsing, validation, retries), is measured on its own: every LLM role's adapter
 * method (`ADAPTERS`: the roles' `classify`, `assess`, `propose`, `respond`, `realize`, `terminal`, `turn`, …)
 * is timed from entry to exit, one at a time (an adapter entered inside another, or a backend call outside
 * every adapter, fails the benchmark), and the time inside `ReplayBackend.complete` is taken out. The headline
 * is that figure in the replay runs, plus the roles' per-job setup (`resolveRoles`: config validation and role
 * construction, less the backend's construction) per call. In the replay runs the same code took about twice
 * as long as in the tape runs: the backend's hashing goes through the thread pool and the main thread resumes
 * cold after waiting (runs whose backend does nothing but one such round trip, `wake`, show part or most of the
 * gap), and the backend's own memory traffic evicts what the plumbing uses. The tape-run and `wake` figures are
 * given in the entry's `extra`.
 */
import {
  LlmRealizer,
  LlmStrategyProposer,
  LlmArgActor,
  LlmReversePredictor,
} from '../../src/entries/policies';
import {
  LlmJudge,
  LlmModeClassifier,
  LlmChangeProposer,
  LlmResponder,
  deepFreeze,
} from '../../src/entries/simulator';
import { ReplayBackend, canonicalJson, resolveRoles, type ChatResponse } from '../../src/entries/models';
import { playJob, replayJob, type EpisodeFixture } from '../../tests/fixtures/llm/episode';
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

/**
 * What the instrumented `complete` does: time the real one (and record its answers), check, play the tape, or
 * play the tape after one thread-pool round trip (`wake`: a SHA-256 of 8 bytes through Web Crypto, timed as
 * backend time), as the replay backend's own hashing makes the main thread wait and wake up on every call.
 */
type Mode = 'record' | 'replay' | 'verify' | 'tape' | 'wake';

const WAKE_BYTES = new Uint8Array(8);

/**
 * The LLM roles' adapter methods: each builds its role's prompt and schema, asks through `askRole` (request,
 * backend call, parse, validation, retries) and turns the answer into the role's result. Every LLM call of an
 * episode is made inside one of them (checked: a call outside them fails the benchmark).
 */
const ADAPTERS: readonly (readonly [object, string])[] = [
  [LlmModeClassifier.prototype, 'classify'],
  [LlmChangeProposer.prototype, 'assess'],
  [LlmChangeProposer.prototype, 'propose'],
  [LlmResponder.prototype, 'respond'],
  [LlmStrategyProposer.prototype, 'propose'],
  [LlmRealizer.prototype, 'realize'],
  [LlmJudge.prototype, 'terminal'],
  [LlmJudge.prototype, 'turn'],
  [LlmArgActor.prototype, 'reason'],
  [LlmReversePredictor.prototype, 'predict'],
];

export const llmOverheadBenchmark: Benchmark = {
  name: 'llm/overhead',
  async run(ctx) {
    const entries: BenchEntry[] = [];
    const original = Object.getOwnPropertyDescriptor(ReplayBackend.prototype, 'complete');
    if (!original) throw new Error('ReplayBackend.complete not found');
    const complete = original.value as ReplayBackend['complete'];
    let mode: Mode = 'replay';
    let inside = 0;
    // Time inside the role adapters (one at a time: an adapter entered inside another fails the benchmark).
    let inAdapter = false;
    let adapterTime = 0;
    const adapterOriginals = ADAPTERS.map(([proto, key]) => {
      const descriptor = Object.getOwnPropertyDescriptor(proto, key);
      if (!descriptor) throw new Error(`role adapter ${key} not found`);
      return [proto, key, descriptor] as const;
    });
    for (const [proto, key, descriptor] of adapterOriginals) {
      const method = descriptor.value as (...args: unknown[]) => Promise<unknown>;
      Object.defineProperty(proto, key, {
        ...descriptor,
        value: async function timedAdapter(this: unknown, ...args: unknown[]): Promise<unknown> {
          if (inAdapter) throw new Error(`role adapter ${key} entered while another was running`);
          inAdapter = true;
          const start = performance.now();
          try {
            return await method.apply(this, args);
          } finally {
            adapterTime += performance.now() - start;
            inAdapter = false;
          }
        },
      });
    }
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
        if (!inAdapter) throw new Error('an LLM call outside the instrumented role adapters');
        if (mode === 'tape') return tape[position++] as ChatResponse;
        if (mode === 'wake') {
          const start = performance.now();
          await crypto.subtle.digest('SHA-256', WAKE_BYTES);
          inside += performance.now() - start;
          return tape[position++] as ChatResponse;
        }
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
        await playJob(job);
        const calls = tape.length;
        mode = 'verify';
        position = 0;
        await playJob(job);
        if (position !== calls)
          throw new Error(`the tape run made ${position} calls, the replay run ${calls}`);

        const runs = ctx.timing.runs;
        // Interleaved pairs: drift of a shared machine hits both runs of a pair alike.
        const insideByRun: number[] = [];
        const plumbingByReplayRun: number[] = [];
        const plumbingByTapeRun: number[] = [];
        const comparison = await compare(
          async () => {
            mode = 'replay';
            inside = 0;
            adapterTime = 0;
            await playJob(job);
            insideByRun.push(inside);
            plumbingByReplayRun.push(adapterTime - inside);
          },
          async () => {
            mode = 'tape';
            position = 0;
            adapterTime = 0;
            await playJob(job);
            plumbingByTapeRun.push(adapterTime);
          },
          { warmup: Math.max(ctx.timing.warmup, 1), runs },
        );
        const construction = await measure(() => new ReplayBackend({ fixture: episode.fixture }), {
          warmup: 3,
          runs: 4 * runs,
        });
        // The tape played after a bare thread-pool round trip per call: the plumbing as woken by any async backend.
        const plumbingByWakeRun: number[] = [];
        await measure(
          async () => {
            mode = 'wake';
            position = 0;
            inside = 0;
            adapterTime = 0;
            await playJob(job);
            plumbingByWakeRun.push(adapterTime - inside);
          },
          { warmup: 1, runs },
        );
        // The roles' per-job setup: config validation and role construction (with the backend's, taken out below).
        const language = job.language as NonNullable<typeof job.language>;
        const setup = await measure(() => resolveRoles(language), { warmup: 3, runs: 4 * runs });
        const replay = comparison.target.samples;
        const timedInside = insideByRun.slice(-replay.length);
        const perCall = comparison.target.median / calls;
        const library = (comparison.baseline.median - construction.median) / calls;
        const backend = (median(timedInside) + construction.median) / calls;
        const outside = median(replay.map((t, i) => t - (timedInside[i] as number))) / calls;
        const interaction = perCall - library - backend;
        const setupPerCall = (setup.median - construction.median) / calls;
        const adaptersReplay = median(plumbingByReplayRun.slice(-replay.length)) / calls;
        const adaptersTape = median(plumbingByTapeRun.slice(-replay.length)) / calls;
        const adaptersWake = median(plumbingByWakeRun.slice(-runs)) / calls;
        const plumbing = adaptersReplay + setupPerCall;
        const cpuPerCall = comparison.target.cpuMedian === null ? null : comparison.target.cpuMedian / calls;
        ctx.log(
          `${task}: ${calls} calls, ${perCall.toFixed(3)} ms per call (plumbing ${plumbing.toFixed(4)} ms, library ${library.toFixed(3)} ms, backend ${backend.toFixed(3)} ms)`,
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
              `(collector and cache work the backend's allocations cause outside it); not the target figure, see ` +
              `"plumbing share"`,
          },
          {
            name: `llm/plumbing time per replayed LLM call (${task}): prompt building, parsing, validation, retries`,
            unit: 'ms',
            value: round(plumbing),
            extra:
              `per call, in the replay runs: time inside the role adapters (the LLM roles' methods: prompt and ` +
              `schema, askRole's request, parse, validation and retries, the usage counter, turning the answer into ` +
              `the role's result) less the time inside ReplayBackend.complete, median ${round(adaptersReplay)} ms; ` +
              `plus the roles' per-job setup (resolveRoles: config validation, role construction) less the backend's ` +
              `construction, ${round(setupPerCall)} ms. Not counted: the simulator's rules, env, judge averaging, ` +
              `rollout; counted: the timing wrapper's own await. The same adapters took ${round(adaptersTape)} ms ` +
              `per call in the tape runs (no backend work between calls) and ${round(adaptersWake)} ms when the tape ` +
              `was played after one bare thread-pool round trip per call (the main thread waits and wakes up, as ` +
              `on the replay backend's hashing or any asynchronous backend)`,
          },
          {
            name: `llm/plumbing share of a replayed LLM call (${task})`,
            unit: '%',
            value: round((100 * plumbing) / perCall),
            extra: `plumbing time / replay run per call (${round(plumbing)} ms of ${round(perCall)} ms) (aim ≤ 5%)`,
          },
        );
      }
    } finally {
      Object.defineProperty(ReplayBackend.prototype, 'complete', original);
      for (const [proto, key, descriptor] of adapterOriginals) Object.defineProperty(proto, key, descriptor);
    }
    return entries;
  },
};
