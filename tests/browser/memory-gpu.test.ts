import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryBenchArgs, MemoryBenchResult } from './pages/memory-bench';
import { openPage, type OpenedPage } from './harness';

let p: OpenedPage | undefined;
afterEach(async () => {
  await p?.close();
  p = undefined;
});

describe('principle retrieval on WebGPU in headless Chromium', () => {
  it('tfjs on WebGPU returns the same top-3 as the typed-array scan; a memory loads back from IndexedDB', async () => {
    p = await openPage('memory-bench', { readyTimeoutMs: 60_000 });
    const args: MemoryBenchArgs = {
      sizes: [300, 3000],
      runs: 2,
      warmup: 1,
      tfjsRuns: 2,
      seed: 4,
      loadSize: 300,
    };
    // The page throws if any path's answers differ from the typed-array scan's (checkSame).
    const r = await p.run<MemoryBenchResult>(args);
    expect(r.backend).toBe('webgpu');
    expect(r.adapter).not.toBe('no WebGPU adapter');
    expect(r.sizes.map((s) => [s.n, s.dim])).toEqual([
      [300, 384],
      [3000, 384],
    ]);
    for (const s of r.sizes) {
      expect(s.tfjs).not.toBeNull();
      expect(s.tfjs!.samples).toHaveLength(2);
      expect(s.kernel).toBe('wasm-simd');
      // One WebAssembly memory: the rows plus query and distance scratch, in 64 KiB pages.
      expect(s.indexBytes).toBe(Math.ceil((s.n * 385 * 4 + 384 * 4) / 65_536) * 65_536);
    }
    expect(r.load.samples).toHaveLength(2);
  });
});
