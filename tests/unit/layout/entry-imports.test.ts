/**
 * The repository's own users of the library — cli/, demo/, workers/, bench/, experiments/ and scripts/ — import it
 * through the package's entries only (src/index.ts, src/node.ts, src/worker.ts, src/entries/NAME.ts), as an
 * installed package's user would (issue 27). ESLint enforces it as you type (`DEEP_IMPORT` in eslint.config.js);
 * this test reads every file with the pattern ESLint applies to cli/, static imports, re-exports and `import()` alike, so a deep
 * import fails the unit tests too.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../import-graph';

const FOLDERS = ['cli', 'demo', 'workers', 'bench', 'experiments', 'scripts'];
/** The one module no entry can hold: the wasm binaries' URLs, Vite `?url` imports that Node cannot load. */
const VITE_ONLY = [
  'workers/rollout.worker.ts: ../src/gpu/wasm-assets',
  'workers/episode.worker.ts: ../src/gpu/wasm-assets',
];
/** Every module specifier of a file: `from '…'` and `import('…')`. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*)['"]([^'"]+)['"]/g;
let deep: RegExp;

/** The rule's pattern as ESLint applies it to a file of cli/ (so the test checks the config in force). */
beforeAll(async () => {
  const config = (await new ESLint({ cwd: ROOT }).calculateConfigForFile(join(ROOT, 'cli/pdl.ts'))) as {
    rules: Record<string, [unknown, { patterns: { regex: string }[] }]>;
  };
  const regex = config.rules['no-restricted-imports']?.[1].patterns[0]?.regex;
  if (regex === undefined) throw new Error('eslint.config.js has no no-restricted-imports pattern for cli/');
  deep = new RegExp(regex);
});

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** `file: specifier` for each deep import in `text`. */
function deepImports(file: string, text: string): string[] {
  return [...text.matchAll(SPECIFIER)]
    .map((m) => m[1] as string)
    .filter((s) => deep.test(s))
    .map((s) => `${file}: ${s}`);
}

describe('the library is imported through its entries', () => {
  it('the pattern tells entries from deep imports (it can fail)', () => {
    const probe = [
      "import { TASK_RULES } from '../src/sim/rules';",
      "import { getTask } from '../../src/entries/simulator';",
      "import { DialogueEnv } from '../src';",
      "import { FileRunStore } from '../src/node';",
      "const m = await import('../../../src/llm/webllm');",
      "const n = await import('../src/entries/models');",
    ].join('\n');
    expect(deepImports('probe.ts', probe)).toEqual([
      'probe.ts: ../src/sim/rules',
      'probe.ts: ../../../src/llm/webllm',
    ]);
  });

  it('no file of cli/, demo/, workers/, bench/, experiments/ or scripts/ reaches into src/', () => {
    const found = FOLDERS.flatMap((folder) =>
      files(join(ROOT, folder)).flatMap((f) => deepImports(relative(ROOT, f), readFileSync(f, 'utf8'))),
    );
    expect(found.filter((f) => !VITE_ONLY.includes(f))).toEqual([]);
  });
});
