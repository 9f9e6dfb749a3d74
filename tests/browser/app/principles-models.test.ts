/**
 * The app's Principles and Models pages (demo/), built once with the repository's vite.config.ts and driven
 * through headless Chromium (SwiftShader WebGPU: no shader-f16; no network, no model weights):
 *
 * - Principles: a long build shows progress and ETA and Stop stores nothing; a 2-episode memory built in the
 *   memory worker is the Node build job's memory (its export is byte for byte the CLI's file); browse and search it, query it (the Node query job's hits), play it as `principles:<name>`
 *   in Watch (the Node simulate job's return), export → delete (confirmed) → import round trip, malformed files
 *   named with their line / field while the stored memory stays as it was.
 * - Models: opening it fetches no WebLLM code (the model list is WebLLM's, summarised in src/gpu); an f16 model
 *   is refused before any download, explained; an f32 model that cannot be fetched fails
 *   with a plain-words message and the stored choice stays template mode; a remote server URL is refused, a
 *   loopback one is stored and survives a reload (localStorage), a server that is not running is explained; the
 *   cache lists a cached model and deletes it. A successful model download is not tested (no network here).
 * - axe-core finds no serious or critical violation on either page; no request leaves the page's origin.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { buildPrinciplesJob } from '../../../src/jobs/build-principles';
import { queryPrinciplesJob } from '../../../src/jobs/query-principles';
import { simulateJob } from '../../../src/jobs/simulate';
import { defaultSeeds } from '../../../src/tasks/defaults';
import { parseModelChoice, rolesConfigOf } from '../../../demo/app/models/choice';
import { CHROMIUM_ARGS } from '../harness';
import { startStaticServer, type StaticServer } from '../server';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
let outDir = '';
let server: StaticServer;
let browser: Browser;

beforeAll(async () => {
  // The app is built once per run with the other test pages (tests/browser/pages/app.html, globalSetup.ts).
  outDir = inject('browserPagesDir');
  server = await startStaticServer(outDir);
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: [...CHROMIUM_ARGS] });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(hash: string) {
  const context: BrowserContext = await browser.newContext();
  const page: Page = await context.newPage();
  const errors: string[] = [];
  const requested: string[] = [];
  context.on('request', (r) => requested.push(r.url()));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${server.url}/app.html${hash}`);
  const foreign = () => requested.filter((u) => !u.startsWith(server.url) && !/^(data|blob):/.test(u));
  return { page, context, errors, requested, foreign };
}

/** Serious or critical axe-core violations on the page as it is now. */
async function axeViolations(page: Page, where: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async () => {
    type Result = { violations: { id: string; impact: string; nodes: { target: string[] }[] }[] };
    const r = await (window as unknown as { axe: { run: () => Promise<Result> } }).axe.run();
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  });
  return violations.map(
    (v) => `${where}: ${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}

const SITUATION = 'The persuadee is unsure whether the charity really helps children.';

it('Principles: build a small memory, browse, query, play it in Watch; export → delete → import; malformed files named, nothing lost', async () => {
  const { page, context, errors, foreign } = await open('#/principles?task=p4g&name=big&episodes=500&rng=0');
  // A long build shows its progress and ETA; Stop ends it and stores nothing.
  await page.getByRole('button', { name: 'Build' }).click();
  const bar = page.locator('.progress');
  await expect.poll(() => bar.textContent(), { timeout: 60_000 }).toMatch(/Episodes: [1-9]\d* of 500.*left/);
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect.poll(() => page.getByRole('alert').textContent()).toContain('Stopped');
  expect(await page.locator('table.memories').count()).toBe(0);

  // A small build, configured in the form.
  await page.getByLabel('Memory name').fill('tiny');
  await page.getByRole('spinbutton', { name: 'Episodes' }).fill('2');
  await page.keyboard.press('Tab');
  expect(page.url()).toContain('episodes=2');
  await page.getByRole('button', { name: 'Build' }).click();
  const built = page.locator('p.built');
  await built.waitFor({ timeout: 60_000 });

  // The same memory as the Node build job of the same configuration.
  const node = await buildPrinciplesJob({ task: 'p4g', name: 'tiny', episodes: 2, rngSeed: 0 });
  expect(await built.textContent()).toContain(`Stored “tiny”: ${node.kept} principles kept`);
  const row = page.locator('table.memories tbody tr', { hasText: 'tiny' });
  expect(await row.locator('td.count').textContent()).toBe(String(node.kept));

  // Browse and search: every principle is listed; a search narrows the list to principles containing the word.
  await page.getByRole('button', { name: 'Browse tiny' }).click();
  const cards = page.locator('article.principle');
  await expect.poll(() => cards.count(), { timeout: 30_000 }).toBe(Math.min(node.kept, 20));
  const word = node.memory.principles[0]!.principle.strategy.split(' ')[0]!;
  await page.getByLabel('Search the principles').fill(word);
  const matching = node.memory.principles.filter((e) =>
    JSON.stringify(e.principle).toLowerCase().includes(word.toLowerCase()),
  ).length;
  await expect
    .poll(() => page.locator('p.found').textContent())
    .toContain(`of ${node.kept} principles match`);
  expect(await cards.count()).toBeGreaterThanOrEqual(1);
  expect(await cards.count()).toBeLessThanOrEqual(matching);
  await cards.first().locator('summary').click();
  expect(await cards.first().locator('.provenance').textContent()).toMatch(/From seed .+, turn \d+/);

  // Query: the Node query job's hits on the same memory.
  await page.getByRole('textbox', { name: 'Situation' }).fill(SITUATION);
  await page.getByRole('button', { name: 'Query' }).click();
  const hits = page.locator('table.hits tbody tr');
  await expect.poll(() => hits.count(), { timeout: 30_000 }).toBe(Math.min(3, node.kept));
  const q = await queryPrinciplesJob({ task: 'p4g', memory: node.memory, text: SITUATION, k: 3 });
  expect(await page.locator('table.hits td.sentence').allTextContents()).toEqual(
    q.hits.map((h) => h.principle),
  );
  expect(await axeViolations(page, 'principles')).toEqual([]);

  // Export: byte for byte the file `principles build --out` writes for the same configuration.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export tiny' }).click(),
  ]);
  const exported = readFileSync((await download.path())!, 'utf8');
  expect(exported).toBe(`${JSON.stringify(node.memory)}\n`);
  const file = node.memory;

  // Malformed files: each is refused naming the file and the line or field; the stored memory is untouched.
  const broken = exported.replace('"task":', '"task" ');
  const badField = JSON.stringify({
    ...file,
    principles: [{ ...file.principles[0], principle: { when: 1 } }],
  });
  await page.getByLabel('Import memory files (JSON)').setInputFiles([
    { name: 'cut.json', mimeType: 'application/json', buffer: Buffer.from(`{\n  "format":\n`) },
    { name: 'typo.json', mimeType: 'application/json', buffer: Buffer.from(broken) },
    { name: 'field.json', mimeType: 'application/json', buffer: Buffer.from(badField) },
  ]);
  const alert = page.getByRole('alert');
  await expect.poll(() => alert.textContent(), { timeout: 30_000 }).toContain('field.json');
  const said = (await alert.textContent())!;
  expect(said).toMatch(/cut\.json was not imported.*line 3/);
  expect(said).toMatch(/typo\.json was not imported.*line 1/);
  expect(said).toMatch(/field\.json was not imported.*principles\[0\]\.principle/);
  expect(await row.locator('td.count').textContent()).toBe(String(node.kept));

  // Delete asks first; then the export imports back to the same memory.
  await page.getByRole('button', { name: 'Delete tiny' }).click();
  expect(await row.count()).toBe(1);
  await page.getByRole('button', { name: 'Yes, delete tiny' }).click();
  await expect.poll(() => row.count()).toBe(0);
  await page
    .getByLabel('Import memory files (JSON)')
    .setInputFiles([{ name: 'tiny.json', mimeType: 'application/json', buffer: Buffer.from(exported) }]);
  await expect
    .poll(() => page.locator('p.done').textContent(), { timeout: 30_000 })
    .toContain('Imported tiny.json as “tiny”');
  await expect.poll(() => row.locator('td.count').textContent()).toBe(String(node.kept));

  // The stored memory plays the actor in Watch as principles:tiny, as the Node simulate job plays the file.
  const seed = defaultSeeds('p4g')[0]!;
  await page.evaluate(
    (h) => (location.hash = h),
    `#/watch?task=p4g&policy=principles:tiny&seeds=${encodeURIComponent(seed.id)}&episodes=1&rng=0`,
  );
  await page.getByRole('button', { name: 'Run' }).click();
  const ret = page.locator('table.episodes td.return');
  await expect.poll(() => ret.count(), { timeout: 60_000 }).toBe(1);
  const lines: { return: number }[] = [];
  await simulateJob(
    {
      task: 'p4g',
      policy: 'principles:tiny',
      seeds: [seed],
      episodes: 1,
      rngSeed: 0,
      resources: { principles: { tiny: node.memory } },
    },
    { onEpisode: (l) => void lines.push(l) },
  );
  expect(await ret.textContent()).toBe(lines[0]!.return.toFixed(3));
  expect(errors).toEqual([]);
  expect(foreign()).toEqual([]);
  await context.close();
});

it('Models: f16 refused before any download; a model that cannot load explains itself and template mode stays; loopback-only servers; the choice persists; cache list and delete', async () => {
  const { page, context, errors, requested, foreign } = await open('#/models');
  // No model host is reachable from here; make that immediate instead of waiting for DNS.
  await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (r) => r.abort('internetdisconnected'));
  await page.locator('.gpu-findings').waitFor({ timeout: 30_000 });
  expect(await page.locator('p.current').textContent()).toContain('template mode');
  // Opening the page (the probe, WebLLM's model list) fetched no WebLLM code: it comes when a model is loaded.
  const webllmScripts = () =>
    requested
      .filter((u) => u.startsWith(server.url) && u.endsWith('.js'))
      .filter((u) => readFileSync(join(outDir, new URL(u).pathname)).includes('CreateMLCEngine'));
  expect(webllmScripts()).toEqual([]);
  expect(await page.locator('.gpu-findings li').count()).toBeGreaterThan(0);

  await page.getByRole('radio', { name: /A model in this browser on the graphics card/ }).check();
  const select = page.getByLabel('WebLLM model');
  // The list holds what fits this device, the recommended model preselected; the rest only on request.
  const fitting = await select
    .locator('optgroup')
    .first()
    .locator('option')
    .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  expect(fitting.length).toBeGreaterThan(0);
  expect(await select.inputValue()).toBe(fitting[0]);
  expect(fitting.some((id) => id.includes('q4f16'))).toBe(false); // no shader-f16 on this adapter
  const f16 = 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC';
  expect(await select.locator(`option[value="${f16}"]`).count()).toBe(0);
  await page.getByRole('checkbox', { name: /Also list the \d+ models that do not fit/ }).check();
  expect(await select.locator(`option[value="${f16}"]`).textContent()).toContain(
    'needs shader-f16 (not here)',
  );
  await select.selectOption(f16);
  await page.getByRole('button', { name: 'Download, load and use' }).click();
  const alert = page.getByRole('alert');
  await expect.poll(() => alert.textContent()).toContain('lacks shader-f16');
  expect(await alert.textContent()).toContain('Nothing was downloaded');
  expect(requested.filter((u) => /huggingface|raw\.githubusercontent|llm\.worker/.test(u))).toEqual([]);
  expect(page.url()).toContain(`model=${f16}`);

  // An f32 model whose host cannot be reached: plain words, the stored choice stays template mode, and
  // WebLLM's library (~12 MB of JavaScript for page and worker) was never fetched.
  await select.selectOption('SmolLM2-135M-Instruct-q0f32-MLC');
  await page.getByRole('button', { name: 'Download, load and use' }).click();
  await expect.poll(() => alert.textContent(), { timeout: 30_000 }).toContain('could not be downloaded');
  expect(await alert.textContent()).toContain('WebLLM’s library was not loaded');
  expect(await alert.textContent()).toContain('pages keep using template mode');
  expect(await page.evaluate(() => localStorage.getItem('pdl-model-choice'))).toBeNull();
  expect(webllmScripts()).toEqual([]);
  expect(requested.some((u) => u.includes('/resolve/main/mlc-chat-config.json'))).toBe(true);

  // The CPU engine: a .gguf address that does not answer is explained, template mode stays; the GGUF cache
  // is listed (empty).
  await page.getByRole('radio', { name: /A GGUF model in this browser on the processor/ }).check();
  await page.getByLabel(/Address of a \.gguf model file/).fill(`${server.url}/missing-model.gguf`);
  await page.getByRole('button', { name: 'Download, load and use' }).click();
  await expect.poll(() => alert.textContent(), { timeout: 60_000 }).toContain('missing-model.gguf');
  expect(await alert.textContent()).toContain('pages keep using template mode');
  await page.getByRole('button', { name: 'Check the GGUF cache' }).click();
  await page.locator('p.gguf-cache-empty').waitFor({ timeout: 30_000 });
  expect(webllmScripts()).toEqual([]);
  expect(await axeViolations(page, 'models')).toEqual([]);

  // A local server: a remote address is refused unless allowed; a loopback one is stored and survives a reload.
  await page.getByRole('radio', { name: /A local server/ }).check();
  await page.getByLabel('Server address (API base URL)').fill('http://example.com/v1');
  await page.getByLabel('Model name on the server').fill('tiny-chat');
  await page.getByRole('checkbox', { name: /the judge/ }).check();
  await page.getByRole('button', { name: 'Use this choice' }).click();
  await expect.poll(() => alert.textContent()).toContain('is not on this computer');
  await page.getByLabel('Server address (API base URL)').fill('http://127.0.0.1:9/v1');
  await page.getByRole('button', { name: 'Use this choice' }).click();
  await expect
    .poll(() => page.locator('p.current').textContent())
    .toContain('the model tiny-chat of the server http://127.0.0.1:9/v1 for the actor, the judge');
  await page.getByRole('button', { name: 'Check the server' }).click();
  await expect
    .poll(() => alert.textContent(), { timeout: 30_000 })
    .toContain('The server http://127.0.0.1:9/v1');
  await page.goto(`${server.url}/app.html#/models`);
  await expect.poll(() => page.locator('p.current').textContent()).toContain('tiny-chat');
  const stored = parseModelChoice(await page.evaluate(() => localStorage.getItem('pdl-model-choice')));
  expect(rolesConfigOf(stored)).toEqual({
    roles: {
      actor: { kind: 'openai', model: 'tiny-chat', baseUrl: 'http://127.0.0.1:9/v1' },
      judge: { kind: 'openai', model: 'tiny-chat', baseUrl: 'http://127.0.0.1:9/v1' },
    },
  });

  // Cache: what a finished download leaves in WebLLM's cache is listed, and deleted.
  await page.evaluate(async () => {
    const cache = await caches.open('webllm/model');
    const base = 'https://huggingface.co/mlc-ai/SmolLM2-135M-Instruct-q0f32-MLC/resolve/main/';
    const manifest = { records: [{ dataPath: 'params_shard_0.bin' }] };
    await cache.put(`${base}tensor-cache.json`, new Response(JSON.stringify(manifest)));
    await cache.put(`${base}params_shard_0.bin`, new Response(new Uint8Array(16)));
  });
  await page.locator('.gpu-findings').waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Check the cache' }).click();
  const cached = page.locator('ul.cached li');
  await expect
    .poll(() => cached.allTextContents(), { timeout: 30_000 })
    .toEqual([expect.stringContaining('SmolLM2-135M-Instruct-q0f32-MLC')]);
  await page.getByRole('button', { name: 'Delete SmolLM2-135M-Instruct-q0f32-MLC from the cache' }).click();
  await page.locator('p.cache-empty').waitFor({ timeout: 30_000 });
  expect(errors).toEqual([]);
  // Only the chosen model's host (aborted above) and the chosen loopback server were asked for anything.
  const chosen = /^https:\/\/(huggingface\.co|raw\.githubusercontent\.com)\/|^http:\/\/127\.0\.0\.1:9\//;
  expect(foreign().filter((u) => !chosen.test(u))).toEqual([]);
  await context.close();
});

it('Models: a link may propose a remote server but never gives consent: the box starts unticked and the page says so', async () => {
  const { page, context, errors, foreign } = await open(
    '#/models?llm=openai&url=http%3A%2F%2F192.0.2.7%3A8000%2Fv1&remote=1&model=tiny-chat&roles=actor',
  );
  await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (r) => r.abort('internetdisconnected'));
  const box = page.getByRole('checkbox', { name: /Allow a server on another computer/ });
  await box.waitFor({ timeout: 30_000 });
  expect(await page.getByLabel('Server address (API base URL)').inputValue()).toBe(
    'http://192.0.2.7:8000/v1',
  );
  expect(await box.isChecked()).toBe(false);
  expect(await page.locator('p.link-remote').textContent()).toContain(
    'The link that opened this page asked for a server on another computer',
  );
  // One click on the link's choice is refused: nothing is stored, nothing is sent.
  await page.getByRole('button', { name: 'Use this choice' }).click();
  await expect.poll(() => page.getByRole('alert').textContent()).toContain('is not on this computer');
  expect(await page.evaluate(() => localStorage.getItem('pdl-model-choice'))).toBeNull();
  // The person's own tick is consent.
  await box.check();
  await page.getByRole('button', { name: 'Use this choice' }).click();
  await expect.poll(() => page.locator('p.current').textContent()).toContain('http://192.0.2.7:8000/v1');
  expect(parseModelChoice(await page.evaluate(() => localStorage.getItem('pdl-model-choice')))).toMatchObject(
    {
      allowRemote: true,
    },
  );
  expect(errors).toEqual([]);
  expect(foreign()).toEqual([]);
  await context.close();
});
