/** Locations of the real datasets (`../shared/data` from the project root) and of this folder's fixtures. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** The shared dataset folder. */
export const DATA_DIR = `${root}../shared/data`;
/** Small hand-written files in the dataset formats, with quirks and corruptions. */
export const FIXTURES_DIR = `${root}tests/fixtures/data`;

export const readData = (relative: string): string => readFileSync(`${DATA_DIR}/${relative}`, 'utf8');
export const readFixture = (relative: string): string => readFileSync(`${FIXTURES_DIR}/${relative}`, 'utf8');

/** Catch what `run` throws (fails the test when it throws nothing). */
export function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (e) {
    return e;
  }
  throw new Error('expected an error, none was thrown');
}
