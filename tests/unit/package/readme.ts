/**
 * What the README promises about the package, read from README.md: its ```ts code blocks (with their line in
 * the README) and the API names it mentions in inline code (`Name` for a class, type or constant,
 * `name()` for a function). Shared by the README check (readme.test.ts) and the pack test (tests/package).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '../../..');
export const README = resolve(REPO_ROOT, 'README.md');

/** One ```ts block: its text and the README line of its first code line (1-based). */
export interface CodeBlock {
  line: number;
  code: string;
}

/** The ```ts (or ```typescript) blocks of a Markdown text, in order. */
export function tsBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  let open: { line: number; body: string[] } | undefined;
  let fence: string | undefined;
  lines.forEach((text, i) => {
    const m = /^(\s*)(`{3,})(\S*)\s*$/.exec(text);
    if (open === undefined && fence === undefined && m) {
      fence = m[2];
      if (m[3] === 'ts' || m[3] === 'typescript') open = { line: i + 2, body: [] };
    } else if (fence !== undefined && m && m[2] === fence && m[3] === '') {
      if (open) blocks.push({ line: open.line, code: `${open.body.join('\n')}\n` });
      open = undefined;
      fence = undefined;
    } else if (open) {
      open.body.push(text);
    }
  });
  return blocks;
}

/** API names in inline code: `Name` (PascalCase) and `name()`; code blocks are left out. */
export function documentedNames(markdown: string): string[] {
  const prose = markdown.replace(/^(`{3,}).*\n[\s\S]*?^\1\s*$/gm, '');
  const names = new Set<string>();
  for (const [, span] of prose.matchAll(/`([^`\n]+)`/g)) {
    const m = /^(?:([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)|([a-z][A-Za-z0-9]*)\(\))$/.exec(span ?? '');
    if (m) names.add((m[1] ?? m[2]) as string);
  }
  return [...names].sort();
}

/** Names a code block imports from the package or one of its subpaths, as [specifier, name]. */
export function importedNames(code: string): [string, string][] {
  const out: [string, string][] = [];
  for (const [, list, spec] of code.matchAll(
    /import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'(proactive-dialogue-lab[^']*)'/g,
  )) {
    for (const item of (list ?? '').split(',')) {
      const name = item
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0];
      if (name) out.push([spec as string, name]);
    }
  }
  return out;
}

export function readme(): string {
  return readFileSync(README, 'utf8');
}
