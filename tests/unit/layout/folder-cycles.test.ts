/**
 * Layering check (docs/architecture.md "Folders"): the folders under `src/` import each other without cycles,
 * so data flows one way. Reads every relative import specifier of every source file, maps it to its top-level
 * folder and looks for a cycle in the resulting folder graph.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(__dirname, '../../../src');
const IMPORT = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The top-level folder under `src/` that holds `path`, or undefined for `src/index.ts` and paths outside. */
function folderOf(path: string): string | undefined {
  const parts = relative(SRC, path).split(sep);
  if (parts[0] === '..' || (parts.length === 1 && /\.tsx?$/.test(parts[0] ?? ''))) return undefined;
  return parts[0];
}

/** Folder → folders it imports (self-imports dropped). */
export function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(SRC)) {
    const from = folderOf(file);
    if (from === undefined) continue;
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const to = folderOf(resolve(dirname(file), match[1] ?? ''));
      if (to !== undefined && to !== from) edges.add(to);
    }
  }
  return graph;
}

/** One cycle of the graph as a list of folders (first repeated at the end), or undefined when it has none. */
function findCycle(graph: Map<string, Set<string>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | undefined => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') return [...stack.slice(stack.indexOf(next)), next];
      if (state.get(next) === undefined) {
        const cycle = visit(next);
        if (cycle) return cycle;
      }
    }
    stack.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of [...graph.keys()].sort()) {
    if (state.get(node) === undefined) {
      const cycle = visit(node);
      if (cycle) return cycle;
    }
  }
  return undefined;
}

describe('src folder layering', () => {
  it('finds a cycle in a graph that has one (the check can fail)', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
    ]);
    expect(findCycle(graph)).toEqual(['a', 'b', 'c', 'a']);
  });

  it('has no folder cycle under src/', () => {
    const graph = folderGraph();
    expect(graph.size).toBeGreaterThan(10);
    expect(findCycle(graph)).toBeUndefined();
  });

  it('keeps stats a leaf that imports only rng and the base error class', () => {
    expect([...(folderGraph().get('stats') ?? [])].sort()).toEqual(['errors', 'rng']);
  });
});
