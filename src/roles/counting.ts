/** A `ChatBackend` decorator that counts one role's calls and tokens (any backend, not only replay). */
import { addUsage, emptyUsageStats, type UsageStats } from '../llm/usage';
import type { CallOptions, ChatBackend, ChatRequest, ChatResponse } from '../llm/types';

/**
 * Passes every call to `inner` and adds the response's usage to its own counters. With `signal` (the run's stop
 * signal), every call is also aborted when it fires: Ctrl-C / Stop ends the generation in flight.
 */
export class CountingBackend implements ChatBackend {
  readonly name: string;
  private readonly counters: UsageStats = emptyUsageStats();

  constructor(
    private readonly inner: ChatBackend,
    private readonly signal?: AbortSignal,
  ) {
    this.name = inner.name;
  }

  async complete(request: ChatRequest, options?: CallOptions): Promise<ChatResponse> {
    const run = this.signal;
    const signal = run && options?.signal ? AbortSignal.any([run, options.signal]) : (run ?? options?.signal);
    const response = await this.inner.complete(request, signal ? { ...options, signal } : options);
    addUsage(this.counters, response);
    return response;
  }

  /** Calls answered and tokens reported so far (failed calls are not counted). */
  get stats(): UsageStats {
    return { ...this.counters };
  }
}
