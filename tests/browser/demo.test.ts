import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CHROMIUM_ARGS } from './harness';
import { startStaticServer, type StaticServer } from './server';

const repoRoot = resolve(import.meta.dirname, '../..');
let outDir = '';
let server: StaticServer | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'pdl-demo-'));
  await build({
    configFile: resolve(repoRoot, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
  server = await startStaticServer(outDir);
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: [...CHROMIUM_ARGS] });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

it('the built demo runs episodes in its worker and shows a summary and a transcript', async () => {
  const context = await (browser as Browser).newContext();
  const page = await context.newPage();
  const external: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith((server as StaticServer).url)) external.push(r.url());
  });
  await page.goto(`${(server as StaticServer).url}/index.html`);
  await page.selectOption('#task', 'p4g');
  await page.fill('#episodes', '30');
  await page.click('#run');
  await page.waitForFunction(
    () => document.getElementById('status')?.textContent?.includes('episodes done'),
    null,
    {
      timeout: 60_000,
    },
  );
  const rows = await page.locator('#summary tbody tr').allTextContents();
  expect(rows).toHaveLength(4);
  expect(rows[0]).toMatch(/^success rate\d\.\d{3}\[\d\.\d{3}, \d\.\d{3}\]$/);
  expect(await page.locator('#transcript .turn.actor').count()).toBeGreaterThan(0);
  expect(await page.locator('#transcript').textContent()).toContain('persuadee:');
  expect(external).toEqual([]);
  await context.close();
});
