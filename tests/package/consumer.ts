/**
 * A fresh consumer project for the packed tarball (used by pack.test.ts): a `package.json` depending on the
 * tarball and a `package-lock.json` that pins the tarball and, for its dependencies, exactly the entries of the
 * repository's own lockfile (the non-dev part). `npm ci --offline` then installs from the npm cache that the
 * repository's `npm ci` filled, without asking the registry anything; nothing is downloaded.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

interface LockEntry {
  dev?: boolean;
  [key: string]: unknown;
}

/**
 * A lock entry with its registry tarball URL: the repository's lockfile may omit `resolved` (npm then asks the
 * registry for the package's metadata, which `--offline` may not have cached — it had not for `ws`); the URL
 * follows from the name and version, and the tarball itself is in the cache under the entry's integrity.
 */
function withResolved(path: string, entry: LockEntry): LockEntry {
  if (entry.resolved !== undefined || entry.link || typeof entry.version !== 'string') return entry;
  const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
  const file = `${name.slice(name.lastIndexOf('/') + 1)}-${entry.version}.tgz`;
  return { ...entry, resolved: `https://registry.npmjs.org/${name}/-/${file}` };
}

/** Writes `package.json` and `package-lock.json` of a consumer of `tarball` into `dir` (beside the tarball). */
export function writeConsumer(repoRoot: string, dir: string, tarball: string): void {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
    license: string;
    dependencies: Record<string, string>;
    engines: Record<string, string>;
    bin?: Record<string, string>;
  };
  const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const spec = `file:../${basename(tarball)}`;
  const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  const packages: Record<string, unknown> = {
    '': { name: 'consumer', dependencies: { [pkg.name]: spec } },
    [`node_modules/${pkg.name}`]: {
      version: pkg.version,
      resolved: spec,
      integrity,
      license: pkg.license,
      dependencies: pkg.dependencies,
      engines: pkg.engines,
      // npm links `node_modules/.bin/pdl` from the lock entry's `bin`, as `npm install` would have written it.
      ...(pkg.bin ? { bin: pkg.bin } : {}),
    },
  };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path.startsWith('node_modules/') && !entry.dev) packages[path] = withResolved(path, entry);
  }
  const manifest = { name: 'consumer', private: true, type: 'module', dependencies: { [pkg.name]: spec } };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(
    join(dir, 'package-lock.json'),
    `${JSON.stringify({ name: 'consumer', lockfileVersion: 3, requires: true, packages }, null, 2)}\n`,
  );
}
