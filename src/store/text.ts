/**
 * A text store: the named text files of one run (`split.json`, curves, evaluations), kept whole. One small
 * interface, {@link TextStore}, with three back ends — a folder in Node (`FolderTextStore`, src/store/node.ts:
 * each file written to a temporary sibling and renamed into place), IndexedDB in a browser ({@link IdbTextStore}:
 * each put one transaction) and memory ({@link MemoryTextStore}: tests, a page without storage). Whatever the back
 * end, a put that fails or is interrupted leaves every text as it was before it or as it is after it, never a mix
 * inside one file.
 *
 * IndexedDB schema (the train jobs' files databases, `pdl-train-files` and `pdl-grpo-files`, version
 * {@link TEXT_DB_VERSION}): one object store `files`, key `[runId, name]` → `{ runId, name, text }`; one database
 * holds the files of many runs, a store sees one run's.
 */
import type { DBSchema, IDBPTransaction } from 'idb';
import { Database, writeTransaction } from './index';

/** The named texts of one run, written atomically (see the module comment). */
export interface TextStore {
  /** Where the texts live, for messages and reports (a folder path, `indexeddb:<runId>`, `memory:<runId>`). */
  readonly location: string;
  /** The text stored under `name`, or null when there is none. */
  get(name: string): Promise<string | null>;
  /**
   * Stores `texts` by name. Each is written whole: an interruption leaves its previous version or the new one.
   * IndexedDB and memory write them all in one step (all or none); a folder writes them one by one, in order.
   * @param options `clear`: first delete every text not in `texts` (IndexedDB and memory: in the same step).
   * @throws the back end's storage errors (StorageQuotaError, DiskFullError, OutputPathError, …); nothing is
   *   changed in IndexedDB or memory when one is thrown.
   */
  put(texts: Readonly<Record<string, string>>, options?: { clear?: boolean }): Promise<void>;
  /** The full name of a text (`<location>/<name>`: a file path in a folder). */
  pathOf(name: string): string;
  /** Releases the back end (a database connection). */
  close(): void;
}

/** Schema version of a text database. */
export const TEXT_DB_VERSION = 1;

/** The schema of a text database (see the module comment). */
export interface TextDb extends DBSchema {
  files: { key: [string, string]; value: { runId: string; name: string; text: string } };
}

/**
 * Opens (creating) a text database.
 * @throws StorageUnavailableError without IndexedDB; StorageBlockedError (see src/store).
 */
export function openTextDatabase(name: string): Promise<Database<TextDb>> {
  return Database.open<TextDb>(name, TEXT_DB_VERSION, (db, oldVersion) => {
    if (oldVersion < 1) db.createObjectStore('files', { keyPath: ['runId', 'name'] });
  });
}

/** The texts of run `runId` in a text database (open it with {@link openTextDatabase}); each put one transaction. */
export class IdbTextStore implements TextStore {
  readonly location: string;

  constructor(
    private readonly db: Database<TextDb>,
    readonly runId: string,
  ) {
    this.location = `indexeddb:${runId}`;
  }

  async get(name: string): Promise<string | null> {
    const row = await (await this.db.connection()).get('files', [this.runId, name]);
    return row?.text ?? null;
  }

  async put(texts: Readonly<Record<string, string>>, options: { clear?: boolean } = {}): Promise<void> {
    await writeTransaction(await this.db.connection(), ['files'], async (tx) => {
      const files = (tx as unknown as IDBPTransaction<TextDb, ['files'], 'readwrite'>).objectStore('files');
      if (options.clear) await files.delete(IDBKeyRange.bound([this.runId, ''], [this.runId, '\uffff']));
      for (const [name, text] of Object.entries(texts)) await files.put({ runId: this.runId, name, text });
    });
  }

  pathOf(name: string): string {
    return `${this.location}/${name}`;
  }

  close(): void {
    this.db.close();
  }
}

/** Texts in memory: a put is checked whole (structured clone) before anything is replaced. */
export class MemoryTextStore implements TextStore {
  readonly location: string;
  private texts = new Map<string, string>();

  constructor(readonly runId: string) {
    this.location = `memory:${runId}`;
  }

  async get(name: string): Promise<string | null> {
    return this.texts.get(name) ?? null;
  }

  async put(texts: Readonly<Record<string, string>>, options: { clear?: boolean } = {}): Promise<void> {
    // structuredClone throws for what IndexedDB could not store either (a function), before any change.
    const copy = structuredClone(texts);
    const next = new Map(options.clear ? [] : this.texts);
    for (const [name, text] of Object.entries(copy)) next.set(name, text);
    this.texts = next;
  }

  pathOf(name: string): string {
    return `${this.location}/${name}`;
  }

  close(): void {}
}
