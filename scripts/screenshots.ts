/**
 * Screenshots of every page of the browser app, for the README: builds the app (`npm run build:demo` into
 * dist/demo), serves the build from a local static server, drives headless Chromium (Debian's, through
 * playwright-core) through each of the eight pages — Play with three turns sent and the user's mind revealed,
 * and its ARG panel (`play-arg`: the actor's reasoning and prediction for a draft); Watch with a baseline run
 * and one episode open; Evaluate with a comparison and the dose–response check; Models, Train, Principles
 * and Data as they open — and writes
 * `docs/screenshots/<page>.png` (1280 px wide, first 1600 px).
 *
 *   npm run screenshots                 # build, then shoot
 *   npm run screenshots -- --no-build   # reuse an existing dist/demo
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { startStaticServer } from '../tests/browser/server';

const ROOT = resolve(import.meta.dirname, '..');
const DIST = resolve(ROOT, 'dist/demo');
const OUT = resolve(ROOT, 'docs/screenshots');

/**
 * Each page: its hash, and what to do before the picture (wait for its content); `at`: the element to scroll
 * to (default: the top of the page).
 */
const SHOTS: { name: string; hash: string; act: (page: Page) => Promise<void>; at?: string }[] = [
  { name: 'home', hash: '#/home', act: async (p) => void (await p.locator('#try').waitFor()) },
  {
    name: 'play',
    hash: '#/play?task=p4g&mind=1',
    act: async (p) => {
      for (const text of [
        'Hi! Have you heard of Save the Children?',
        'They help children in war zones; a small donation feeds a child for a week.',
        'Would you give even one dollar of your task payment?',
      ]) {
        const replies = await p.locator('.reply').count();
        await p.getByLabel('What you say').fill(text);
        await p.getByRole('button', { name: 'Send', exact: true }).click();
        await p.locator('.reply').nth(replies).waitFor({ timeout: 60_000 });
      }
    },
  },
  {
    // Play's "think it through first": the ARG actor's reasoning and prediction for a draft, before sending.
    name: 'play-arg',
    hash: '#/play?task=esconv',
    at: 'section.arg',
    act: async (p) => {
      const replies = await p.locator('.reply').count();
      await p.getByLabel('What you say').fill('That sounds really hard. What has been weighing on you most?');
      await p.getByRole('button', { name: 'Send', exact: true }).click();
      await p.locator('.reply').nth(replies).waitFor({ timeout: 60_000 });
      await p
        .getByLabel('What you say')
        .fill('It is not your fault. Could you talk to your manager this week?');
      await p.getByRole('button', { name: 'Think it through first' }).click();
      await p.locator('section.arg').waitFor({ timeout: 60_000 });
    },
  },
  {
    name: 'watch',
    hash: '#/watch?task=cb&policy=proactive&episodes=4',
    act: async (p) => {
      await p.getByRole('button', { name: 'Run', exact: true }).click();
      await p.getByRole('button', { name: 'Open episode 1' }).click({ timeout: 120_000 });
      await p.locator('.episode .uplot').first().waitFor();
    },
  },
  {
    name: 'evaluate',
    hash: '#/evaluate?task=p4g&policies=random,standard,proactive&episodes=6&doseSeeds=4',
    act: async (p) => {
      await p.getByRole('button', { name: 'Evaluate', exact: true }).click();
      await p.locator('table.eval').waitFor({ timeout: 120_000 });
      await p.getByRole('button', { name: 'Check dose–response' }).click();
      await p.locator('.dose .uplot').waitFor({ timeout: 120_000 });
    },
  },
  // The pages built by other parts of the app: whatever each shows once its code has loaded and the page has
  // stopped fetching (so that the script keeps working as those pages change).
  ...['models', 'train', 'principles', 'data'].map((name) => ({
    name,
    hash: `#/${name}`,
    act: async (p: Page) => {
      await p.locator('main h1').waitFor();
      await p.waitForLoadState('networkidle');
    },
  })),
];

async function main(): Promise<void> {
  if (!process.argv.includes('--no-build'))
    await build({ configFile: resolve(ROOT, 'vite.config.ts'), logLevel: 'warn' });
  mkdirSync(OUT, { recursive: true });
  const server = await startStaticServer(DIST);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless=new', '--no-sandbox', '--enable-unsafe-webgpu'],
  });
  try {
    for (const shot of SHOTS) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
      await page.goto(`${server.url}/index.html${shot.hash}`);
      await shot.act(page);
      await page.waitForFunction(
        () => !document.querySelector('main')?.textContent?.includes('Loading the page'),
      );
      if (shot.at) await page.locator(shot.at).scrollIntoViewIfNeeded();
      else await page.evaluate(() => window.scrollTo(0, 0));
      const file = resolve(OUT, `${shot.name}.png`);
      await page.screenshot({ path: file });
      console.log(`wrote ${file}`);
      await page.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
