/**
 * `memory/browser`: the principle-memory benchmarks in headless Chromium (Debian's, through playwright-core,
 * with the flags tests/browser/harness.ts uses for a WebGPU adapter): top-3 retrieval latency (wall time: a
 * page has no CPU clock) at 1,000 / 10,000 / 100,000 principles for the WebAssembly SIMD index, over float32
 * and over float16 rows, each against the float32 typed-array scan (interleaved), tfjs on WebGPU up to
 * 10,000, and the time to load a 10,000-principle memory from IndexedDB. The page is
 * tests/browser/pages/memory-bench.ts, built here with Vite. On these machines the adapter is SwiftShader (a
 * CPU implementation of WebGPU): its tfjs numbers say nothing about a real GPU (bench `memory/webgpu`
 * measures tfjs on WebGPU in Node, where a GPU's Vulkan driver can be used).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStaticServer } from '../../tests/browser/server';
import type { MemoryBenchArgs, MemoryBenchResult } from '../../tests/browser/pages/memory-bench';
import { caseRuns, ratioEntry, timingEntry } from '../timing';
import type { BenchEntry, Benchmark } from '../types';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
/** The Chromium flags of tests/browser/harness.ts (a WebGPU adapter headless on these machines). */
const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--enable-unsafe-webgpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

export const memoryBrowserBenchmark: Benchmark = {
  name: 'memory/browser',
  async run(ctx) {
    const outDir = mkdtempSync(join(tmpdir(), 'pdl-memory-bench-'));
    const server = { close: async () => undefined } as { close(): Promise<void> };
    const { chromium } = await import('playwright-core');
    const { build } = await import('vite');
    let browser: Awaited<ReturnType<typeof chromium.launch>> | undefined;
    try {
      ctx.log('building the page');
      await build({
        configFile: resolve(root, 'vite.config.ts'),
        root: resolve(root, 'tests/browser/pages'),
        logLevel: 'warn',
        build: {
          outDir,
          emptyOutDir: true,
          reportCompressedSize: false,
          rolldownOptions: {
            input: { 'memory-bench': resolve(root, 'tests/browser/pages/memory-bench.html') },
            checks: { bundlerTimings: false },
          },
        },
      });
      const served = await startStaticServer(outDir);
      server.close = () => served.close();
      browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
      const page = await browser.newPage();
      await page.goto(`${served.url}/memory-bench.html`);
      await page.waitForFunction(() => window.__ready === true, undefined, { timeout: 60_000 });
      const args: MemoryBenchArgs = {
        sizes: [1_000, 10_000, 100_000],
        runs: ctx.timing.runs,
        warmup: ctx.timing.warmup,
        tfjsRuns: caseRuns(ctx, 5),
        seed: ctx.seed,
        loadSize: 10_000,
      };
      ctx.log('measuring in Chromium');
      const outcome = await page.evaluate((a) => window.__run!(a), args);
      if (!outcome.ok) throw new Error(`${outcome.error.name}: ${outcome.error.message}`);
      const r = outcome.value as MemoryBenchResult;
      ctx.log(`tfjs backend ${r.backend}, adapter: ${r.adapter}`);
      const entries: BenchEntry[] = [];
      for (const s of r.sizes) {
        const tag = `k=3 N=${s.n} dim=${s.dim} (Chromium)`;
        entries.push(
          timingEntry(`memory/browser ${s.kernel} + exact re-rank ${tag}`, s.index),
          timingEntry(`memory/browser typed-array scan ${tag}`, s.scan),
          ratioEntry(
            `memory/browser ${s.kernel} vs typed-array scan ${tag}`,
            { target: s.index, baseline: s.scan, ratio: s.index.median / s.scan.median },
            'typed-array scan',
          ),
          { name: `memory/browser index bytes N=${s.n} dim=${s.dim}`, unit: 'bytes', value: s.indexBytes },
          timingEntry(`memory/browser float16 rows, ${s.kernel} + exact re-rank ${tag}`, s.half),
          ratioEntry(
            `memory/browser float16 rows ${s.kernel} vs float32 typed-array scan ${tag}`,
            { target: s.half, baseline: s.halfScan, ratio: s.half.median / s.halfScan.median },
            'float32 typed-array scan',
          ),
          {
            name: `memory/browser float16 index bytes N=${s.n} dim=${s.dim}`,
            unit: 'bytes',
            value: s.halfBytes,
          },
        );
        if (s.tfjs) {
          const e = timingEntry(`memory/browser tfjs-${r.backend} ${tag}`, s.tfjs);
          entries.push(
            { ...e, extra: `${e.extra}; adapter: ${r.adapter}` },
            {
              name: `memory/browser tfjs-${r.backend} index bytes N=${s.n} dim=${s.dim}`,
              unit: 'bytes',
              value: s.tfjsBytes,
              extra: 'host copy + device matrix + norms',
            },
          );
        }
      }
      entries.push(
        timingEntry(`memory/browser load ${r.loadSize} principles from IndexedDB (Chromium)`, r.load),
      );
      return entries;
    } finally {
      await browser?.close();
      await server.close();
      rmSync(outDir, { recursive: true, force: true });
    }
  },
};
