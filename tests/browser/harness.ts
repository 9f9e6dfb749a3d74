/**
 * Browser-test harness: Vitest tests (Node) that drive Debian's Chromium through playwright-core.
 *
 * How to write a browser test
 * ---------------------------
 * 1. Add a page: `tests/browser/pages/<name>.html` loading `<script type="module" src="./<name>.ts">`.
 *    The `.ts` entry may import from `src/` (e.g. `../../../src/llm`) and start module workers with
 *    `new Worker(new URL('../../../workers/x.worker.ts', import.meta.url), { type: 'module' })`.
 *    When its setup is done it calls `expose(async (args) => result)` from `./expose` (results must be
 *    structured-cloneable; thrown errors come back with their `name`, `message` and primitive own fields).
 * 2. Add `tests/browser/<topic>.test.ts` (runs in the `browser` Vitest project; all pages are built once per run
 *    by tests/browser/globalSetup.ts into a temporary folder, removed afterwards):
 *
 *      import { afterEach, expect, it } from 'vitest';
 *      import { openPage, type OpenedPage } from './harness';
 *      let p: OpenedPage | undefined;
 *      afterEach(async () => { await p?.close(); p = undefined; });
 *      it('does X', async () => {
 *        p = await openPage('<name>');
 *        expect(await p.run({ some: 'args' })).toEqual(...);
 *        await expect(p.run({ bad: true })).rejects.toMatchObject({ name: 'ModelFileError' });
 *      });
 *
 * Each `openPage` gets a fresh browser context (empty caches, storage and IndexedDB); the Chromium process and
 * the static server are shared within a test file and closed by an `afterAll` this module registers.
 * `page` is the Playwright Page for anything else (routes, `page.evaluate`, screenshots); `requests` lists every
 * URL the context requested (workers included), `server.requests` every path the static server received.
 * Run: `npx vitest run --project browser` (single fork: these machines have 2 cores).
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, inject } from 'vitest';
import type { RunOutcome } from './pages/expose';
import { startStaticServer, type StaticServer } from './server';

/**
 * Chromium flags measured to give a WebGPU adapter (SwiftShader) headless on these machines
 * (docs/architecture.md "Browser and GPU notes").
 */
export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--enable-unsafe-webgpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
] as const;

/** An error thrown inside the page, rethrown on the Node side with the page's `name` and `message`. */
export class PageError extends Error {
  /** Primitive own fields of the page-side error (e.g. `status`, `modelId`). */
  readonly details: Record<string, unknown>;
  constructor(name: string, message: string, details: Record<string, unknown>, pageStack?: string) {
    super(message);
    this.name = name;
    this.details = details;
    if (pageStack) this.stack = `${name}: ${message}\n(page stack)\n${pageStack}`;
  }
}

/** A test page, opened in its own browser context. */
export interface OpenedPage {
  readonly page: Page;
  readonly context: BrowserContext;
  /** Origin of the static server, e.g. `http://127.0.0.1:43121`. */
  readonly origin: string;
  /** Every URL requested by the context so far (page, workers, fetches), in order. */
  readonly requests: readonly string[];
  /** Console lines and uncaught page errors so far, for diagnosis (`[type] text`). */
  readonly logs: readonly string[];
  /** Calls the page's exposed function; rejects with a {@link PageError} if it threw. */
  run<R = unknown>(args?: unknown): Promise<R>;
  close(): Promise<void>;
}

/** Options of {@link openPage}. */
export interface OpenPageOptions {
  /** Milliseconds to wait for the page to call `expose` (default 30 000). */
  readyTimeoutMs?: number;
}

interface Shared {
  browser: Browser;
  server: StaticServer;
}

let shared: Promise<Shared> | undefined;

function getShared(): Promise<Shared> {
  shared ??= (async () => {
    const server = await startStaticServer(inject('browserPagesDir'));
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: [...CHROMIUM_ARGS] });
    return { browser, server };
  })();
  return shared;
}

afterAll(async () => {
  if (!shared) return;
  const { browser, server } = await shared;
  shared = undefined;
  await browser.close();
  await server.close();
});

/** The static server shared by this test file's pages (started on first use). */
export async function pagesServer(): Promise<StaticServer> {
  return (await getShared()).server;
}

/**
 * Opens `tests/browser/pages/<name>.html` in a fresh context and waits until it has called `expose`.
 * Throws if the page does not become ready in time (the message includes its console output).
 */
export async function openPage(name: string, options: OpenPageOptions = {}): Promise<OpenedPage> {
  const { browser, server } = await getShared();
  const context = await browser.newContext();
  const page = await context.newPage();
  const requests: string[] = [];
  const logs: string[] = [];
  context.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => logs.push(`[${m.type()}] ${m.text()}`));
  page.on('pageerror', (e) => logs.push(`[pageerror] ${e.message}`));
  page.on('worker', (w) => w.on('console', (m) => logs.push(`[worker ${m.type()}] ${m.text()}`)));
  try {
    await page.goto(`${server.url}/${name}.html`);
    await page.waitForFunction(() => window.__ready === true, undefined, {
      timeout: options.readyTimeoutMs ?? 30_000,
    });
  } catch (e) {
    await context.close();
    throw new Error(`page '${name}' did not become ready: ${(e as Error).message}\n${logs.join('\n')}`);
  }
  return {
    page,
    context,
    origin: server.url,
    requests,
    logs,
    async run<R>(args?: unknown): Promise<R> {
      const outcome: RunOutcome = await page.evaluate((a) => window.__run!(a), args);
      if (outcome.ok) return outcome.value as R;
      const { name: errName, message, stack, details } = outcome.error;
      throw new PageError(errName, message, (details ?? {}) as Record<string, unknown>, stack);
    },
    close: () => context.close(),
  };
}
