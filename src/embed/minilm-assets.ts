/**
 * onnxruntime-web's WebAssembly files for the MiniLM embedder in a browser, as Vite assets (browser builds only:
 * `?url` is Vite's asset import), served with the app, never from a CDN. `@huggingface/transformers` imports
 * `onnxruntime-web/webgpu`, whose CPU (wasm) path loads the `asyncify` build of these two files. Imported lazily
 * by {@link loadMiniLmEmbedderFromUrl} so that Node never evaluates it.
 */
import mjs from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import wasm from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';

/** URLs of onnxruntime-web's loader module and WebAssembly binary (~25 MB) in a Vite build. */
export const ORT_WASM_PATHS: { mjs: string; wasm: string } = { mjs, wasm };
