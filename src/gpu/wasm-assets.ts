/**
 * The `wasm` backend's binaries as Vite assets (browser builds only: `?url` is Vite's asset import): their URLs
 * for {@link configureWasmBackend}'s `files`, served with the app, never from a CDN.
 */
import plain from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url';
import simd from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url';
import threadedSimd from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm?url';
import type { WasmFiles } from './wasm';

/** URLs of the three binaries in a Vite build. */
export const WASM_ASSET_URLS: WasmFiles = {
  'tfjs-backend-wasm.wasm': plain,
  'tfjs-backend-wasm-simd.wasm': simd,
  'tfjs-backend-wasm-threaded-simd.wasm': threadedSimd,
};
