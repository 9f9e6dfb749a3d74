/**
 * What the sources cite: the design is in the repository (docs/architecture.md, checked by
 * architecture-doc.test.ts) and the papers are cited by name and section. No file of the library, the command
 * line, the app, the workers, the benchmarks, the experiments or the scripts may point to a document outside the
 * repository — the old design brief `DESIGN.md`, an issue tracker's "issue 9", or a paper's file name such as
 * `emollm.txt` — in a comment, a `--help` text or any other string.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../..');
const FOLDERS = ['src', 'cli', 'demo', 'workers', 'bench', 'experiments', 'scripts'];

/** References to text outside the repository, each with what to cite instead. */
const FORBIDDEN: { pattern: RegExp; instead: string }[] = [
  { pattern: /\bDESIGN\.md\b/, instead: 'docs/architecture.md "Heading"' },
  { pattern: /\bissues?\s+#?\d+/i, instead: 'docs/architecture.md "Heading" or nothing' },
  {
    pattern: /\b(?:emollm|principles|cog-sim-and-cstpo)\.txt\b/,
    instead: 'the paper by name and section ("the EmoLLM paper §3.1")',
  },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path);
    return /\.(ts|tsx|js|mjs|html|css)$/.test(name) ? [path] : [];
  });
}

/** `file:line: text (cite … instead)` for every forbidden reference in `files`. */
function offences(files: string[]): string[] {
  const out: string[] = [];
  for (const file of files) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        for (const { pattern, instead } of FORBIDDEN) {
          const m = pattern.exec(line);
          if (m) out.push(`${file.slice(ROOT.length + 1)}:${i + 1}: "${m[0]}" (cite ${instead})`);
        }
      });
  }
  return out;
}

describe('citations in the sources', () => {
  it('no file names DESIGN.md, an issue number or a paper by its file name', () => {
    const files = FOLDERS.flatMap((d) => sourceFiles(join(ROOT, d)));
    expect(files.length).toBeGreaterThan(200);
    expect(offences(files)).toEqual([]);
  });

  it('the check finds each kind of reference', () => {
    const probe = join(ROOT, 'tests/unit/layout/citations.test.ts');
    // This file names every forbidden form in its own comment and table, so the check must flag it.
    const found = offences([probe]).join('\n');
    expect(found).toContain('"DESIGN.md"');
    expect(found).toContain('"issue 9"');
    expect(found).toContain('"emollm.txt"');
  });
});
