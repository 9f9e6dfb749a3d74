/**
 * Vitest `globalSetup` of the `browser` project: builds every test page under `tests/browser/pages/*.html`
 * (a Vite multi-page production build, on top of the repository's `vite.config.ts`) once per run into a fresh
 * temporary folder (one per run, so concurrent runs in the same working tree do not wipe each other's pages),
 * hands it to the test files through `inject('browserPagesDir')`, and deletes it at the end of the run.
 * Each test file serves it with its own static server (see harness.ts).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Absolute path of the built test pages (one `<name>.html` per page). */
    browserPagesDir: string;
  }
}

const here = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = resolve(here, '../..');
const pagesDir = resolve(here, 'pages');

/**
 * Builds the pages and provides their folder; returns the teardown that removes it. Throws if there is no
 * page or the build fails.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const pages = readdirSync(pagesDir).filter((f) => f.endsWith('.html'));
  if (pages.length === 0) throw new Error(`no test page (*.html) in ${pagesDir}`);
  const outDir = mkdtempSync(join(tmpdir(), 'pdl-browser-pages-'));
  const input = Object.fromEntries(pages.map((f) => [f.slice(0, -'.html'.length), resolve(pagesDir, f)]));
  await build({
    configFile: resolve(repoRoot, 'vite.config.ts'),
    root: pagesDir,
    logLevel: 'warn',
    build: {
      outDir,
      emptyOutDir: true,
      minify: false,
      sourcemap: true,
      reportCompressedSize: false,
      rolldownOptions: { input, checks: { bundlerTimings: false } },
    },
  });
  project.provide('browserPagesDir', outDir);
  return () => rmSync(outDir, { recursive: true, force: true });
}
