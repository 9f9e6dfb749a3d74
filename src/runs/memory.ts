/** One kind's runs in memory (tests, a page without storage); see src/runs/store.ts for what a run is. */
import { MemoryTextRoot } from '../store/text';
import type { RunKind, RunTypes } from './store';
import { TextRuns } from './text';

/**
 * Runs in memory: the run store of src/runs/text.ts over memory text stores (texts in, parsed copies out, so
 * callers cannot change what is stored).
 */
export class MemoryRuns<T extends RunTypes> extends TextRuns<T> {
  constructor(kind: RunKind<T>) {
    super(new MemoryTextRoot(), kind);
  }
}
