/**
 * The template judge is an independent rater (DESIGN.md "The language backends"; issue 9): it reads text with its
 * own scorer and imports nothing from the simulator's perception (`src/text`) or the simulator (`src/sim`), at
 * any depth of its relative imports; and the simulator does not use the judge's scorer package.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../..');
const SRC = join(ROOT, 'src');

/** Module specifiers of a TypeScript file (static imports and re-exports, type-only ones included). */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:import|export)\s[^'";]*?from\s+['"]([^'"]+)['"]/g)].map((m) => m[1] as string);
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

/** Every source file reached from `entry` through relative imports. */
function closure(entry: string): Set<string> {
  const seen = new Set<string>();
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of specifiers(file)) {
      if (!spec.startsWith('.')) continue;
      const target = resolveTs(file, spec);
      if (target === null) throw new Error(`${relative(ROOT, file)}: cannot resolve "${spec}"`);
      stack.push(target);
    }
  }
  return seen;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('template judge independence', () => {
  it('reaches no file of src/text or src/sim through its imports', () => {
    const reached = [...closure(join(SRC, 'env/judge.ts'))].map((f) => relative(SRC, f));
    expect(reached).toContain('env/judge.ts');
    expect(reached).toContain('tasks/success.ts');
    const forbidden = reached.filter((f) => f.startsWith('text/') || f.startsWith('sim/'));
    expect(forbidden).toEqual([]);
  });

  it('the closure check sees a forbidden import when there is one (the environment imports the simulator)', () => {
    const reached = [...closure(join(SRC, 'env/env.ts'))].map((f) => relative(SRC, f));
    expect(reached.some((f) => f.startsWith('sim/'))).toBe(true);
  });

  it('scores with the sentiment package (AFINN-165), which the simulator does not use', () => {
    expect(specifiers(join(SRC, 'env/judge.ts'))).toContain('./afinn');
    expect(specifiers(join(SRC, 'env/afinn.ts'))).toContain('sentiment');
    const simFiles = [...filesUnder(join(SRC, 'text')), ...filesUnder(join(SRC, 'sim'))];
    expect(simFiles.length).toBeGreaterThan(0);
    const users = simFiles.filter((f) => specifiers(f).includes('sentiment')).map((f) => relative(SRC, f));
    expect(users).toEqual([]);
  });
});
