/** A `ChatBackend` decorator that counts one role's calls and tokens (any backend, not only replay). */
import { addUsage, emptyUsageStats, type UsageStats } from '../llm/usage';
import type { CallOptions, ChatBackend, ChatRequest, ChatResponse } from '../llm/types';

/** Passes every call to `inner` and adds the response's usage to its own counters. */
export class CountingBackend implements ChatBackend {
  readonly name: string;
  private readonly counters: UsageStats = emptyUsageStats();

  constructor(private readonly inner: ChatBackend) {
    this.name = inner.name;
  }

  async complete(request: ChatRequest, options?: CallOptions): Promise<ChatResponse> {
    const response = await this.inner.complete(request, options);
    addUsage(this.counters, response);
    return response;
  }

  /** Calls answered and tokens reported so far (failed calls are not counted). */
  get stats(): UsageStats {
    return { ...this.counters };
  }
}
