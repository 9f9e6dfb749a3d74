/**
 * Writes the library's name and version from `package.json` into `src/eval/library.ts`, so that the built library
 * needs no JSON import (an installable package). Run by `npm run library-version` and before
 * `npm run build`; a unit test fails when the written values are stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
/** The generated file. */
export const LIBRARY_FILE = 'src/eval/library.ts';

/** A single-quoted TypeScript string literal (the project's Prettier style). */
function literal(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** The text of {@link LIBRARY_FILE} for a package's name and version (already in Prettier's form). */
export function libraryModule(name: string, version: string): string {
  return [
    "/** The library's name and version, generated from package.json by `npm run library-version` (do not edit). */",
    `export const LIBRARY = { name: ${literal(name)}, version: ${literal(version)} } as const;`,
    '',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  writeFileSync(join(ROOT, LIBRARY_FILE), libraryModule(pkg.name, pkg.version));
  console.log(`${LIBRARY_FILE}: ${pkg.name} ${pkg.version}`);
}
