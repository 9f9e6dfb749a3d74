/**
 * The package's entries: package.json "exports" names built files whose sources exist, with a `types`
 * condition first, and the browser-safe entries (all but `/node`) reach no Node-only module through their relative
 * imports. (The pack test bundles the installed main entry with Vite for the browser too.)
 */
import { existsSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './readme';

/** Packages that only work in Node although their name is not a builtin's. */
const NODE_ONLY_PACKAGES = [/^comlink\/dist\/umd\/node-adapter/, /^cli-progress$/, /^tsx(\/|$)/];

/** The subject entries (src/entries/NAME.ts → `proactive-dialogue-lab/NAME`), in package.json order. */
const SUBJECTS = [
  'simulator',
  'policies',
  'training',
  'evaluation',
  'validity',
  'models',
  'storage',
  'errors',
];

interface ExportTarget {
  types: string;
  import: string;
}

const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, ExportTarget | string>;
  files: string[];
};

/** `./dist/lib/src/index.js` → `src/index.ts` (the build mirrors the tree under dist/lib). */
const sourceOf = (built: string) => built.replace(/^\.\/dist\/lib\//, '').replace(/\.js$/, '.ts');

/** Every module reached from `entry` through relative imports, and the bare specifiers each imports. */
function reach(entry: string): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    const bare: string[] = [];
    seen.set(file, bare);
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName: spec } of info.importedFiles) {
      if (!spec.startsWith('.')) {
        bare.push(spec);
        continue;
      }
      const base = resolve(dirname(file), spec);
      const target = [`${base}.ts`, join(base, 'index.ts'), base].find(
        (f) => f.endsWith('.ts') && existsSync(f),
      );
      if (target) visit(target);
    }
  };
  visit(resolve(REPO_ROOT, entry));
  return seen;
}

function nodeOnlyImports(entry: string): string[] {
  const found: string[] = [];
  for (const [file, bare] of reach(entry)) {
    for (const spec of bare) {
      if (isBuiltin(spec) || NODE_ONLY_PACKAGES.some((re) => re.test(spec))) {
        found.push(`${relative(REPO_ROOT, file)} imports ${spec}`);
      }
    }
  }
  return found;
}

describe('package entries', () => {
  it('exports: a types condition first, built files under dist/lib whose sources exist, all in "files"', () => {
    const subpaths = Object.keys(pkg.exports);
    expect(subpaths).toEqual([
      '.',
      './node',
      './worker',
      ...SUBJECTS.map((s) => `./${s}`),
      './training/node',
      './evaluation/node',
      './server',
      './workers/*',
      './package.json',
    ]);
    for (const [subpath, target] of Object.entries(pkg.exports)) {
      if (typeof target === 'string') continue;
      expect(Object.keys(target), subpath).toEqual(['types', 'import']);
      expect(target.types).toBe(target.import.replace(/\.js$/, '.d.ts'));
      expect(pkg.files.some((f) => target.import.startsWith(`./${f}/`))).toBe(true);
      if (!subpath.includes('*'))
        expect(existsSync(join(REPO_ROOT, sourceOf(target.import))), subpath).toBe(true);
    }
  });

  it('every entry but the Node ones (the main one, /worker, the subjects) reaches no Node-only module', () => {
    expect(nodeOnlyImports('src/index.ts')).toEqual([]);
    expect(nodeOnlyImports('src/worker.ts')).toEqual([]);
    for (const subject of SUBJECTS) expect(nodeOnlyImports(`src/entries/${subject}.ts`), subject).toEqual([]);
  });

  it('the main entry re-exports from the subject entries only (one name is one thing in every entry)', () => {
    const main = readFileSync(join(REPO_ROOT, 'src/index.ts'), 'utf8');
    const sources = [...main.matchAll(/ from '([^']+)';$/gm)].map((m) => m[1]);
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.filter((s) => !/^\.\/entries\/\w+$/.test(s ?? ''))).toEqual([]);
  });

  it('the check finds the Node-only modules of /node and /evaluation/node (it can fail)', () => {
    const found = nodeOnlyImports('src/node.ts');
    expect(found).toContain('src/data/node.ts imports node:fs/promises');
    const pool = nodeOnlyImports('src/entries/evaluation-node.ts');
    expect(pool.some((f) => f.includes('node:worker_threads'))).toBe(true);
  });
});
