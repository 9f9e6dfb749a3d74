/**
 * Node storage of the train job: one run per folder (`FileRunStore` files plus the job's text files), checked
 * before any work by the `src/io` output guard and written with atomic file writes. Not browser-safe.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { assertOutputAvailable, createDirAtomic, writeFileAtomic } from '../io/node';
import { FileRunStore } from '../rl/node';
import type { TrainStorage, TrainStorageState } from './train';

/** A run folder (`out`): its name is the run id, its parent the run store's root. */
export class FolderTrainStorage implements TrainStorage {
  readonly runId: string;
  readonly location: string;
  readonly runs: FileRunStore;

  /** @param out the run folder (created when the run starts; parents too). */
  constructor(private readonly out: string) {
    this.location = resolve(out);
    this.runId = basename(resolve(out));
    this.runs = new FileRunStore(dirname(resolve(out)));
  }

  /**
   * The marker of a run folder is `split.json`, the first file a run writes: a folder left by a run stopped
   * during SFT (split only, no `run.json` yet) can then be overwritten instead of being refused for good.
   * @throws OutputConflictError / OutputPathError from `assertOutputAvailable`.
   */
  prepare(mode: { resume: boolean; overwrite: boolean }): Promise<TrainStorageState> {
    return assertOutputAvailable(this.out, { kind: 'dir', ownerMarker: 'split.json', ...mode });
  }

  /** The run folder made aside with `files` and renamed into place (src/io `createDirAtomic`). */
  async create(files: Record<string, string>, replace: boolean): Promise<void> {
    await createDirAtomic(
      this.out,
      async (temp) => {
        for (const [name, text] of Object.entries(files)) await writeFile(join(temp, name), text);
      },
      { replace },
    );
  }

  async readText(name: string): Promise<string | null> {
    try {
      return await readFile(this.pathOf(name), 'utf8');
    } catch (e) {
      if ((e as { code?: string }).code === 'ENOENT') return null;
      throw e;
    }
  }

  writeText(name: string, text: string): Promise<void> {
    return writeFileAtomic(this.pathOf(name), text);
  }

  pathOf(name: string): string {
    return join(resolve(this.out), name);
  }

  close(): void {
    this.runs.close();
  }
}
