/**
 * The browser app (demo/), built once with the repository's vite.config.ts and driven through headless Chromium:
 * Play (three turns, one from the keyboard alone, undo, branch; replies equal a Node run of the same seed; the strategy label does not reach
 * the simulator; the ARG actor's trace and reverse-perspective prediction equal the Node template roles'),
 * Watch (a baseline's episodes equal the Node simulate job's; a crashed worker gives a message, clears the old
 * results and the next run works; a principle memory stored in IndexedDB is found and plays as in Node; no
 * WebLLM code is fetched), Evaluate (the Node evaluate job's table; a downloaded report imported back beside it;
 * a malformed one refused by name; dose–response equal to Node's), no request leaving the page's origin, and
 * axe-core finding no serious or critical violation on any page.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { lookahead } from '../../../src/appraisal/lookahead';
import { TemplateArgActor, TemplateReversePredictor } from '../../../src/appraisal/template';
import { DialogueEnv, type Observation } from '../../../src/env/env';
import { ladderDoseResponse } from '../../../src/eval/validation';
import { buildPrinciplesJob } from '../../../src/jobs/build-principles';
import { Rng } from '../../../src/rng';
import { evaluateJob } from '../../../src/jobs/evaluate';
import { simulateJob, type TrajectoryLine } from '../../../src/jobs/simulate';
import { formatEstimate } from '../../../src/stats/intervals';
import { defaultSeeds } from '../../../src/tasks/defaults';
import { CHROMIUM_ARGS } from '../harness';
import { startStaticServer, type StaticServer } from '../server';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
let outDir = '';
let server: StaticServer;
let browser: Browser;
/** Every URL any page of this file requested. */
const requested: string[] = [];

beforeAll(async () => {
  // The app is built once per run with the other test pages (tests/browser/pages/app.html, globalSetup.ts), so
  // the library's test pages (e.g. `jobs`, which stores a memory) share the app's origin and IndexedDB.
  outDir = inject('browserPagesDir');
  server = await startStaticServer(outDir);
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: [...CHROMIUM_ARGS] });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(hash: string): Promise<{ page: Page; context: BrowserContext; errors: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  context.on('request', (r) => requested.push(r.url()));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${server.url}/app.html${hash}`);
  return { page, context, errors };
}

const UTTERANCES = [
  'Save the Children helps children in war zones; a small donation feeds a child for a week.',
  'Have you ever given to a charity before?',
  'Even one dollar from your task payment would make a real difference today.',
];

/** Serious or critical axe-core violations on the page as it is now, as `rule (impact) at targets` lines. */
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

/** Types `text` into the composer and sends it; waits for the reply count of the active line to grow. */
async function say(page: Page, text: string, strategy = ''): Promise<void> {
  const replies = page.locator('.branch.active .reply');
  const before = await replies.count();
  await page.getByLabel('Strategy label (optional)').selectOption(strategy);
  await page.getByLabel('What you say').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect.poll(() => replies.count(), { timeout: 30_000 }).toBe(before + 1);
}

it('Play: three turns (the third from the keyboard alone) equal a Node run of the same seed; undo; branch; the mind panel', async () => {
  const { page, context, errors } = await open('#/play?task=p4g');
  await page.locator('.situation').waitFor({ timeout: 30_000 });
  await say(page, UTTERANCES[0]!, 'Logical appeal');
  await say(page, UTTERANCES[1]!);
  // Third turn from the keyboard: Tab to the text box, type, Tab to Send, Enter.
  const textarea = page.getByLabel('What you say');
  for (let i = 0; i < 80 && !(await textarea.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await page.keyboard.type(UTTERANCES[2]!);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  const replies = page.locator('.branch.active .reply');
  await expect.poll(() => replies.count(), { timeout: 30_000 }).toBe(3);

  const env = new DialogueEnv('p4g');
  env.reset({ seed: defaultSeeds('p4g')[0]! });
  const expected: string[] = [];
  const observations: Observation[] = [];
  for (const u of UTTERANCES) {
    const step = await env.step({ strategy: '', utterance: u });
    expected.push(step.info.sim.userUtterance);
    observations.push(step.observation);
  }
  expect(await replies.allTextContents()).toEqual(expected);

  await page.getByRole('button', { name: 'Undo last turn' }).click();
  expect(await replies.allTextContents()).toEqual(expected.slice(0, 2));

  // Before sending turn 3 again: the ARG actor's trace and its prediction of the user after the draft, equal to
  // the Node template roles on the actor's observation after turn 2 (never the simulator's state).
  await page.getByLabel('What you say').fill(UTTERANCES[2]!);
  await page.getByRole('button', { name: 'Think it through first' }).click();
  const arg = page.locator('section.arg');
  await arg.waitFor({ timeout: 30_000 });
  const { trace } = await new TemplateArgActor().reason(observations[1]!, Rng.fromSeed(0));
  const path = await lookahead(new TemplateReversePredictor(), observations[1]!, UTTERANCES[2]!);
  expect(await arg.locator('.arg-strategy strong').textContent()).toBe(trace.response_strategy.label);
  expect(await arg.locator('.arg-emotion').textContent()).toContain(
    `${trace.emotional_state.emotion}, ${trace.emotional_state.score} of 5`,
  );
  const predicted = await arg.locator('.arg-prediction > li > strong').allTextContents();
  expect(predicted.map((t) => t.split(' (')[0])).toEqual(
    path.map((s) => `${s.emotional_state.emotion}, ${s.emotional_state.score} of 5`),
  );
  expect(await arg.textContent()).toContain(`For: “${UTTERANCES[2]!}”`);
  expect(await axeViolations(page, 'play (ARG panel)')).toEqual([]);

  // Branch at turn 1 and say turn 1 again with another label: the simulator never sees labels, so the reply is
  // the same; then a different turn 2. Both lines stay on screen.
  await page.getByRole('button', { name: 'Branch: try another turn 1 in Line A' }).click();
  expect(await page.locator('.branch').count()).toBe(2);
  await say(page, UTTERANCES[0]!, 'Emotion appeal');
  await say(page, 'What do you think about charities in general?');
  const lineA = await page.locator('.branch').nth(0).locator('.reply').allTextContents();
  const lineB = await page.locator('.branch').nth(1).locator('.reply').allTextContents();
  expect(lineA).toEqual(expected.slice(0, 2));
  expect(lineB[0]).toBe(expected[0]);
  expect(lineB).toHaveLength(2);
  expect(await page.locator('.branch').nth(1).locator('h3').textContent()).toContain('branched at turn 1');

  // Reveal the mind: the panel names mode, route and judgment for each turn, and the plots appear.
  await page.getByLabel('Reveal the user’s mind').check();
  const panel = page.locator('.branch').nth(0).locator('.mind').first();
  await expect.poll(() => panel.locator('.decision').innerText()).toMatch(/mode: (Influence|Elicit|Social)/);
  await expect.poll(() => page.locator('.branch').nth(0).locator('.uplot').count()).toBeGreaterThanOrEqual(3);
  expect(page.url()).toContain('mind=1');
  expect(await axeViolations(page, 'play')).toEqual([]);
  expect(errors).toEqual([]);
  await context.close();
});

it('Watch: a baseline on two seeds gives the episodes of the Node simulate job; a new run clears the old results', async () => {
  const seeds = defaultSeeds('p4g').slice(0, 2);
  const ids = seeds.map((s) => encodeURIComponent(s.id)).join(',');
  const { page, context, errors } = await open(
    `#/watch?task=p4g&policy=standard&seeds=${ids}&episodes=2&rng=3`,
  );
  await page.getByRole('button', { name: 'Run' }).click();
  const rows = page.locator('table.episodes tbody tr');
  await expect.poll(() => rows.count(), { timeout: 60_000 }).toBe(2);

  const lines: TrajectoryLine[] = [];
  await simulateJob(
    { task: 'p4g', policy: 'standard', seeds, episodes: 2, rngSeed: 3, keepState: true },
    { onEpisode: (l) => void lines.push(l) },
  );
  expect(await page.locator('table.episodes td.return').allTextContents()).toEqual(
    lines.map((l) => l.return.toFixed(3)),
  );
  await page.getByRole('button', { name: 'Open episode 1' }).click();
  const shown = await page.locator('.episode .transcript > li > .turn.user').allTextContents();
  expect(shown).toEqual(lines[0]!.turns.map((t) => `persuadee: ${t.userUtterance}`));
  expect(await axeViolations(page, 'watch')).toEqual([]);

  // A worker that cannot start (its script refused): a plain message, the old results gone, the page still
  // works and the next run starts a fresh worker that gives the same episodes.
  await context.route(/episode\.worker-[^/]*\.js$/, (r) => r.abort());
  await page.getByRole('button', { name: 'Run' }).click();
  await expect.poll(() => page.getByRole('alert').textContent()).toContain('stopped unexpectedly');
  expect(await rows.count()).toBe(0);
  expect(await page.locator('.episode').count()).toBe(0);
  await context.unroute(/episode\.worker-[^/]*\.js$/);
  await page.getByRole('button', { name: 'Run' }).click();
  await expect.poll(() => rows.count(), { timeout: 60_000 }).toBe(2);
  expect(await page.locator('table.episodes td.return').allTextContents()).toEqual(
    lines.map((l) => l.return.toFixed(3)),
  );
  // Template mode fetched no WebLLM code.
  const scripts = requested.filter((u) => u.startsWith(server.url) && u.endsWith('.js'));
  const webllm = scripts.filter((u) =>
    readFileSync(join(outDir, new URL(u).pathname)).includes('CreateMLCEngine'),
  );
  expect(webllm).toEqual([]);

  // A new run starts from a clean page (the old table and episode go at once); Stop ends it with a message.
  await page.getByRole('button', { name: 'Run' }).click();
  expect(await page.locator('.episode').count()).toBe(0);
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect.poll(() => page.getByRole('alert').textContent()).toContain('Stopped');
  expect(await rows.count()).toBe(0);

  // A principle memory stored in this origin's IndexedDB (through the library's store, on the jobs test page)
  // is found by the page and plays as `principles:mem` the episodes the Node simulate job gives.
  const built = await buildPrinciplesJob({ task: 'cb', episodes: 2, rngSeed: 7, name: 'm' });
  const file = JSON.parse(JSON.stringify(built.memory)) as unknown;
  const lib = await context.newPage();
  await lib.goto(`${server.url}/jobs.html`);
  await lib.waitForFunction(() => (window as { __ready?: boolean }).__ready === true);
  const stored = await lib.evaluate(
    (f) =>
      (window as unknown as { __run: (a: unknown) => Promise<{ ok: boolean }> }).__run({
        importMemory: { name: 'mem', file: f },
      }),
    file,
  );
  expect(stored.ok).toBe(true);
  await lib.close();
  await page.evaluate(() => (location.hash = '#/watch?task=cb&episodes=2&rng=4'));
  await page.getByRole('button', { name: 'Find policies stored in this browser' }).click();
  await expect
    .poll(() => page.locator('.stored-policies').textContent(), { timeout: 60_000 })
    .toContain('Found 1: principles:mem');
  await page.getByLabel('Policy', { exact: true }).selectOption('principles:mem');
  expect(page.url()).toContain('policy=principles%3Amem');
  await page.getByRole('button', { name: 'Run' }).click();
  await expect.poll(() => rows.count(), { timeout: 60_000 }).toBe(2);
  const memLines: TrajectoryLine[] = [];
  await simulateJob(
    {
      task: 'cb',
      policy: 'principles:mem',
      seeds: defaultSeeds('cb').slice(0, 6),
      episodes: 2,
      rngSeed: 4,
      keepState: true,
      resources: { principles: { mem: file as never } },
    },
    { onEpisode: (l) => void memLines.push(l) },
  );
  expect(await page.locator('table.episodes td.return').allTextContents()).toEqual(
    memLines.map((l) => l.return.toFixed(3)),
  );
  expect(await page.locator('section[aria-labelledby=results] p[role=status]').textContent()).toContain(
    'of principles:mem',
  );
  expect(errors).toEqual([]);
  await context.close();
});

it("Evaluate: two policies give the Node evaluate job's table, with intervals", async () => {
  const { page, context, errors } = await open(
    '#/evaluate?task=p4g&policies=random,standard&episodes=2&rng=1',
  );
  await page.getByRole('button', { name: 'Evaluate' }).click();
  const cells = page.locator('table.eval td.return');
  await expect.poll(() => cells.count(), { timeout: 60_000 }).toBe(2);
  const { report } = await evaluateJob({
    tasks: ['p4g'],
    policies: ['random', 'standard'],
    episodes: 2,
    rngSeed: 1,
  });
  expect(await cells.allTextContents()).toEqual(report.results.map((r) => formatEstimate(r.meanReturn)));
  expect(await page.locator('table.eval td.success').allTextContents()).toEqual(
    report.results.map((r) => formatEstimate(r.successRate)),
  );

  // Class mode: the downloaded report, imported back, shows the same figures beside the current result; a
  // malformed file is refused with its name and the field at fault.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'JSON', exact: true }).click(),
  ]);
  const json = readFileSync((await download.path()) as string);
  await page.getByLabel('Compare with report files').setInputFiles([
    { name: 'student.json', mimeType: 'application/json', buffer: json },
    { name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"results": []}') },
  ]);
  await expect
    .poll(() => page.locator('table.imported td.return').allTextContents())
    .toEqual(report.results.map((r) => formatEstimate(r.meanReturn)));
  expect(await page.locator('table.imported caption').textContent()).toContain('student.json');
  expect(await page.getByRole('alert').textContent()).toContain('broken.json is not an evaluation report');

  // Dose–response on two seeds: the level means of the Node ladder run, with the monotone share.
  await page.evaluate(
    () => (location.hash = '#/evaluate?task=p4g&policies=random,standard&episodes=2&rng=1&doseSeeds=2'),
  );
  await page.getByRole('button', { name: 'Check dose–response' }).click();
  const means = page.locator('.dose-mean');
  await expect.poll(() => means.count(), { timeout: 60_000 }).toBe(4);
  const dose = await ladderDoseResponse({ task: 'p4g', seeds: defaultSeeds('p4g').slice(0, 2) });
  expect(await means.allTextContents()).toEqual(dose.levelMeans.map((m) => m.toFixed(3)));
  expect(await page.locator('.dose-summary').textContent()).toContain(
    `${Math.round(dose.monotoneShare * 2)} of 2 seeds`,
  );
  await expect.poll(() => page.locator('.dose .uplot').count()).toBe(1);
  expect(await axeViolations(page, 'evaluate')).toEqual([]);
  expect(errors).toEqual([]);
  await context.close();
});

it('Train: five CSTPO steps in the trainer worker with live curves; stop, reload, resume from the stored run', async () => {
  const { page, context, errors } = await open('#/train?task=esconv&steps=5&perstep=1&sft=2&backend=cpu');
  await page.getByRole('button', { name: 'Start training' }).click();
  const rows = page.locator('figure.plot').first().locator('details.numbers tbody tr');
  await expect.poll(() => rows.count(), { timeout: 120_000 }).toBeGreaterThanOrEqual(1);
  // Five steps leave the click time to land while the run goes on (a three-step run could finish first on a
  // loaded machine, and the Stop button is gone when it has).
  await page.getByRole('button', { name: 'Stop' }).click();
  const run = page.locator('table.runs tbody tr').first();
  await run.waitFor({ timeout: 120_000 });
  const stoppedAt = Number((await run.locator('td').nth(3).textContent())?.split(' ')[0]);
  expect(await run.locator('td').nth(4).textContent()).toBe(stoppedAt < 5 ? 'stopped' : 'finished');
  expect(await page.locator('main').textContent()).toContain('Compute backend: cpu');

  await page.reload();
  await run.waitFor();
  if (stoppedAt < 5) {
    await run.getByRole('button', { name: /^Resume / }).click();
    await expect.poll(() => run.locator('td').nth(4).textContent(), { timeout: 120_000 }).toBe('finished');
    expect(await rows.count()).toBe(5);
  }
  expect(await run.locator('td').nth(3).textContent()).toBe('5 of 5');
  expect(errors).toEqual([]);
  await context.close();
});

it('the home page: axe-core finds no serious or critical violation; no request left the origin', async () => {
  // The other pages' axe checks and bad-file cases are in principles-models.test.ts and data-train.test.ts.
  const { page, context, errors } = await open('#/home');
  const found: string[] = [];
  await page
    .locator('main h1')
    .filter({ hasText: /^home$/i })
    .waitFor();
  found.push(...(await axeViolations(page, 'home')));
  expect(found).toEqual([]);
  expect(errors).toEqual([]);
  await context.close();
  expect(requested.filter((u) => !u.startsWith(server.url) && !u.startsWith('data:'))).toEqual([]);
});
