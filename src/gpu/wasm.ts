/**
 * tfjs's WebAssembly backend (`@tensorflow/tfjs-backend-wasm`, XNNPACK kernels; SIMD where the engine has it,
 * threads only where the page or worker is cross-origin isolated) for training and rollouts on CPUs: measured
 * about 15–20× faster than tfjs's pure-JavaScript `cpu` backend for the CSTPO networks' matrix products
 * (bench `rl/step-time`). Importing this module registers the backend as `wasm`, which {@link selectBackend}
 * then prefers to `cpu`.
 *
 * Its binaries ship inside the npm package: in Node they load from `node_modules` (the package's default,
 * beside its script); in a browser build pass the URLs Vite gives them (`./wasm-assets`), so nothing is
 * fetched from a CDN.
 */
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';

/** The three binaries of the backend: plain, SIMD, and SIMD with threads. */
export const WASM_BINARIES = [
  'tfjs-backend-wasm.wasm',
  'tfjs-backend-wasm-simd.wasm',
  'tfjs-backend-wasm-threaded-simd.wasm',
] as const;
/** Where each binary is served from (URLs in a browser, file paths in Node). */
export type WasmFiles = Record<(typeof WASM_BINARIES)[number], string>;

/** The slice of tfjs's environment this module sets (`tf.env()` satisfies it). */
export interface TfEnvFlags {
  set(flag: string, value: boolean): void;
}

/** Options of {@link configureWasmBackend}. */
export interface WasmBackendOptions {
  /** Where the binaries are (default: beside the package's script, i.e. `node_modules` in Node). */
  files?: WasmFiles;
  /**
   * Whether threads may be used: pass `self.crossOriginIsolated` in a page or worker (shared memory needs it);
   * false in Node (tfjs has no threaded build for Node). Default false.
   */
  crossOriginIsolated?: boolean;
}

/**
 * Points the `wasm` backend at its binaries and allows threads only under cross-origin isolation. Call before
 * {@link selectBackend} (the binaries load when the backend first initialises).
 */
export function configureWasmBackend(env: TfEnvFlags, options: WasmBackendOptions = {}): void {
  if (options.files) setWasmPaths(options.files);
  if (!options.crossOriginIsolated) env.set('WASM_HAS_MULTITHREAD_SUPPORT', false);
}
