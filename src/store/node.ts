/**
 * The folder back end of {@link TextStore} (Node only): each text is the file `<dir>/<name>`, written to a
 * temporary sibling, flushed and renamed into place (src/io `writeFileAtomic`), so an interruption or a full disk
 * leaves the previous file whole.
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { lockOutput } from '../io/lock';
import { readTextFileIfExists, writeFileAtomic, type PathNames } from '../io/node';
import type { StoreLock, TextRoot, TextStore } from './text';

/**
 * The texts of one run as files of the folder `dir` (created on the first put). Paths are named as `dir` is given
 * (relative or absolute), in `pathOf` and in every error.
 */
export class FolderTextStore implements TextStore {
  /**
   * @param location the folder.
   * @param names what a text and the folder are, in words, for a read error on the wrong kind of path (`run
   *   folder`; src/io `PathNames`).
   */
  constructor(
    readonly location: string,
    private readonly names: PathNames = {},
  ) {}

  /**
   * @throws PathError (FILE_UNREADABLE) naming the file (not UTF-8, with the line and byte; no permission); PathError (PATH_KIND_MISMATCH) when
   *   it or the folder is the wrong kind of path.
   */
  get(name: string): Promise<string | null> {
    return readTextFileIfExists(this.pathOf(name), this.names);
  }

  /** The folder's plain files (not hidden ones: locks, temporaries), sorted; none when there is no folder. */
  async list(): Promise<string[]> {
    return (await this.files()).sort();
  }

  /** The names of the folder's plain, not hidden files ([] without a folder). */
  private async files(): Promise<string[]> {
    try {
      const entries = await readdir(this.location, { withFileTypes: true });
      return entries.filter((e) => e.isFile() && !e.name.startsWith('.')).map((e) => e.name);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
  }

  /**
   * Writes the files one by one in the order given, each atomically; with `clear`, the folder's other files
   * (not hidden ones, not subfolders) are removed afterwards.
   * @throws DiskFullError (DISK_FULL) / PathError (OUTPUT_PATH_INVALID) naming the file (src/io `writeFileAtomic`).
   */
  async put(texts: Readonly<Record<string, string>>, options: { clear?: boolean } = {}): Promise<void> {
    for (const [name, text] of Object.entries(texts)) await writeFileAtomic(this.pathOf(name), text);
    if (!options.clear) return;
    for (const name of await this.files()) if (!(name in texts)) await rm(join(this.location, name));
  }

  /**
   * Reads the file, then writes what `change` makes of it to a temporary sibling renamed into place (or removes
   * the file for null). One process at a time: take {@link FolderTextStore.lock} where several may write.
   */
  async update(name: string, change: (text: string | null) => string | null): Promise<string | null> {
    const old = await this.get(name);
    const next = change(old);
    if (next === old) return next;
    if (next === null) await rm(this.pathOf(name), { force: true });
    else await writeFileAtomic(this.pathOf(name), next);
    return next;
  }

  pathOf(name: string): string {
    return join(this.location, name);
  }

  /**
   * The folder's lock file `.<name>.lock` beside it (src/io/lock.ts `lockOutput`: one process at a time; a lock
   * whose process is gone is taken over).
   * @throws LockHeldError (OUTPUT_LOCKED) naming the live holder; PathError (OUTPUT_PATH_INVALID) when the lock file cannot be written.
   */
  lock(): Promise<StoreLock> {
    return lockOutput(this.location);
  }

  close(): void {}
}

/**
 * The text stores of the folders under `location` (one folder per id: a run folder), for {@link TextRoot}. An id's
 * folder is created by its first put; `ids` lists the entries of `location` but hidden ones (locks, folders being
 * created), none when it does not exist.
 */
export class FolderTextRoot implements TextRoot {
  /** @param names how a read error names a text and its folder (`run folder`; src/io `PathNames`). */
  constructor(
    readonly location: string,
    private readonly names: PathNames = {},
  ) {}

  store(id: string): FolderTextStore {
    return new FolderTextStore(join(this.location, id), this.names);
  }

  async ids(): Promise<string[]> {
    try {
      return (await readdir(this.location)).filter((n) => !n.startsWith('.')).sort();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
  }

  /** Removes the folder of `id` with everything in it. */
  async remove(id: string): Promise<void> {
    await rm(join(this.location, id), { recursive: true, force: true });
  }

  close(): void {}
}
