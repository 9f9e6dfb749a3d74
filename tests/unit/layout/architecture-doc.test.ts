/**
 * docs/architecture.md stays honest about the code: its folder table names every folder of `src/` (and no folder
 * that is gone), and every source comment that cites one of its sections (`docs/architecture.md "Heading"`)
 * names a heading that exists.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../..');
const DOC = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');

/** The headings of the document (any level), without the `#` marks. */
function headings(markdown: string): string[] {
  return [...markdown.matchAll(/^#{1,6} (.+)$/gm)].map((m) => (m[1] ?? '').trim());
}

/** The body of the section under `## name` (up to the next `## ` heading). */
function section(markdown: string, name: string): string {
  const start = markdown.indexOf(`\n## ${name}\n`);
  if (start < 0) return '';
  const next = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, next < 0 ? undefined : next);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path);
    return /\.(ts|js)$/.test(name) ? [path] : [];
  });
}

describe('docs/architecture.md', () => {
  it('the folder table lists exactly the folders of src/', () => {
    const src = join(ROOT, 'src');
    const folders = readdirSync(src).filter((n) => statSync(join(src, n)).isDirectory());
    const table = section(DOC, 'Folders');
    const listed = new Set(
      table
        .split('\n')
        .filter((l) => /^\|\s*\d+\s*\|/.test(l))
        .flatMap((l) => [...(l.split('|')[2] ?? '').matchAll(/`([a-z-]+)`/g)].map((m) => m[1])),
    );
    expect(folders.length).toBeGreaterThan(10);
    expect([...listed].sort()).toEqual(folders.sort());
  });

  it('every citation of a section in the sources names an existing heading', () => {
    const known = new Set(headings(DOC));
    expect(known).toContain('Invariants');
    expect(known).toContain('Step 6: updater');
    const missing: string[] = [];
    for (const dir of ['src', 'cli', 'workers', 'demo', 'bench', 'scripts', 'experiments']) {
      for (const file of sourceFiles(join(ROOT, dir))) {
        const text = readFileSync(file, 'utf8');
        for (const m of text.matchAll(/docs\/architecture\.md"?,?\s*"([^"]+)"/g)) {
          if (!known.has(m[1] ?? '')) missing.push(`${file.slice(ROOT.length + 1)}: "${m[1]}"`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
