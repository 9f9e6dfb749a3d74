/**
 * The run store shared by the trainers (CSTPO, src/rl; EmoLLM's GRPO, src/grpo): a run is its metadata (a
 * {@link RunRecordBase}), an `init` snapshot (before RL; CSTPO's is the SFT baseline), a `latest` snapshot (after
 * the last saved step) and one history row per step 1…latest. What differs between the trainers — the record,
 * snapshot and row types, how a loaded run is checked, which typed errors are thrown — is a {@link RunKind}; this
 * module never imports a trainer (nor tfjs), so listing runs stays light (src/runs/list.ts).
 *
 * Every back end stores a run the same way, as the texts of a run folder (src/runs/text.ts `TextRuns`): folders
 * in Node (src/runs/node.ts), an IndexedDB text database per trainer in a browser ({@link IdbRuns}, schema version
 * {@link RUN_DB_VERSION}: the text store's `files`, key `[runId, name]`; version 1's structured-clone stores are
 * migrated on open, {@link openRunDatabase}), memory for tests and storage-less pages (src/runs/memory.ts). A step
 * is saved in one put (IndexedDB: one transaction), so a failed write — quota exceeded included — leaves the
 * previous step's state intact.
 */
import type { DBSchema } from 'idb';
import { z } from 'zod';
import type { LabError } from '../errors';
import type { Database } from '../store';
import { IdbTextRoot, openTextDatabase, type TextDb, type TextRow } from '../store/text';
import { float32Replacer, runTexts, TextRuns } from './text';
import { TaskIdSchema, type TaskId } from '../tasks/seed';

/** Schema version of a run database. */
export const RUN_DB_VERSION = 2;

/** The trainers whose runs are stored. */
export type RunAlgo = 'cstpo' | 'grpo-emollm';

/** Default database of each trainer's runs (the names existing runs are stored under). */
export const RUN_DATABASES: Readonly<Record<RunAlgo, string>> = { cstpo: 'pdl-rl', 'grpo-emollm': 'pdl-grpo' };

/** Lifecycle of a run (GRPO runs are never `paused`). */
export type RunStatus = 'running' | 'paused' | 'stopped' | 'finished';

/** What every run record holds (each trainer's record adds its full configuration). */
export interface RunRecordBase {
  id: string;
  config: { task: TaskId; steps: number };
  /** RL steps saved. */
  step: number;
  status: RunStatus;
  /** ISO-8601 times. */
  createdAt: string;
  updatedAt: string;
  /** The tfjs backend the trainer used, with the selection summary. */
  backend?: string;
}

/**
 * The fields every run record holds ({@link RunRecordBase}), as a zod schema; each kind extends it with its full
 * configuration ({@link RunKind.record}). Unknown fields pass.
 */
export const RunRecordBaseSchema = z.object({
  id: z.string(),
  config: z.object({ task: TaskIdSchema, steps: z.number().int().min(0) }),
  step: z.number().int().min(0),
  status: z.enum(['running', 'paused', 'stopped', 'finished']),
  createdAt: z.string(),
  updatedAt: z.string(),
  backend: z.string().optional(),
});

/** The types of one trainer's runs. */
export interface RunTypes {
  record: RunRecordBase;
  /** A trainer snapshot; `step` is the number of RL steps it holds. */
  snapshot: { step: number };
  /** A history row; `step` is 1-based. */
  row: { step: number };
}

/** A stored run: metadata, the initial and latest snapshots and the history of steps 1…latest.step. */
export interface StoredRunOf<T extends RunTypes> {
  run: T['record'];
  init: T['snapshot'];
  latest: T['snapshot'];
  history: T['row'][];
}

/** What differs between the trainers' runs. */
export interface RunKind<T extends RunTypes> {
  algo: RunAlgo;
  /**
   * The schema of the kind's run record (a run folder's `run.json`), checked when it is read: a record that fails
   * it is damaged (src/runs/node.ts names the file and the first bad field).
   */
  record: z.ZodType;
  /**
   * Checks a loaded run before it is used. @param source where it was read from (a folder, a database).
   * @throws the kind's damaged-run error.
   */
  validate(stored: StoredRunOf<T>, source: string): void;
  /** The error for a run that is not stored. */
  notFound(runId: string): LabError;
  /** The error for a damaged stored run: `source` (a file) and what is wrong with it. */
  damaged(runId: string, source: string, reason: string): LabError;
  /** The error for a run id that is not a plain folder name. */
  badId(runId: string): LabError;
}

/** Where one trainer's runs are kept. */
export interface RunStoreOf<T extends RunTypes> {
  /** Store a new run with its initial snapshot (used as both `init` and `latest`). Replaces a run of that id. */
  createRun(run: T['record'], init: T['snapshot']): Promise<void>;
  /**
   * Save a step atomically: the latest snapshot, the new history rows and the run's step and status.
   * @throws the kind's not-found error for an unknown run.
   */
  saveStep(
    runId: string,
    latest: T['snapshot'],
    rows: readonly T['row'][],
    status: T['record']['status'],
  ): Promise<void>;
  /** Change a run's status. @throws the kind's not-found error for an unknown run. */
  setStatus(runId: string, status: T['record']['status']): Promise<void>;
  /**
   * A run with its snapshots and history (rows beyond the latest snapshot are dropped), or null.
   * @throws the kind's damaged-run error when what is stored is damaged.
   */
  load(runId: string): Promise<StoredRunOf<T> | null>;
  listRuns(): Promise<T['record'][]>;
  /** Delete a run (no error when it is not stored). */
  deleteRun(runId: string): Promise<void>;
  close(): void;
}

/**
 * Stores an exported run (checked first with the kind's `validate`); a running or paused run is stored as
 * stopped, so it can be resumed. Written as its creation (the run with its initial snapshot) and one step (its
 * latest snapshot with the history); should the second fail, the first is undone, so nothing half-imported stays.
 * @returns the stored record.
 * @throws the kind's damaged-run error; storage errors (DiskFullError (STORAGE_QUOTA), …).
 */
export async function importRun<T extends RunTypes>(
  store: RunStoreOf<T>,
  kind: RunKind<T>,
  stored: StoredRunOf<T>,
): Promise<T['record']> {
  kind.validate(stored, 'the imported file');
  const status = stored.run.status === 'finished' ? 'finished' : 'stopped';
  const run = { ...stored.run, step: 0, status };
  await store.createRun(run, stored.init);
  try {
    await store.saveStep(run.id, stored.latest, stored.history, status);
  } catch (e) {
    await store.deleteRun(run.id).catch(() => undefined);
    throw e;
  }
  return { ...run, step: stored.latest.step };
}

/**
 * The schema of a run database before version 2 (kept for its migration): `runs` (key `id`), `snapshots` (key
 * `[runId, tag]`, tag `init` or `latest`, snapshots as structured clones) and `history` (key `[runId, step]`).
 */
export interface RunDb<T extends RunTypes> extends DBSchema {
  runs: { key: string; value: T['record'] };
  snapshots: {
    key: [string, string];
    value: { runId: string; tag: 'init' | 'latest'; snapshot: T['snapshot'] };
  };
  history: { key: [string, number]; value: { runId: string; step: number; record: T['row'] } };
}

/**
 * The text rows of a version-1 run database's records: each run's `run.json`, `init.json`, `latest.json` and
 * `history.jsonl` as a run folder holds them (src/runs/text.ts). A run without both snapshots (none can be: they
 * were written with the run) is left out, as version 1 did not load it either.
 */
function runRows(records: Readonly<Record<string, unknown[]>>): TextRow[] {
  type V1 = RunDb<RunTypes>;
  const runs = (records.runs ?? []) as V1['runs']['value'][];
  const snapshots = (records.snapshots ?? []) as V1['snapshots']['value'][];
  const history = (records.history ?? []) as V1['history']['value'][];
  const rows: TextRow[] = [];
  for (const run of runs) {
    const snapshot = (tag: string) => snapshots.find((s) => s.runId === run.id && s.tag === tag)?.snapshot;
    const init = snapshot('init');
    const latest = snapshot('latest');
    if (init === undefined || latest === undefined) continue;
    const steps = history
      .filter((h) => h.runId === run.id)
      .sort((x, y) => x.step - y.step)
      .map((h) => JSON.stringify(h.record) + '\n');
    const texts: Record<string, string> = {
      ...runTexts<RunTypes>(run, init),
      'latest.json': JSON.stringify(latest, float32Replacer),
      'history.jsonl': steps.join(''),
    };
    for (const [name, text] of Object.entries(texts)) rows.push({ runId: run.id, name, text });
  }
  return rows;
}

/**
 * Opens (creating) a run database: a text database (src/store/text.ts) holding each run's texts under its id. A
 * database of version 1 (runs, snapshots and history as structured clones, written by earlier versions of the
 * app) is migrated on open, in its upgrade transaction (all or nothing: an interrupted migration leaves version 1
 * whole), and `notice` is told once how many runs moved.
 * @throws StorageError (STORAGE_UNAVAILABLE) without IndexedDB; StorageError (STORAGE_BLOCKED) when another connection blocks the
 *   upgrade (see src/store).
 */
export function openRunDatabase(
  name: string,
  options: { notice?: (line: string) => void } = {},
): Promise<Database<TextDb>> {
  return openTextDatabase(name, {
    version: RUN_DB_VERSION,
    stores: ['runs', 'snapshots', 'history'],
    convert: runRows,
    migrated: (rows) => {
      const runs = new Set(rows.map((r) => r.runId)).size;
      options.notice?.(
        `notice: IndexedDB "${name}": ${runs} stored run${runs === 1 ? '' : 's'} moved to the text format of ` +
          `run folders (database version ${RUN_DB_VERSION}); nothing was lost\n`,
      );
    },
  });
}

/** One kind's runs in IndexedDB: the run store of src/runs/text.ts over one text database (see the module comment). */
export class IdbRuns<T extends RunTypes> extends TextRuns<T> {
  /** Use {@link openRunDatabase} for `db`. */
  constructor(
    private readonly db: Database<TextDb>,
    kind: RunKind<T>,
  ) {
    super(new IdbTextRoot(db), kind);
  }

  /** `IndexedDB <database>`. */
  protected override where(): string {
    return `IndexedDB ${this.db.name}`;
  }
}
