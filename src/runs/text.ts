/**
 * The one run store of both trainers over the text store (src/store/text.ts), whatever its back end: each run is
 * a text store under its id in a {@link TextRoot} — a folder of run folders in Node (`FolderRuns`, src/runs/node.ts),
 * one IndexedDB text database in a browser (`IdbRuns`, src/runs/store.ts) or memory (`MemoryRuns`,
 * src/runs/memory.ts) — holding the same texts everywhere: `run.json` (the run record), `init.json` and
 * `latest.json` (trainer snapshots; float32 arrays as base64 of their bytes, `{ "$f32": "…" }`, so values
 * round-trip exactly) and `history.jsonl` (one row a line). A step is saved in one put of the history, then the
 * snapshot and the run record (IndexedDB and memory: one step, all or none; a folder: file by file, each renamed
 * into place); on load, history rows beyond the latest snapshot's step are dropped, so an interrupted save
 * resumes from the previous step. A damaged text (not JSON, a bad float32 payload, a run record with no config, a
 * missing snapshot, a run that fails the kind's `validate`) raises the kind's damaged-run error naming the text;
 * a run record that fails the kind's `record` schema a CheckpointError (RUN_FILE_DAMAGED) naming the text and the
 * first bad field. The id is the run: a copied or renamed run folder loads under its folder's name (the id its
 * `run.json` records is only a label). Browser-safe.
 */
import { assertFiniteConfig, damagedRunFileError, runKindError } from './errors';
import { describeZodError } from '../data/result';
import { describeJsonError, jsonLineReason } from '../io/json';
import { base64ToFloat32, float32ToBase64 } from '../store/float32';
import type { TextRoot, TextStore } from '../store/text';
import type { RunKind, RunStoreOf, RunTypes, StoredRunOf } from './store';
import { hasCode, CheckpointError } from '../errors';

/** JSON replacer that writes a Float32Array as `{ "$f32": "<base64 of its bytes>" }`. */
export function float32Replacer(_key: string, value: unknown): unknown {
  return value instanceof Float32Array ? { $f32: float32ToBase64(value) } : value;
}

/**
 * JSON reviver, the inverse of {@link float32Replacer}.
 * @throws CheckpointError (RUN_FLOAT32_INVALID) when a `$f32` payload is not a base64 string or its byte length is
 *   not a multiple of 4 (the stores turn it into their damaged-run error naming the file).
 */
export function float32Reviver(_key: string, value: unknown): unknown {
  if (value !== null && typeof value === 'object' && '$f32' in value) {
    const payload = (value as { $f32: unknown }).$f32;
    if (typeof payload !== 'string')
      throw new CheckpointError('RUN_FLOAT32_INVALID', 'a $f32 payload is not a base64 string');
    return base64ToFloat32(payload);
  }
  return value;
}

/** The texts of a run's state (`files` of a train job's run sit beside them). */
export function runTexts<T extends RunTypes>(run: T['record'], init: T['snapshot']): Record<string, string> {
  const snapshot = JSON.stringify(init, float32Replacer);
  return {
    'init.json': snapshot,
    'latest.json': snapshot,
    'history.jsonl': '',
    'run.json': JSON.stringify(run, null, 2),
  };
}

/** One kind's runs as text stores of a {@link TextRoot} (see the module comment). */
export class TextRuns<T extends RunTypes> implements RunStoreOf<T> {
  /**
   * @param root where the runs' texts live.
   * @param options `notice`: told in one line when a loaded run's `run.json` records another id than its own (a
   *   copied or renamed folder, loaded under the folder's name).
   */
  constructor(
    protected readonly place: TextRoot,
    readonly kind: RunKind<T>,
    private readonly options: { notice?: (line: string) => void } = {},
  ) {}

  /** The texts of run `runId`. @throws the kind's bad-id error when `runId` is not a plain folder name. */
  protected files(runId: string): TextStore {
    if (!/^[\w.-]+$/.test(runId) || runId === '.' || runId === '..') throw this.kind.badId(runId);
    return this.place.store(runId);
  }

  /** Where a run is, as its errors name it (default: its text store's location). */
  protected where(files: TextStore): string {
    return files.location;
  }

  /**
   * Parses the JSON text `name` of run `runId` in `files` (null when it does not exist).
   * @throws the kind's damaged-run error naming the text (and the line of the damage) when it is not JSON, not an
   *   object, or holds a bad float32 payload; the reason is in words, never the parser's character offset.
   */
  private async readJson<V>(files: TextStore, name: string, runId: string): Promise<V | null> {
    const text = await files.get(name);
    if (text === null) return null;
    const path = files.pathOf(name);
    let value: unknown;
    try {
      value = JSON.parse(text, float32Reviver);
    } catch (e) {
      if (hasCode(e, CheckpointError, 'RUN_FLOAT32_INVALID')) throw this.kind.damaged(runId, path, e.message);
      const { reason, line } = describeJsonError(text, e);
      throw this.kind.damaged(runId, line === undefined ? path : `${path} line ${line}`, reason);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw this.kind.damaged(runId, path, 'not a JSON object');
    }
    return value as V;
  }

  /** The history rows. @throws the kind's damaged-run error naming `history.jsonl` and the line. */
  private async history(files: TextStore, runId: string): Promise<T['row'][]> {
    const text = await files.get('history.jsonl');
    if (text === null) return [];
    const path = files.pathOf('history.jsonl');
    const rows: T['row'][] = [];
    const lines = text.split('\n');
    for (const [i, line] of lines.entries()) {
      if (line.trim() === '') continue;
      try {
        rows.push(JSON.parse(line) as T['row']);
      } catch (e) {
        // Only a last line without a line break after it is what a cut write leaves.
        const why = jsonLineReason(line, e, i === lines.length - 1);
        const reason = why.startsWith(': ') ? why.slice(2) : `not valid JSON${why}`;
        throw this.kind.damaged(runId, `${path} line ${i + 1}`, reason);
      }
    }
    return rows;
  }

  /**
   * Stores the run with `init` as both snapshots and an empty history, replacing every text of a run of that id,
   * in one put (IndexedDB, memory: all or none; `FolderRuns` overrides it to create the folder whole).
   */
  async createRun(run: T['record'], init: T['snapshot']): Promise<void> {
    await this.files(run.id).put(runTexts<T>(run, init), { clear: true });
  }

  /** Keeps the stored rows up to the new snapshot's step that the new rows do not replace. */
  async saveStep(
    runId: string,
    latest: T['snapshot'],
    rows: readonly T['row'][],
    status: T['record']['status'],
  ): Promise<void> {
    const files = this.files(runId);
    const run = await this.readJson<T['record']>(files, 'run.json', runId);
    if (!run) throw this.kind.notFound(runId);
    const kept = (await this.history(files, runId)).filter(
      (r) => r.step <= latest.step && !rows.some((n) => n.step === r.step),
    );
    const all = [...kept, ...rows].sort((a, b) => a.step - b.step);
    const next = { ...run, id: runId, step: latest.step, status, updatedAt: new Date().toISOString() };
    // In this order (a folder: each file renamed into place): a save cut short leaves rows beyond the latest
    // snapshot, which `load` drops, so the run resumes from the previous step.
    await files.put({
      'history.jsonl': all.map((r) => JSON.stringify(r) + '\n').join(''),
      'latest.json': JSON.stringify(latest, float32Replacer),
      'run.json': JSON.stringify(next, null, 2),
    });
  }

  async setStatus(runId: string, status: T['record']['status']): Promise<void> {
    const files = this.files(runId);
    const run = await this.readJson<T['record']>(files, 'run.json', runId);
    if (!run) throw this.kind.notFound(runId);
    await files.put({
      'run.json': JSON.stringify({ ...run, id: runId, status, updatedAt: new Date().toISOString() }, null, 2),
    });
  }

  /**
   * The run `runId`, or null when it has no `run.json` (none, or its creation was interrupted).
   * @throws CheckpointError (RUN_KIND_MISMATCH) when the run record names the other trainer (checked before any
   *   snapshot is read); PathError (PATH_KIND_MISMATCH) when a run folder is a file; CheckpointError
   *   (RUN_FILE_DAMAGED) naming the text and field of a config number that is not finite (`1e999`); the kind's
   *   damaged-run error naming the text at fault: one that is not JSON, a run record with no config, a missing
   *   snapshot, or a run that fails the kind's `validate`; CheckpointError (RUN_FILE_DAMAGED) naming `run.json` and
   *   the first field that fails the kind's `record` schema (`config.task: …`). The loaded record's id is `runId`
   *   (a copied or renamed folder loads); the kind's bad-id error for an id that is not a plain folder name.
   */
  async load(runId: string): Promise<StoredRunOf<T> | null> {
    const files = this.files(runId);
    const where = this.where(files);
    const runPath = files.pathOf('run.json');
    const run = await this.readJson<T['record'] & { algo?: string }>(files, 'run.json', runId);
    if (!run) return null;
    const algo = run.algo ?? 'cstpo';
    if (algo !== this.kind.algo) throw runKindError(where, algo, this.kind.algo);
    if (run.config === null || typeof run.config !== 'object') {
      throw this.kind.damaged(runId, runPath, 'it has no training config');
    }
    assertFiniteConfig(runPath, run.config);
    const checked = this.kind.record.safeParse(run);
    if (!checked.success) throw damagedRunFileError(runPath, describeZodError(checked.error));
    const snapshot = async (name: 'init' | 'latest'): Promise<T['snapshot']> => {
      const path = files.pathOf(`${name}.json`);
      const value = await this.readJson<T['snapshot']>(files, `${name}.json`, runId);
      if (!value) throw this.kind.damaged(runId, path, 'the file is missing');
      assertFiniteConfig(path, (value as { config?: unknown }).config);
      return value;
    };
    const [init, latest] = await Promise.all([snapshot('init'), snapshot('latest')]);
    const rows = await this.history(files, runId);
    const history = rows.filter((r) => typeof r?.step !== 'number' || r.step <= latest.step);
    // The folder is the run: a copied or renamed folder loads, its recorded id only a label (the folder name wins).
    if (run.id !== runId)
      this.options.notice?.(
        `notice: ${runPath} records run ${JSON.stringify(run.id)}; loaded as "${runId}", its folder's name\n`,
      );
    const stored: StoredRunOf<T> = { run: { ...run, id: runId, step: latest.step }, init, latest, history };
    this.kind.validate(stored, where);
    return stored;
  }

  /**
   * The runs of this kind in the root (a run of the other trainer, told by its record's `algo`, is skipped, and
   * so are hidden folders: temporary ones of a creation in progress or interrupted).
   */
  async listRuns(): Promise<T['record'][]> {
    // A hidden name is a folder being created or replaced (src/io `createDirAtomic`), never a run.
    const runs = await Promise.all(
      (await this.place.ids())
        .filter((n) => !n.startsWith('.'))
        .map(async (n) => {
          const run = await this.readJson<T['record'] & { algo?: string }>(this.place.store(n), 'run.json', n);
          return run === null ? null : { ...run, id: n };
        }),
    );
    return runs.filter((r) => r !== null && (r.algo ?? 'cstpo') === this.kind.algo) as T['record'][];
  }

  async deleteRun(runId: string): Promise<void> {
    this.files(runId);
    await this.place.remove(runId);
  }

  close(): void {
    this.place.close();
  }
}
