/**
 * Call and token counters shared by the backends that keep them (replay, scripted). Token counts come from
 * each response's `usage`; calls whose response reports no usage are counted in `callsWithoutUsage`.
 */
import type { ChatResponse } from './types';

/** Running totals; all fields are non-negative integers. */
export interface UsageStats {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  callsWithoutUsage: number;
}

/** A zeroed {@link UsageStats}. */
export function emptyUsageStats(): UsageStats {
  return { calls: 0, promptTokens: 0, completionTokens: 0, callsWithoutUsage: 0 };
}

/** Adds one call's response to `stats` (mutates and returns it). */
export function addUsage(stats: UsageStats, response: ChatResponse): UsageStats {
  stats.calls += 1;
  if (response.usage) {
    stats.promptTokens += response.usage.prompt_tokens;
    stats.completionTokens += response.usage.completion_tokens;
  } else {
    stats.callsWithoutUsage += 1;
  }
  return stats;
}
