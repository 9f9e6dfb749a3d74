/**
 * The MiniLM embedder in a browser page or Web Worker, from a model folder the app serves itself (a URL on the
 * page's origin): checks that the folder's files are there, hashes the ONNX model with
 * SubtleCrypto (SHA-256, recorded in the embedder id, as in Node) and loads it with onnxruntime-web on the CPU
 * (WebAssembly, one thread). onnxruntime-web's own WebAssembly files come from the app's bundle
 * (minilm-assets.ts), never from a CDN; nothing is fetched from a model hub.
 */
import { ModelFileError } from '../errors';
import { MINILM_FILES, MiniLmEmbedder } from './minilm';

/** Options of {@link loadMiniLmEmbedderFromUrl}. */
export interface MiniLmUrlOptions {
  /** onnxruntime-web's loader and binary (default: the files bundled by Vite, see minilm-assets.ts). */
  wasmPaths?: { mjs: string; wasm: string };
}

/** Hex SHA-256 of `bytes`. */
async function sha256Hex(bytes: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Loads all-MiniLM-L6-v2 from the folder at `modelDir` (a URL on the page's own origin, absolute or relative to
 * the page or worker), which must serve the files of `MINILM_FILES` (`npm run minilm-model -- --out DIR` makes such a folder).
 * The ONNX file is read twice (once here for its hash, once by the runtime); both from the same server.
 * @throws ModelFileError (EMBED_MODEL_UNAVAILABLE) for a folder on another origin, naming the URL of the first file that cannot be
 *   fetched, or why the model does not load (e.g. not all-MiniLM-L6-v2: vectors of another size).
 */
export async function loadMiniLmEmbedderFromUrl(
  modelDir: string,
  options: MiniLmUrlOptions = {},
): Promise<MiniLmEmbedder> {
  const here = globalThis.location?.href;
  const base = new URL(modelDir.replace(/\/*$/, '/'), here);
  if (here === undefined || base.origin !== new URL(here).origin) {
    throw new ModelFileError(
      'EMBED_MODEL_UNAVAILABLE',
      `the MiniLM model folder ${base.href} is not on this page's origin${here ? ` (${new URL(here).origin})` : ''}: ` +
        'serve it with the app (the runtime reads local model files from its own origin only)',
    );
  }
  let modelBytes: ArrayBuffer | undefined;
  for (const file of MINILM_FILES) {
    const url = new URL(file, base).href;
    const response = await fetch(url).catch((e: unknown) => {
      throw new ModelFileError('EMBED_MODEL_UNAVAILABLE', `cannot fetch ${url}: ${(e as Error).message}`, {
        cause: e,
      });
    });
    if (!response.ok) {
      throw new ModelFileError(
        'EMBED_MODEL_UNAVAILABLE',
        `the MiniLM model folder ${base.href} has no ${file} (HTTP ${response.status} for ${url}); serve the ` +
          'folder made by `npm run minilm-model -- --out DIR` with the app',
      );
    }
    if (file === 'onnx/model_quantized.onnx') modelBytes = await response.arrayBuffer();
    else await response.body?.cancel();
  }
  const modelSha256 = await sha256Hex(modelBytes ?? new ArrayBuffer(0));
  const wasmPaths = options.wasmPaths ?? (await import('./minilm-assets')).ORT_WASM_PATHS;
  // @huggingface/transformers looks for a local model's files only under a path (an http(s) URL there is
  // taken for a remote model, which is switched off): the folder is given by its path on this origin.
  return MiniLmEmbedder.load({ modelDir: base.pathname, modelSha256, wasmPaths });
}
