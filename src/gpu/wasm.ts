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

/** The slice of tfjs this module uses (`@tensorflow/tfjs` satisfies it). */
export interface TfWasmApi {
  env(): { set(flag: string, value: boolean): void };
  registerKernel(config: { kernelName: string; backendName: string; kernelFunc: never }): void;
  getKernel(kernelName: string, backendName: string): unknown;
}

/** A tensor as a kernel sees it. */
interface TensorInfo {
  dataId: object;
  shape: number[];
  dtype: string;
}

/** The slice of tfjs-backend-wasm's backend a JavaScript kernel uses. */
interface WasmBackendLike {
  makeOutput(shape: number[], dtype: string): TensorInfo;
  typedArrayFromHeap(t: TensorInfo): Float32Array | Int32Array | Uint8Array;
}

/**
 * `UnsortedSegmentSum` for the wasm backend, which lacks it (tfjs 4.22) although the gradient of `gather` needs
 * it: `out[s, …] = Σ x[i, …]` over the rows i with `segmentIds[i] = s` (ids outside `[0, numSegments)` are
 * dropped, as on the cpu backend), summed in row order in float32.
 */
function unsortedSegmentSum(args: {
  inputs: { x: TensorInfo; segmentIds: TensorInfo };
  attrs: { numSegments: number };
  backend: WasmBackendLike;
}): TensorInfo {
  const { x, segmentIds } = args.inputs;
  const { numSegments } = args.attrs;
  const rows = segmentIds.shape.reduce((a, b) => a * b, 1);
  const innerShape = x.shape.slice(segmentIds.shape.length);
  const inner = innerShape.reduce((a, b) => a * b, 1);
  const out = args.backend.makeOutput([numSegments, ...innerShape], x.dtype);
  // Views after makeOutput: allocating may grow the heap and detach earlier views.
  const values = args.backend.typedArrayFromHeap(x);
  const ids = args.backend.typedArrayFromHeap(segmentIds);
  const sums = args.backend.typedArrayFromHeap(out);
  sums.fill(0);
  for (let i = 0; i < rows; i++) {
    const s = ids[i] as number;
    if (s < 0 || s >= numSegments) continue;
    for (let j = 0; j < inner; j++)
      sums[s * inner + j] = (sums[s * inner + j] as number) + (values[i * inner + j] as number);
  }
  return out;
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
 * Points the `wasm` backend at its binaries, allows threads only under cross-origin isolation, and registers
 * the kernels the CSTPO update needs that the backend lacks (`UnsortedSegmentSum`). Call before
 * {@link selectBackend} (the binaries load when the backend first initialises).
 */
export function configureWasmBackend(tf: TfWasmApi, options: WasmBackendOptions = {}): void {
  if (options.files) setWasmPaths(options.files);
  if (!options.crossOriginIsolated) tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  if (!tf.getKernel('UnsortedSegmentSum', 'wasm'))
    tf.registerKernel({
      kernelName: 'UnsortedSegmentSum',
      backendName: 'wasm',
      kernelFunc: unsortedSegmentSum as never,
    });
}
