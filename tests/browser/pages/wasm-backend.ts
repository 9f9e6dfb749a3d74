/**
 * wasm-backend page: tfjs's wasm backend loaded from the app's own Vite assets (src/gpu/wasm-assets.ts) and
 * chosen by `selectBackend`, and the retrieval index's WebAssembly SIMD kernel, in Chromium.
 * `run()` → the backend choice, a matrix product's result, and the retrieval kernel's agreement with the scan
 * (float32 rows and float16 rows).
 */
import * as tf from '@tensorflow/tfjs';
import { selectBackend } from '../../../src/gpu/backend';
import { configureWasmBackend } from '../../../src/gpu/wasm';
import { WASM_ASSET_URLS } from '../../../src/gpu/wasm-assets';
import { FlatL2Index } from '../../../src/memory/knn';
import { Rng } from '../../../src/rng';
import { expose } from './expose';

expose(async () => {
  configureWasmBackend(tf, { files: WASM_ASSET_URLS, crossOriginIsolated: self.crossOriginIsolated });
  const choice = await selectBackend(tf, { prefer: ['wasm', 'cpu'] });
  const product = Array.from(await tf.matMul(tf.tensor2d([1, 2, 3, 4], [2, 2]), tf.eye(2)).data());
  const rng = Rng.fromSeed(3);
  const dim = 384;
  const rows = Array.from({ length: 2000 }, () => Float32Array.from({ length: dim }, () => rng.next() - 0.5));
  const wasm = FlatL2Index.from(dim, rows);
  const scan = FlatL2Index.from(dim, rows, { kernel: 'scan' });
  const half = FlatL2Index.from(dim, rows, { precision: 'float16' });
  const halfScan = FlatL2Index.from(dim, rows, { precision: 'float16', kernel: 'scan' });
  let same = true;
  let sameHalves = true;
  for (let t = 0; t < 20; t++) {
    const q = Float32Array.from({ length: dim }, () => rng.next() - 0.5);
    same &&= JSON.stringify(wasm.searchSync(q, 3)) === JSON.stringify(scan.searchSync(q, 3));
    sameHalves &&= JSON.stringify(half.searchSync(q, 3)) === JSON.stringify(halfScan.searchSync(q, 3));
  }
  return {
    backend: choice.backend,
    summary: choice.summary,
    simd: tf.env().getBool('WASM_HAS_SIMD_SUPPORT'),
    threads: tf.env().getBool('WASM_HAS_MULTITHREAD_SUPPORT'),
    crossOriginIsolated: self.crossOriginIsolated,
    product,
    kernel: wasm.kernelName,
    same,
    halfKernel: half.kernelName,
    sameHalves,
  };
});
