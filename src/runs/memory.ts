/** One kind's runs in memory (tests, a page without storage); see src/runs/store.ts for what a run is. */
import type { RunKind, RunStoreOf, RunTypes, StoredRunOf } from './store';

/** Runs in memory: structured clones in and out, so callers cannot change what is stored. */
export class MemoryRuns<T extends RunTypes> implements RunStoreOf<T> {
  private readonly runs = new Map<string, StoredRunOf<T>>();

  constructor(readonly kind: RunKind<T>) {}

  async createRun(run: T['record'], init: T['snapshot']): Promise<void> {
    this.runs.set(run.id, structuredClone({ run, init, latest: init, history: [] }));
  }

  async saveStep(
    runId: string,
    latest: T['snapshot'],
    rows: readonly T['row'][],
    status: T['record']['status'],
  ): Promise<void> {
    const stored = this.runs.get(runId);
    if (!stored) throw this.kind.notFound(runId);
    const kept = stored.history.filter((r) => r.step <= latest.step && !rows.some((n) => n.step === r.step));
    stored.history = [...kept, ...structuredClone(rows)].sort((a, b) => a.step - b.step);
    stored.latest = structuredClone(latest);
    stored.run = { ...stored.run, step: latest.step, status, updatedAt: new Date().toISOString() };
  }

  async setStatus(runId: string, status: T['record']['status']): Promise<void> {
    const stored = this.runs.get(runId);
    if (!stored) throw this.kind.notFound(runId);
    stored.run = { ...stored.run, status, updatedAt: new Date().toISOString() };
  }

  async load(runId: string): Promise<StoredRunOf<T> | null> {
    const stored = this.runs.get(runId);
    if (!stored) return null;
    const copy = structuredClone(stored);
    copy.history = copy.history.filter((r) => r.step <= copy.latest.step);
    this.kind.validate(copy, 'memory');
    return copy;
  }

  async listRuns(): Promise<T['record'][]> {
    return [...this.runs.values()].map((s) => structuredClone(s.run));
  }

  async deleteRun(runId: string): Promise<void> {
    this.runs.delete(runId);
  }

  close(): void {}
}
