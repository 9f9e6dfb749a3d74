/**
 * `app/first-load`: the gzip size of the JavaScript the browser app (demo/) fetches before the person does
 * anything (the aim: at most 500 kB). The app is built with the repository's vite.config.ts into a temporary
 * folder and opened in headless Chromium from a local static server; every `.js` response (page, chunks and
 * workers) is recorded, and the served files are gzipped here (zlib level 9, as a static host would serve them).
 * Entries: the home page (what a first visit fetches), the Play, Watch, Evaluate, Models, Train, Principles and
 * Data pages opened directly from a link (Play warms its simulator worker while the person reads; Watch and Evaluate start the episode worker
 * only when a run is asked for; Models probes the GPU and lists the models, loading WebLLM only for a model), and `app/first-run watch`: a one-episode template-mode Watch run, which fetches the
 * episode worker and the simulator but must not fetch WebLLM (its `extra` says whether it did).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { startStaticServer } from '../../tests/browser/server';
import type { Page } from 'playwright-core';
import type { BenchEntry, Benchmark } from '../types';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const CHROMIUM_ARGS = ['--headless=new', '--no-sandbox', '--disable-background-networking', '--no-first-run'];

/**
 * What each entry opens, the element whose presence means the page has done its loading, and (for the
 * `first-run` entries) what the person then does: the JavaScript counted is everything fetched up to then.
 */
const VISITS: { name: string; hash: string; ready: string; act?: (page: Page) => Promise<void> }[] = [
  { name: 'app/first-load home', hash: '#/home', ready: '#try' },
  { name: 'app/first-load play', hash: '#/play', ready: '.situation' },
  { name: 'app/first-load watch', hash: '#/watch', ready: 'form button[type=submit]' },
  { name: 'app/first-load evaluate', hash: '#/evaluate', ready: 'form button[type=submit]' },
  // Models opened directly: the GPU probe's findings and the model list shown, nothing loaded yet.
  { name: 'app/first-load models', hash: '#/models', ready: '.gpu-findings' },
  // Train, Principles and Data opened directly: the form shown (Train lists its stored runs without tfjs).
  { name: 'app/first-load train', hash: '#/train', ready: 'form button[type=submit]' },
  { name: 'app/first-load principles', hash: '#/principles', ready: 'form button[type=submit]' },
  { name: 'app/first-load data', hash: '#/data', ready: 'main h2' },
  {
    // A template-mode Watch run (one episode): the episode worker and the simulator, never WebLLM.
    name: 'app/first-run watch',
    hash: '#/watch?episodes=1',
    ready: 'form button[type=submit]',
    act: async (page) => {
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      await page.locator('table.episodes tbody tr').first().waitFor({ timeout: 120_000 });
    },
  },
];

/** A text found in WebLLM's bundle (its engine factory's name survives minification as an export). */
const WEBLLM_MARK = 'CreateMLCEngine';

export const firstLoadBenchmark: Benchmark = {
  name: 'app/first-load',
  async run(ctx) {
    const outDir = mkdtempSync(join(tmpdir(), 'pdl-first-load-'));
    const { chromium } = await import('playwright-core');
    const { build } = await import('vite');
    const entries: BenchEntry[] = [];
    try {
      ctx.log('building the app');
      await build({
        configFile: resolve(root, 'vite.config.ts'),
        logLevel: 'warn',
        build: { outDir, emptyOutDir: true, reportCompressedSize: false },
      });
      const server = await startStaticServer(outDir);
      const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
      try {
        for (const visit of VISITS) {
          const context = await browser.newContext();
          const page = await context.newPage();
          const scripts = new Set<string>();
          context.on('response', (r) => {
            const path = new URL(r.url()).pathname;
            if (r.url().startsWith(server.url) && path.endsWith('.js')) scripts.add(path);
          });
          await page.goto(`${server.url}/index.html${visit.hash}`);
          await page.locator(visit.ready).first().waitFor({ timeout: 60_000 });
          await visit.act?.(page);
          await page.waitForLoadState('networkidle');
          let raw = 0;
          let gzip = 0;
          let webllm = false;
          for (const path of scripts) {
            const body = readFileSync(join(outDir, path));
            webllm ||= body.includes(WEBLLM_MARK);
            raw += body.length;
            gzip += gzipSync(body, { level: 9 }).length;
          }
          entries.push({
            name: visit.name,
            unit: 'kB gzip',
            value: Math.round(gzip / 10) / 100,
            extra:
              `${scripts.size} JS files, ${(raw / 1000).toFixed(1)} kB raw, WebLLM ${webllm ? 'fetched' : 'not fetched'}: ` +
              [...scripts].sort().join(' '),
          });
          ctx.log(`${visit.name}: ${(gzip / 1000).toFixed(1)} kB gzip in ${scripts.size} files`);
          await context.close();
        }
      } finally {
        await browser.close();
        await server.close();
      }
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
    return entries;
  },
};
