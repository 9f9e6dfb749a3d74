/**
 * tfjs's wasm backend and the retrieval kernel in Chromium: the backend's binaries come from the app's own
 * server (Vite assets), never from a CDN; threads stay off on a page that is not cross-origin isolated.
 */
import { afterEach, expect, it } from 'vitest';
import { openPage, type OpenedPage } from './harness';

let p: OpenedPage | undefined;
afterEach(async () => {
  await p?.close();
  p = undefined;
});

it('selects the wasm backend with binaries served by the app, and the SIMD retrieval kernel equals the scan (float32 and float16 rows)', async () => {
  p = await openPage('wasm-backend');
  const r = await p.run<Record<string, unknown>>();
  expect(r).toMatchObject({
    backend: 'wasm',
    summary: 'wasm',
    simd: true,
    threads: false,
    crossOriginIsolated: false,
    product: [1, 2, 3, 4],
    kernel: 'wasm-simd',
    same: true,
    halfKernel: 'wasm-simd',
    sameHalves: true,
  });
  const wasmRequests = p.requests.filter((u) => /\.wasm(\?|$)/.test(u));
  expect(wasmRequests).toHaveLength(1);
  expect(wasmRequests[0]).toMatch(new RegExp(`^${p.origin}/.*tfjs-backend-wasm-simd.*\\.wasm$`));
  expect(
    p.requests.every((u) => u.startsWith(p!.origin) || u.startsWith('data:') || u.startsWith('blob:')),
  ).toBe(true);
});
