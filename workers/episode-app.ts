/**
 * The app's additions to the episode worker's API (workers/episode.worker.ts spreads them in): what the Watch and
 * Evaluate pages need besides the shared jobs — the stored memories and runs that can play as policies, the
 * dose–response validation on the bundled ladders, and the report's download files. The stores are small (runs are
 * listed without their trainer or tfjs, src/runs/list.ts) and imported statically; the report formatter is
 * imported on the call that needs it.
 */
import { ladderDoseResponse, type EvalReport } from '../src/entries/evaluation';
import { defaultSeeds, type TaskId } from '../src/entries/simulator';
// Static, and light: the memory store and the runs list (without a trainer or tfjs). A dynamic import of the
// /training entry would be one chunk with every export the worker uses from it, trainJob's tfjs included.
import { PrincipleStore } from '../src/entries/policies';
import { listStoredRuns } from '../src/entries/storage';

/** A memory or training run stored in this origin's IndexedDB, as the registry policy that plays it. */
export interface StoredPolicy {
  /** The registry name: `principles:<memory name>` or `cstpo:<run id>`. */
  policy: string;
  kind: 'principles' | 'cstpo';
  task: TaskId;
  /** Plain words: "12 principles", "3 RL steps, finished". */
  detail: string;
}

/** The dose–response of one task on its bundled ladder (src/eval/validation.ts `ladderDoseResponse`). */
export interface DoseResult {
  task: TaskId;
  /** Per level, lowest first: the mean outcome over seeds. */
  levelMeans: number[];
  /** Per seed id: the outcome of each level (paraphrase-averaged). */
  perSeed: Record<string, number[]>;
  /** Share of seeds whose outcome never falls and ends above its start, in [0, 1]. */
  monotoneShare: number;
  seeds: number;
}

export const appApi = {
  /**
   * Every principle memory and CSTPO run stored in this origin's IndexedDB (the library's stores, default
   * database names), as policies; memories first, each kind by name.
   * @throws the stores' errors (StorageError (STORAGE_UNAVAILABLE), StorageError (STORAGE_DENIED), StorageError (STORAGE_BLOCKED), …).
   */
  async storedPolicies(): Promise<StoredPolicy[]> {
    const out: StoredPolicy[] = [];
    const memories = await PrincipleStore.open(undefined, { notice: (line) => console.info(line.trim()) });
    try {
      for (const m of (await memories.list()).sort((a, b) => a.name.localeCompare(b.name)))
        out.push({
          policy: `principles:${m.name}`,
          kind: 'principles',
          task: m.task,
          detail: `${m.count} principles`,
        });
    } finally {
      memories.close();
    }
    const notice = { notice: (line: string) => console.info(line.trim()) };
    for (const r of (await listStoredRuns({}, notice)).filter((run) => run.algo === 'cstpo'))
      out.push({
        policy: `cstpo:${r.id}`,
        kind: 'cstpo',
        task: r.config.task,
        detail: `${r.step} RL steps, ${r.status}`,
      });
    return out;
  },

  /**
   * The dose–response of `task` on the project's default ladder (src/eval/ladders.ts) from the first `seeds`
   * bundled seeds, with deterministic routes (the `validate-sim` command's dose rows).
   * @throws InputError (EVAL_INPUT_INVALID) for no seeds.
   */
  async doseResponse(task: TaskId, seeds: number): Promise<DoseResult> {
    const r = await ladderDoseResponse({ task, seeds: defaultSeeds(task).slice(0, Math.max(1, seeds)) });
    return {
      task,
      levelMeans: r.levelMeans,
      perSeed: r.perSeed,
      monotoneShare: r.monotoneShare,
      seeds: r.seeds,
    };
  },

  /** The report as the JSON, CSV and Markdown files the command line writes (src/eval/report-format.ts). */
  async reportFiles(report: EvalReport): Promise<{ json: string; csv: string; md: string }> {
    const { reportToCsv, reportToJson, reportToMarkdown } = await import('../src/entries/evaluation');
    return { json: reportToJson(report), csv: reportToCsv(report), md: reportToMarkdown(report) };
  },
};
