/**
 * Node-only helpers: read dataset or seed files from disk (`node:fs`). Not exported from the browser-safe
 * `src/data/index.ts`; import `src/data/node` from Node code (CLI, benches, tests).
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import type { TaskName } from '../tasks/emollm';
import { loadSeedsFromFiles } from './files';
import { P4G_FILE_NAMES } from './p4g';
import type { LoadOptions, LoadResult, TextFile } from './result';

const DATA_EXTENSIONS = new Set(['.jsonl', '.csv']);

async function readText(path: string): Promise<TextFile> {
  return { name: path, text: await readFile(path, 'utf8') };
}

/** The P4G files next to a P4G CSV: the file itself plus any standard-named companion in its folder. */
async function p4gSiblings(path: string): Promise<string[]> {
  const folder = dirname(path);
  const present = new Set(await readdir(folder));
  const siblings = Object.values(P4G_FILE_NAMES)
    .filter((name) => name !== basename(path) && present.has(name))
    .map((name) => join(folder, name));
  return [path, ...siblings];
}

/**
 * Load the seeds of `task` from a path: a dataset file (ESConv / CraigslistBargain JSONL, or a P4G CSV — its
 * standard-named companions next to it are read too), a seed file (JSONL of seeds, detected by content), or a
 * folder (every `.jsonl` and `.csv` file in it, e.g. the `p4g` folder); for an EmoLLM setting (`emollm-ed`, …),
 * EmoLLM scenario JSONL (see `loadSeedsFromFiles`). The one loader of every command's `--seeds`. File names in
 * errors and warnings are the paths read.
 * @throws DatasetError / EmollmSeedFileError from the loaders; the `node:fs` error when a path cannot be read.
 */
export async function loadSeedsFromPath(
  path: string,
  task: TaskName,
  options: LoadOptions = {},
): Promise<LoadResult> {
  let paths: string[];
  if ((await stat(path)).isDirectory()) {
    const names = (await readdir(path)).filter((n) => DATA_EXTENSIONS.has(extname(n).toLowerCase())).sort();
    paths = names.map((n) => join(path, n));
  } else if (task === 'p4g' && extname(path).toLowerCase() === '.csv') {
    paths = await p4gSiblings(path);
  } else {
    paths = [path];
  }
  return loadSeedsFromFiles(task, await Promise.all(paths.map(readText)), options);
}
