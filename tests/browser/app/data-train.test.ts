/**
 * The app's Data and Train pages (demo/app/pages/{data,train}.ts), driven through headless Chromium on the test
 * build of the whole app (tests/browser/pages/app.html):
 * - Data: a malformed ESConv file is named with its file and line; a small real ESConv file (the first records
 *   of ../shared/data) is loaded in the worker, kept, listed with its size, exported as JSONL equal to the
 *   library's loader run in Node, offered as seeds on Train, played on Watch (whose run's trajectories are then
 *   listed) and Evaluate, and deleted; a quota failure is shown and loses nothing;
 * - Train: the chosen backend with the skipped one’s reason; a 1-step CSTPO run exported, deleted, imported and
 *   trained one more step equals an uninterrupted 2-step run (weights, optimiser, random state, history); the
 *   branch-count curve; held-out evaluation; GRPO one step with its own curves;
 * - Train, GRPO-EmoLLM runs stored: listed beside CSTPO's with their algorithm (listing starts no trainer worker,
 *   so no tfjs), exported, deleted (gone from IndexedDB), imported, and after a reload one more step equals an
 *   uninterrupted 2-step run (weights, reference heads, optimiser, random state, history);
 * - axe-core finds no serious or critical violation on either page.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { Download, Page } from 'playwright-core';
import { afterEach, expect, it } from 'vitest';
import { loadEsconv, parseSeedJsonl } from '../../../src/data';
import type { GrpoStepRecord } from '../../../src/grpo/trainer';
import type { StoredRun } from '../../../src/rl/store';
import { runFromFile, runToFile } from '../../../demo/app/train/runfile';
import { defaultSeeds } from '../../../src/tasks/defaults';
import { openPage, type OpenedPage } from '../harness';

const DATA = resolve(import.meta.dirname, '../../../../shared/data');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
let p: OpenedPage | undefined;
afterEach(async () => {
  await p?.close();
  p = undefined;
});

/** The first `n` lines of a file of ../shared/data (small test inputs). */
const head = (file: string, n: number) =>
  readFileSync(resolve(DATA, file), 'utf8').split('\n').slice(0, n).join('\n') + '\n';

async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async () => {
    type Result = { violations: { id: string; impact: string; nodes: { target: string[] }[] }[] };
    const r = await (window as unknown as { axe: { run: () => Promise<Result> } }).axe.run();
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  });
  return violations.map(
    (v) => `${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}

async function go(page: Page, hash: string, heading: string): Promise<void> {
  await page.evaluate((h) => (location.hash = h), hash);
  await page
    .locator('main h1')
    .filter({ hasText: new RegExp(`^${heading}$`, 'i') })
    .waitFor();
}

/** Clicks `button` and returns the text of the download it starts. */
async function downloaded(page: Page, click: () => Promise<void>): Promise<string> {
  const [d] = (await Promise.all([page.waitForEvent('download'), click()])) as [Download, void];
  return readFileSync((await d.path()) as string, 'utf8');
}

it('Data: a bad file is named with its line; a small ESConv file is kept, listed, exported, offered on Train, played on Watch (trajectories kept) and Evaluate, and deleted; a full disk loses nothing', async () => {
  p = await openPage('app');
  const { page } = p;
  await go(page, '#/data', 'data');
  const picker = page.getByLabel('Seed files and dataset files');
  const esconv = head('esconv/esconv-valid.jsonl', 3);
  const firstLine = esconv.split('\n')[0] as string;
  await picker.setInputFiles([
    {
      name: 'bad.jsonl',
      mimeType: 'text/plain',
      buffer: Buffer.from(`${firstLine}\n{"emotion_type": "anx\n`),
    },
  ]);
  await expect.poll(() => page.locator('table.checked').textContent()).toContain('bad.jsonl:2:');
  expect(await page.locator('table.sets').count()).toBe(0);

  await picker.setInputFiles([
    { name: 'esconv-3.jsonl', mimeType: 'text/plain', buffer: Buffer.from(esconv) },
  ]);
  await expect.poll(() => page.locator('table.checked').textContent()).toContain('3 seeds accepted (esconv)');
  const row = page.locator('table.sets tbody tr');
  await expect.poll(() => row.count()).toBe(1);
  expect(await row.locator('td').nth(1).textContent()).toBe('3 seeds');
  const exported = await downloaded(page, () => row.getByRole('button', { name: /^Export/ }).click());
  // The stored seeds are the library's loader's seeds for this file, as Node loads them.
  expect(parseSeedJsonl(exported, 'export.jsonl').seeds).toEqual(loadEsconv(esconv, 'esconv-3.jsonl').seeds);
  const kB = (Buffer.byteLength(exported) / 1000).toFixed(1);
  expect(await row.locator('td.size').textContent()).toBe(`${kB} kB`);
  expect(await axeViolations(page)).toEqual([]);

  // A full disk: the write is refused with a clear message and the stored set is untouched.
  await page.evaluate(() => {
    (window as unknown as { realPut: unknown }).realPut = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function () {
      throw new DOMException('simulated full disk', 'QuotaExceededError');
    };
  });
  const cb = head('cb/craigslistbargain-valid.jsonl', 2);
  await picker.setInputFiles([{ name: 'cb-2.jsonl', mimeType: 'text/plain', buffer: Buffer.from(cb) }]);
  await expect.poll(() => page.locator('table.checked').textContent()).toContain('out of space');
  expect(await row.count()).toBe(1);
  expect(await row.locator('td').nth(1).textContent()).toBe('3 seeds');
  await page.evaluate(() => {
    const w = window as unknown as { realPut: typeof IDBObjectStore.prototype.put };
    IDBObjectStore.prototype.put = w.realPut;
  });

  // The set is offered as seeds on Train.
  const id = (await row.locator('code').textContent()) as string;
  await go(page, '#/train?task=esconv', 'train');
  const options = page.getByLabel('Seeds', { exact: true }).locator('option');
  await expect.poll(() => options.allTextContents()).toContain('esconv-3.jsonl (3 seeds)');

  // Watch plays the set's first seed with a baseline; the transcript is that seed's, and the run is kept.
  const first = loadEsconv(esconv, 'esconv-3.jsonl').seeds[0]!;
  expect(defaultSeeds('esconv').map((s) => s.id)).not.toContain(first.id);
  await go(page, '#/watch?task=esconv&policy=standard&episodes=1&rng=1', 'watch');
  await page.getByLabel('Seeds', { exact: true }).selectOption(id);
  await page.getByRole('button', { name: 'Run' }).click();
  await page.getByRole('button', { name: 'Open episode 1' }).click({ timeout: 30_000 });
  expect(await page.locator('#episode-title').textContent()).toBe(`Episode: ${first.id}, repeat 0`);
  expect(await page.locator('.episode > p.turn').first().textContent()).toContain(first.prefix[0]!.text);
  await expect
    .poll(() => page.locator('p.kept').textContent())
    .toMatch(/^Trajectories kept .*watch standard on esconv/);

  // Evaluate runs on the set too: the report's row names it.
  await go(page, `#/evaluate?task=esconv&policies=standard&episodes=1&rng=1&seedset=${id}`, 'evaluate');
  await page.getByRole('button', { name: 'Evaluate', exact: true }).click();
  const json = await downloaded(page, () =>
    page.getByRole('button', { name: 'JSON', exact: true }).click({ timeout: 30_000 }),
  );
  const results = (JSON.parse(json) as { results: { seedSet: string; episodes: number }[] }).results;
  expect(results.map((r) => [r.seedSet, r.episodes])).toEqual([[id, 1]]);

  // Data lists the kept trajectories beside the seed set; both are deleted.
  await go(page, '#/data', 'data');
  await expect.poll(() => row.count()).toBe(2);
  const kept = row.filter({ hasText: 'watch standard on esconv' });
  expect(await kept.locator('td').nth(1).textContent()).toBe('1 trajectories');
  for (const name of [/^Delete watch/, /^Delete esconv-3/]) {
    const before = await row.count();
    await page.getByRole('button', { name }).click();
    await expect.poll(() => row.count()).toBe(before - 1);
  }
  await expect.poll(() => page.locator('main').textContent()).toContain('Nothing is kept yet.');
  expect(id).toMatch(/^s-[0-9a-f]{12}$/);
  expect(p.logs.filter((l) => l.startsWith('[pageerror]'))).toEqual([]);
});

const CSTPO = '#/train?task=cb&perstep=1&sft=2&horizon=3&width=16&rng=5&backend=wasm&repeats=1';
const untimed = (h: StoredRun['history']) => h.map(({ rolloutMs: _r, updateMs: _u, ...rest }) => rest);

it('Train: export after 1 step, delete, import, 1 more step equals an uninterrupted 2-step run; backend reasons; branch curve; held-out evaluation; one GRPO-EmoLLM step with its own curves', async () => {
  p = await openPage('app');
  const { page } = p;
  await go(page, `${CSTPO}&steps=2`, 'train');
  const rows = page.locator('table.runs tbody tr');
  const start = page.getByRole('button', { name: 'Start training' });
  await start.click();
  await expect.poll(() => rows.count(), { timeout: 90_000 }).toBe(1);
  expect(await rows.first().locator('td').nth(3).textContent()).toBe('2 of 2');
  const backend = (await page.locator('.backend').textContent()) ?? '';
  expect(backend).toMatch(/wasm: skipped — \S/);
  expect(backend).toContain('cpu: chosen');
  expect(await page.getByRole('img', { name: /^Branch counts per step/ }).count()).toBe(1);
  expect(await page.getByRole('img', { name: /^Strategy entropy/ }).count()).toBe(1);

  await go(page, `${CSTPO}&steps=1`, 'train');
  await start.click();
  await expect.poll(() => rows.count(), { timeout: 90_000 }).toBe(2);
  const runB = rows.filter({ hasText: '1 of 1' });
  const idB = (await runB.locator('td').first().textContent()) as string;
  const file = await downloaded(page, () => runB.getByRole('button', { name: /^Export/ }).click());
  await runB.getByRole('button', { name: /^Delete/ }).click();
  await expect.poll(() => rows.count()).toBe(1);
  await page
    .getByLabel('Import a run file')
    .setInputFiles([{ name: 'b.run.json', mimeType: 'application/json', buffer: Buffer.from(file) }]);
  await expect.poll(() => rows.count()).toBe(2);
  const imported = rows.filter({ hasText: idB });
  expect(await imported.locator('td').nth(3).textContent()).toBe('1 of 1');
  await imported.getByRole('button', { name: /^One more step/ }).click();
  await expect.poll(() => imported.locator('td').nth(3).textContent(), { timeout: 60_000 }).toBe('2 of 2');
  await expect.poll(() => start.isEnabled(), { timeout: 60_000 }).toBe(true);

  const runA = rows.filter({ hasNotText: idB });
  const exportOf = async (row: typeof runA) =>
    runFromFile('run', await downloaded(page, () => row.getByRole('button', { name: /^Export/ }).click()));
  const [fileA, fileB] = [await exportOf(runA), await exportOf(imported)];
  if (fileA.algo !== 'cstpo' || fileB.algo !== 'cstpo') throw new Error('CSTPO runs expected');
  const [a, b] = [fileA.run, fileB.run];
  expect(b.latest.step).toBe(2);
  for (const k of ['actor', 'critic', 'actorOptimizer', 'criticOptimizer', 'rng'] as const)
    expect(b.latest[k]).toEqual(a.latest[k]);
  expect(untimed(b.history)).toEqual(untimed(a.history));

  // Held-out evaluation of run A: the trained policy, its SFT start and random strategies, with intervals.
  await runA.getByRole('button', { name: /^Evaluate/ }).click();
  const cells = page.locator('table.evaluation td.return');
  await expect.poll(() => cells.count(), { timeout: 60_000 }).toBe(3);
  for (const c of await cells.allTextContents()) expect(c).toMatch(/^-?\d\.\d{3}/);
  expect(await axeViolations(page)).toEqual([]);

  // GRPO-EmoLLM with LLM rewards but no model given the judge role on Models: refused in words, nothing stored.
  await go(
    page,
    '#/train?algo=grpo&task=cb&steps=1&group=2&groups=1&horizon=2&width=16&rewards=llm',
    'train',
  );
  expect(await page.locator('#train-rewards').inputValue()).toBe('llm');
  const grpoBefore = await storedIds(page, 'pdl-grpo').catch(() => []);
  await start.click();
  const refused = page.getByRole('alert');
  await refused.waitFor({ timeout: 60_000 });
  expect(await refused.textContent()).toMatch(/judge/);
  expect(await storedIds(page, 'pdl-grpo').catch(() => [])).toEqual(grpoBefore);

  // GRPO-EmoLLM in the same trainer worker: one step, its own curves.
  await go(
    page,
    '#/train?algo=grpo&task=cb&steps=1&group=2&groups=1&horizon=2&width=16&depth=2&backend=wasm',
    'train',
  );
  await start.click();
  await page.getByRole('img', { name: /^Success and ARG trace rate/ }).waitFor({ timeout: 90_000 });
  for (const title of ['Group reward and return', 'Loss and KL to the reference heads'])
    expect(await page.getByRole('img', { name: new RegExp(`^${title}`) }).count()).toBe(1);
  const kl = page.locator('figure.plot').nth(2).locator('details.numbers tbody tr');
  expect(await kl.count()).toBe(1);
  expect(await kl.locator('td').nth(1).textContent()).toMatch(/^-?\d+\.\d{3}$/);
  await expect.poll(() => start.isEnabled(), { timeout: 60_000 }).toBe(true);
  expect(await page.getByRole('alert').count()).toBe(0);
  expect(p.logs.filter((l) => l.startsWith('[pageerror]'))).toEqual([]);
});

/**
 * The run ids stored in IndexedDB database `name` (read in the page, beside the app): the distinct `runId`s of the
 * text store's `files` rows (src/store/text.ts). A database without that store rejects rather than hangs.
 */
function storedIds(page: Page, name: string): Promise<string[]> {
  return page.evaluate(
    (db) =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open(db);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          try {
            const keys = open.result.transaction('files').objectStore('files').getAllKeys();
            keys.onerror = () => reject(keys.error);
            keys.onsuccess = () => {
              open.result.close();
              const ids = (keys.result as [string, string][]).map(([runId]) => runId);
              resolve([...new Set(ids)]);
            };
          } catch (e) {
            open.result.close();
            reject(e as Error);
          }
        };
      }),
    name,
  );
}

const GRPO = '#/train?algo=grpo&task=cb&group=2&groups=1&horizon=2&width=16&depth=2&rng=3&backend=wasm';
const untimedGrpo = (h: GrpoStepRecord[]) => h.map(({ rolloutMs: _r, updateMs: _u, ...rest }) => rest);

it('Train: GRPO-EmoLLM runs are listed with CSTPO runs (no trainer worker to list), exported, deleted, imported, and one more step after a reload equals an uninterrupted 2-step run', async () => {
  p = await openPage('app');
  const { page } = p;
  const rows = page.locator('table.runs tbody tr');
  const start = page.getByRole('button', { name: 'Start training' });
  const cell = (row: typeof rows, i: number) => row.locator('td').nth(i).textContent();
  await go(page, `${CSTPO}&steps=1&sft=0`, 'train');
  await start.click();
  await expect.poll(() => rows.count(), { timeout: 90_000 }).toBe(1);
  await go(page, `${GRPO}&steps=2`, 'train');
  await start.click();
  await expect.poll(() => rows.count(), { timeout: 90_000 }).toBe(2);
  await go(page, `${GRPO}&steps=1`, 'train');
  await start.click();
  await expect.poll(() => rows.count(), { timeout: 90_000 }).toBe(3);
  await expect.poll(() => start.isEnabled(), { timeout: 60_000 }).toBe(true);

  // Each row names its algorithm; GRPO runs have no held-out evaluation (the worker evaluates CSTPO runs).
  const grpoRows = rows.filter({ hasText: 'GRPO-EmoLLM' });
  expect(await rows.locator('td.algo').allTextContents()).toEqual(['CSTPO', 'GRPO-EmoLLM', 'GRPO-EmoLLM']);
  expect(await grpoRows.getByRole('button', { name: /^Evaluate/ }).count()).toBe(0);
  const runA = grpoRows.filter({ hasText: '2 of 2' });
  const runB = grpoRows.filter({ hasText: '1 of 1' });
  expect([await cell(runA, 4), await cell(runB, 4)]).toEqual(['finished', 'finished']);
  const idA = (await cell(runA, 0)) as string;
  const idB = (await cell(runB, 0)) as string;
  expect((await storedIds(page, 'pdl-grpo')).sort()).toEqual([idA, idB].sort());

  const exportOf = async (row: typeof rows) =>
    runFromFile('run', await downloaded(page, () => row.getByRole('button', { name: /^Export/ }).click()));
  const fileB = await exportOf(runB);
  expect(fileB.algo).toBe('grpo-emollm');
  await runB.getByRole('button', { name: /^Delete/ }).click();
  await expect.poll(() => rows.count()).toBe(2);
  expect(await storedIds(page, 'pdl-grpo')).toEqual([idA]);

  // After a reload the stored runs are listed on arrival from IndexedDB without starting the trainer worker (no
  // tfjs).
  await page.reload();
  await go(page, '#/train?backend=wasm', 'train');
  await expect.poll(() => rows.count()).toBe(2);
  expect(page.workers().map((w) => w.url())).toEqual([]);
  expect(await page.locator('.backend').count()).toBe(0);

  await page
    .getByLabel('Import a run file')
    .setInputFiles([
      { name: 'b.run.json', mimeType: 'application/json', buffer: Buffer.from(runToFile(fileB)) },
    ]);
  // The import starts the trainer worker (it checks the run), which takes a while after a reload.
  await expect.poll(() => rows.count(), { timeout: 60_000 }).toBe(3);
  const imported = rows.filter({ hasText: idB });
  expect([await cell(imported, 1), await cell(imported, 3), await cell(imported, 4)]).toEqual([
    'GRPO-EmoLLM',
    '1 of 1',
    'finished',
  ]);

  // One more step of the imported run after another reload, on the backend the runs trained on (cpu: another
  // backend's kernels round differently in the last bit).
  await page.reload();
  await go(page, '#/train?backend=wasm', 'train');
  await expect.poll(() => rows.count()).toBe(3);
  await imported.getByRole('button', { name: /^One more step/ }).click();
  await expect.poll(() => cell(imported, 3), { timeout: 90_000 }).toBe('2 of 2');
  await expect.poll(() => start.isEnabled(), { timeout: 60_000 }).toBe(true);
  expect(await page.getByRole('img', { name: /^Group reward and return/ }).count()).toBe(1);

  const [a, b] = [await exportOf(rows.filter({ hasText: idA })), await exportOf(imported)];
  if (a.algo !== 'grpo-emollm' || b.algo !== 'grpo-emollm') throw new Error('GRPO runs expected');
  expect(b.run.latest.step).toBe(2);
  for (const k of ['weights', 'reference', 'optimizer', 'rng'] as const)
    expect(b.run.latest[k]).toEqual(a.run.latest[k]);
  expect(untimedGrpo(b.run.history)).toEqual(untimedGrpo(a.run.history));
  expect(b.run.history.map((r) => r.step)).toEqual([1, 2]);
  expect(await page.getByRole('alert').count()).toBe(0);
  expect(await axeViolations(page)).toEqual([]);
  expect(p.logs.filter((l) => l.startsWith('[pageerror]'))).toEqual([]);
}, 300_000);
