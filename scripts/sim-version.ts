/**
 * The simulator version (docs/architecture.md "One version for one behaviour"): a hash of everything that
 * decides what Cog-Sim does in template mode — every source module of `src/` that the simulator and the
 * environment's step reach through their imports (rules, limits, lexicons, templates, the task specs and
 * topic lexicons perception reads, the environment's step) and the exact versions of the npm packages those
 * modules import. The set is computed from the import graph, starting at {@link SIMULATOR_ROOTS}, so a new
 * dependency of the simulator is hashed without editing a list. Type-only imports (`import type`,
 * `export type`) are not followed: they change no behaviour. `npm run sim-version` writes the hash to
 * `src/sim/version.ts`; a unit test fails when the written value is stale, so a rule change cannot ship under
 * an old version.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
/**
 * Where the simulator's template path starts: every source of these folders and files (Cog-Sim in `src/sim`, its
 * perception in `src/text`, the environment's step in `src/env/env.ts`); everything they import within `src/`
 * is followed from here.
 */
export const SIMULATOR_ROOTS = ['src/sim', 'src/text', 'src/env/env.ts'];
/** The generated file (excluded from the hash). */
export const VERSION_FILE = 'src/sim/version.ts';

function files(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => {
      const child = join(path, name);
      return statSync(child).isDirectory() ? files(child) : /\.tsx?$/.test(name) ? [child] : [];
    });
}

/** The module file a relative specifier names (`./x` → `x.ts`, `x.tsx` or `x/index.ts`), or null. */
function resolveModule(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')];
  if (/\.js$/.test(base)) candidates.unshift(base.replace(/\.js$/, '.ts'));
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? null;
}

/** The specifiers a module imports for their values: static and dynamic imports and re-exports. */
function valueImports(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const out: string[] = [];
  for (const m of code.matchAll(/^\s*(import|export)\s+(type\s+)?[^'";]*?\bfrom\s+['"]([^'"]+)['"]/gm))
    if (m[2] === undefined) out.push(m[3]!);
  for (const m of code.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) out.push(m[1]!);
  for (const m of code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1]!);
  return out;
}

/**
 * The simulator's modules and packages: the closure of {@link SIMULATOR_ROOTS} under value imports within
 * `src/` (paths relative to `root`, `/`-separated, sorted), and the npm packages those modules import.
 */
export function simulatorModules(root = ROOT): { modules: string[]; packages: string[] } {
  const src = join(root, 'src');
  const seen = new Set<string>();
  const packages = new Set<string>();
  const queue = SIMULATOR_ROOTS.flatMap((p) => files(join(root, p)));
  while (queue.length > 0) {
    const path = queue.pop()!;
    if (seen.has(path)) continue;
    seen.add(path);
    for (const spec of valueImports(readFileSync(path, 'utf8'))) {
      if (spec.startsWith('.')) {
        const target = resolveModule(path, spec);
        if (target && !relative(src, target).startsWith('..')) queue.push(target);
      } else if (!spec.startsWith('node:')) {
        packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
      }
    }
  }
  const modules = [...seen].map((p) => relative(root, p).split('\\').join('/')).sort();
  return { modules, packages: [...packages].sort() };
}

/** `cogsim-` followed by the first 12 hex digits of a SHA-256 over the simulator's modules and package versions. */
export function computeSimulatorVersion(root = ROOT): string {
  const hash = createHash('sha256');
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string }>;
  };
  const { modules, packages } = simulatorModules(root);
  for (const name of modules) {
    if (name === VERSION_FILE) continue;
    hash.update(`${name}\n${readFileSync(join(root, name), 'utf8').replace(/\r\n/g, '\n')}\n`);
  }
  for (const name of packages) {
    hash.update(`${name}@${lock.packages[`node_modules/${name}`]?.version ?? 'builtin'}\n`);
  }
  return `cogsim-${hash.digest('hex').slice(0, 12)}`;
}

/** The contents of {@link VERSION_FILE} for `version`. */
export function versionModule(version: string): string {
  return [
    '/**',
    ' * The simulator version: a hash of the rules, limits, lexicons and templates of Cog-Sim in template mode and of',
    ' * every src/ module its template path imports (task specs, topic lexicons, the environment step), and of the',
    ' * packages they use. Generated by `npm run sim-version` (scripts/sim-version.ts); a test fails when stale.',
    ' * Every summary, trajectory, report, manifest and run names it.',
    ' */',
    `export const SIMULATOR_VERSION = '${version}';`,
    '',
  ].join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const version = computeSimulatorVersion();
  writeFileSync(join(ROOT, VERSION_FILE), versionModule(version));
  console.log(`${VERSION_FILE}: ${version}`);
}
