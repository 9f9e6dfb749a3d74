/**
 * The folder back end of {@link TextStore} (Node only): each text is the file `<dir>/<name>`, written to a
 * temporary sibling, flushed and renamed into place (src/io `writeFileAtomic`), so an interruption or a full disk
 * leaves the previous file whole.
 */
import { readdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { readTextFileIfExists, writeFileAtomic } from '../io/node';
import type { TextStore } from './text';

/** The texts of one run as files of the folder `dir` (created on the first put). */
export class FolderTextStore implements TextStore {
  readonly location: string;

  constructor(dir: string) {
    this.location = resolve(dir);
  }

  get(name: string): Promise<string | null> {
    return readTextFileIfExists(this.pathOf(name));
  }

  /**
   * Writes the files one by one in the order given, each atomically; with `clear`, the folder's other files
   * (not hidden ones, not subfolders) are removed afterwards.
   * @throws DiskFullError / OutputPathError naming the file (src/io `writeFileAtomic`).
   */
  async put(texts: Readonly<Record<string, string>>, options: { clear?: boolean } = {}): Promise<void> {
    for (const [name, text] of Object.entries(texts)) await writeFileAtomic(this.pathOf(name), text);
    if (!options.clear) return;
    const entries = await readdir(this.location, { withFileTypes: true });
    for (const e of entries)
      if (e.isFile() && !e.name.startsWith('.') && !(e.name in texts)) await rm(join(this.location, e.name));
  }

  pathOf(name: string): string {
    return join(this.location, name);
  }

  close(): void {}
}
