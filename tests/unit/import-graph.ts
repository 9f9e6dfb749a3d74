/**
 * The relative import graph of the sources, for the independence tests
 * (docs/architecture.md "Role boundaries"): which files a module reaches through its static imports and
 * re-exports, at any depth.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The repository root. */
export const ROOT = resolve(__dirname, '../..');
/** The library sources. */
export const SRC = join(ROOT, 'src');

/**
 * Module specifiers of a TypeScript file: static imports and re-exports; type-only ones (`import type`,
 * `export type`) unless `runtimeOnly`.
 */
export function specifiers(file: string, runtimeOnly = false): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:import|export)(\s+type)?\s[^'";]*?from\s+['"]([^'"]+)['"]/g)]
    .filter((m) => !(runtimeOnly && m[1] !== undefined))
    .map((m) => m[2] as string);
}

function resolveTs(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // try the next candidate
    }
  }
  return null;
}

/**
 * Every source file reached from `entry` through relative imports (`runtimeOnly`: those that are not type-only),
 * as paths relative to src/ ("env/judge.ts").
 * @throws Error for a relative import that resolves to no file.
 */
export function closure(entry: string, runtimeOnly = false): string[] {
  const seen = new Set<string>();
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of specifiers(file, runtimeOnly)) {
      if (!spec.startsWith('.')) continue;
      const target = resolveTs(file, spec);
      if (target === null) throw new Error(`${relative(ROOT, file)}: cannot resolve "${spec}"`);
      stack.push(target);
    }
  }
  return [...seen].map((f) => relative(SRC, f));
}

/** Every .ts file under `dir`, absolute paths. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}
