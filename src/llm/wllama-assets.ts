/**
 * wllama's WebAssembly binary as a Vite asset (browser builds only: `?url` is Vite's asset import), served with
 * the app, never from a CDN. Imported lazily by {@link WllamaBackend} so that Node never evaluates it.
 */
import wasm from '@wllama/wllama/esm/wasm/wllama.wasm?url';

/** URL of `wllama.wasm` (llama.cpp compiled to WebAssembly, ~10 MB) in a Vite build. */
export const WLLAMA_WASM_URL: string = wasm;
