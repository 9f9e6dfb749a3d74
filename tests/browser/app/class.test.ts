/**
 * The app for a class, in headless Chromium at a phone's width (375 px) unless said otherwise: no page
 * in its main states is wider than the screen; axe-core finds no serious or critical violation; every explain
 * button of a page has its own accessible name, naming the term; Home's ready experiments start what they name
 * (Evaluate's chart has one category per policy, named by the policy); Train shows its progress within a second
 * of Start; a link naming a memory this browser lacks says so and offers to build it; Evaluate at 1280 px with an
 * imported report stays within the screen.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { CHROMIUM_ARGS } from '../harness';
import { startStaticServer, type StaticServer } from '../server';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
let server: StaticServer;
let browser: Browser;

beforeAll(async () => {
  server = await startStaticServer(inject('browserPagesDir'));
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: [...CHROMIUM_ARGS] });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/**
 * Opens the app at `hash` in a fresh context `width` px wide (after `before`, e.g. routes); page errors are
 * collected.
 */
async function open(hash: string, width = 375, before?: (context: BrowserContext) => Promise<unknown>) {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  await before?.(context);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${server.url}/app.html${hash}`);
  await page.locator('main h1').waitFor();
  await page.waitForFunction(
    () => !document.querySelector('main')?.textContent?.includes('Loading the page'),
  );
  return { page, context, errors };
}

/**
 * What a page in its current state must satisfy: not wider than the screen, no serious or critical axe
 * violation, explain buttons named "Explain: …" and each name used once, and a space on each side of an
 * explained word where the text runs on (no "andsuccess": a template's line break eats the space). Returns the
 * problems found.
 */
async function check(page: Page, where: string): Promise<string[]> {
  const problems: string[] = [];
  const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, innerWidth]);
  if ((scroll as number) > (inner as number))
    problems.push(`${where}: ${scroll} px wide in a ${inner} px window`);
  const names = await page
    .locator('button.term')
    .evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label')));
  const seen = new Set<string>();
  for (const n of names) {
    if (!n?.startsWith('Explain: ')) problems.push(`${where}: explain button named ${n}`);
    else if (seen.has(n)) problems.push(`${where}: two explain buttons named ${n}`);
    seen.add(n ?? '');
  }
  const glued = await page.locator('.term-wrap').evaluateAll((wraps) =>
    wraps.flatMap((w) => {
      const word = w.querySelector('button')?.textContent ?? '';
      const before = w.previousSibling?.textContent ?? '';
      const after = w.nextSibling?.textContent ?? '';
      return [
        ...(/[\p{L}\p{N},;]$/u.test(before) ? [`“${before.slice(-12)}${word}”`] : []),
        ...(/^[\p{L}\p{N}(+−×]/u.test(after) ? [`“${word}${after.slice(0, 12)}”`] : []),
      ];
    }),
  );
  for (const g of glued) problems.push(`${where}: no space in ${g}`);
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async () => {
    type Result = { violations: { id: string; impact: string; nodes: { target: string[] }[] }[] };
    const r = await (window as unknown as { axe: { run: () => Promise<Result> } }).axe.run();
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  });
  for (const v of violations)
    problems.push(`${where}: ${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  return problems;
}

it('Home on one screen: the loop, three ready experiments; the compare link runs Evaluate with a chart whose categories are the policies', async () => {
  const { page, context, errors } = await open('#/home');
  expect(await page.getByRole('img', { name: /^The loop/ }).count()).toBe(1);
  const links = page.locator('.experiment a');
  expect(await links.allTextContents()).toEqual([
    'Talk to a simulated person',
    'Watch two policies and compare',
    'Train a policy and see it improve',
  ]);
  // The three experiments are within the first screen of a phone.
  const bottom = await links.nth(2).evaluate((a) => a.getBoundingClientRect().bottom);
  expect(bottom).toBeLessThan(800 * 1.5);
  const problems = await check(page, 'home');

  await page.getByRole('link', { name: 'Watch two policies and compare' }).click();
  const categories = page.locator('figure.category-plot th.category');
  await expect.poll(() => categories.allTextContents(), { timeout: 120_000 }).toEqual(['random', 'standard']);
  expect(page.url()).not.toContain('run=1');
  const table = await page.locator('table.eval tbody tr td:nth-child(2)').allTextContents();
  expect(table).toEqual(['random', 'standard']);
  expect(await page.getByRole('img', { name: /^Mean return by policy/ }).getAttribute('aria-label')).toMatch(
    /random [\d.]+ \[.*\]; standard/,
  );
  problems.push(...(await check(page, 'evaluate with results')));
  expect(problems).toEqual([]);
  expect(errors).toEqual([]);
  await context.close();
});

it('Play and Watch at 375 px: the simulator loading is said on screen; seed and turns in the link; why each episode ended', async () => {
  // The simulator's script is held back until the page has said it is loading, then let through.
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  const { page, context, errors } = await open('#/play?task=p4g&mind=1', 375, (c) =>
    c.route(/play\.worker-[^/]*\.js$/, async (route) => {
      await held;
      await route.continue();
    }),
  );
  const status = page.locator('.sim-status');
  await expect.poll(() => status.textContent()).toContain('loading in the background');
  const problems = await check(page, 'play');
  await page.getByLabel('Strategy label (optional)').selectOption('Logical appeal');
  await page.getByLabel('What you say').fill('A small donation feeds a child for a week.');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect.poll(() => status.textContent()).toContain('Loading the simulator');
  release();
  await page.locator('.reply').first().waitFor({ timeout: 120_000 });
  // The label was that turn's only; the link names the seed and the turn played.
  expect(await page.getByLabel('Strategy label (optional)').inputValue()).toBe('');
  const link = new URLSearchParams(new URL(page.url()).hash.split('?')[1]);
  expect(link.get('seed')).toMatch(/^p4g-default/);
  expect(JSON.parse(link.get('turns') ?? '')).toEqual([
    ['Logical appeal', 'A small donation feeds a child for a week.'],
  ]);
  problems.push(...(await check(page, 'play after a turn, mind revealed')));

  await page.goto(`${server.url}/app.html#/watch?task=cb&policy=proactive&episodes=2&run=1`);
  const why = page.locator('table.episodes td.why');
  await expect.poll(() => why.count(), { timeout: 120_000 }).toBe(2);
  for (const text of await why.allTextContents()) expect(text).toMatch(/^(A deal|The |Stopped)/);
  await page.getByRole('button', { name: 'Open episode 1' }).click();
  await page.locator('.episode .uplot').first().waitFor();
  problems.push(...(await check(page, 'watch with an episode open')));
  expect(problems).toEqual([]);
  expect(errors).toEqual([]);
  await context.close();
});

it('Train at 375 px shows its progress within one second of Start', async () => {
  const { page, context, errors } = await open('#/train?task=esconv&steps=1&perstep=1&sft=2&backend=cpu');
  const problems = await check(page, 'train');
  await page.getByRole('button', { name: 'Start training' }).click();
  const progress = page.locator('.train-progress');
  await progress.waitFor({ timeout: 1_000 });
  expect(await progress.locator('.phase').textContent()).toMatch(/\S/);
  // The run goes through its supervised start to a stored, finished run listed below.
  await expect
    .poll(() => page.locator('table.runs td.status').first().textContent(), { timeout: 120_000 })
    .toBe('finished');
  problems.push(...(await check(page, 'train with curves')));
  expect(problems).toEqual([]);
  expect(errors).toEqual([]);
  await context.close();
});

it('a link naming a memory this browser lacks says so and offers to build it with the link’s settings', async () => {
  const { page, context, errors } = await open('#/watch?task=cb&policy=principles:class-7&memEpisodes=2');
  const missing = page.locator('.missing');
  await expect.poll(() => missing.textContent(), { timeout: 120_000 }).toContain('class-7');
  const build = page.getByRole('link', { name: /^Build “class-7” here/ });
  expect(await build.getAttribute('href')).toBe(
    '#/principles?episodes=2&memory=class-7&name=class-7&task=cb',
  );
  const problems = await check(page, 'watch, missing memory');
  await build.click();
  const button = page.getByRole('button', { name: 'Build “class-7” here' });
  await button.click();
  // Built here with the link's settings: the page then browses it.
  await page.locator('#browse-title').waitFor({ timeout: 120_000 });
  expect(await page.locator('.missing').count()).toBe(0);
  problems.push(...(await check(page, 'principles, memory built')));
  expect(problems).toEqual([]);
  expect(errors).toEqual([]);
  await context.close();
});

it('Principles, Data and Models at 375 px, and Evaluate at 1280 px with an imported report, fit the screen', async () => {
  const problems: string[] = [];
  for (const name of ['principles', 'data', 'models']) {
    const { page, context } = await open(`#/${name}`);
    await page.waitForLoadState('networkidle');
    problems.push(...(await check(page, name)));
    await context.close();
  }
  const { page, context, errors } = await open(
    '#/evaluate?task=p4g&policies=random,standard&episodes=1',
    1280,
  );
  const report = {
    generatedAt: '2026-12-01T00:00:00Z',
    simulatorVersion: 'x',
    results: ['random', 'standard', 'proactive', 'procot'].map((policy) => ({
      task: 'p4g',
      policy: `${policy}-with-a-long-name-from-a-student-file`,
      episodes: 40,
      successRate: { mean: 0.5, lo: 0.3, hi: 0.7, nClusters: 40 },
      meanReturn: { mean: 0.5, lo: 0.3, hi: 0.7, nClusters: 40 },
      avgTurnsAll: { mean: 8, lo: 6, hi: 10, nClusters: 40 },
    })),
  };
  await page.getByRole('button', { name: 'Evaluate', exact: true }).click();
  await page.locator('table.eval').waitFor({ timeout: 120_000 });
  await page
    .getByLabel('Compare with report files')
    .setInputFiles([
      { name: 'student.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(report)) },
    ]);
  await page.locator('table.imported').waitFor();
  problems.push(...(await check(page, 'evaluate 1280 px with an imported report')));
  expect(problems).toEqual([]);
  expect(errors).toEqual([]);
  await context.close();
});
