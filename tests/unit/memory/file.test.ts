import { describe, expect, it } from 'vitest';

import { decodeVector, encodeVector, parseMemoryFile, PrincipleMemory } from '../../../src/memory';
import { embedder, principle } from './helpers';
import { ConfigError, DataFormatError } from '../../../src/errors';

async function validFile() {
  const memory = new PrincipleMemory('m', 'esconv', embedder);
  await memory.add([
    principle('a situation', 'Question'),
    principle('another situation', 'Others', { origin: 'revision' }),
  ]);
  return memory.toFile();
}

function reasons(input: unknown): string[] {
  try {
    parseMemoryFile(input, 'test.json');
  } catch (e) {
    expect(e).toMatchObject({ name: 'DataFormatError', code: 'MEMORY_FILE_INVALID' });
    expect((e as Error).message).toMatch(/^test\.json /);
    return [...(e as DataFormatError).issues, (e as Error).message];
  }
  throw new Error('the file was accepted');
}

describe('memory file', () => {
  it('encodes vectors as base64 float32, bit-exactly', () => {
    const v = Float32Array.of(0, -0, 1.5, -3.25e-7, Math.fround(Math.PI), 3.4028234663852886e38);
    expect(Object.is(decodeVector(encodeVector(v))[1], -0)).toBe(true);
    expect(decodeVector(encodeVector(v))).toEqual(v);
    expect(() => decodeVector('not base64!')).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'MEMORY_INPUT_INVALID' }),
    );
    expect(() => decodeVector(btoa('abc'))).toThrow(/whole number/);
  });

  it('accepts a valid file', async () => {
    const { file, entries } = parseMemoryFile(JSON.stringify(await validFile()));
    expect(file.principles).toHaveLength(2);
    expect(entries[0]!.embeddings!.when).toHaveLength(64);
  });

  it('rejects each kind of malformed file with the reason and its path', async () => {
    const good = await validFile();
    expect(reasons('{ not json')[0]).toMatch(/not valid JSON/);
    expect(reasons({ ...good, format: 'other' }).join()).toMatch(/format/);
    expect(reasons({ ...good, version: 2 }).join()).toMatch(/version/);
    const dup = { ...good, principles: [good.principles[0], good.principles[0]] };
    expect(reasons(dup)[0]).toMatch(/^principles\[1\]\.principle\.id: duplicate id/);
    const badWhen = structuredClone(good);
    badWhen.principles[1]!.principle.when = '';
    expect(reasons(badWhen)[0]).toMatch(/^principles\[1\]\.principle\.when/);
    const noRather = structuredClone(good);
    delete noRather.principles[1]!.principle.ratherThan;
    expect(reasons(noRather)[0]).toMatch(/ratherThan: a revision principle needs "rather than"/);
    expect(reasons({ ...good, task: 'p4g' })[0]).toMatch(/principle of task esconv in a p4g memory/);
    const short = structuredClone(good);
    short.principles[0]!.embeddings!.when = encodeVector(new Float32Array(10));
    expect(reasons(short)[0]).toMatch(
      /embeddings\.when: embedding has 10 values, the embedder's dimension is 64/,
    );
    const mixed = structuredClone(good);
    delete mixed.principles[0]!.embeddings;
    expect(reasons(mixed)[0]).toMatch(/all principles or none/);
    const nan = structuredClone(good);
    nan.principles[0]!.embeddings!.text = encodeVector(Float32Array.from({ length: 64 }, () => NaN));
    expect(reasons(nan)[0]).toMatch(/non-finite/);
    const huge = structuredClone(good);
    huge.principles[0]!.embeddings!.when = encodeVector(Float32Array.from({ length: 64 }, () => 1e38));
    expect(reasons(huge)[0]).toMatch(
      /^principles\[0\]\.embeddings\.when: embedding has length 8\.00e\+38 \(L2 norm\); embedders make unit-length vectors/,
    );
    const { embedder: _e, ...unnamed } = good;
    expect(reasons(unnamed)[0]).toMatch(/^embedder: embeddings are present/);
  });

  it('refuses a strategy outside the task, another embedder or another task, and names a damaged line', async () => {
    const memory = new PrincipleMemory('m', 'esconv', embedder);
    await memory.add([principle('a situation', 'Question'), principle('haggling', 'Offer a discount')]);
    const file = memory.toFile();
    expect(reasons(file)[0]).toBe(
      'principles[1].principle: strategy "Offer a discount" is not an esconv label',
    );
    const good = await validFile();
    const other = (expected: Parameters<typeof parseMemoryFile>[2]) => {
      try {
        parseMemoryFile(good, 'm.json', expected);
      } catch (e) {
        return e instanceof DataFormatError ? e.issues[0] : e;
      }
      return 'accepted';
    };
    // Another embedder: the file is valid, the embedder asked for is not its own.
    const mismatch = other({ embedder: { id: 'hashed-ngram:other', dim: 64 } });
    expect(mismatch).toBeInstanceOf(ConfigError);
    expect(mismatch).toMatchObject({
      code: 'MEMORY_OPTION_INVALID',
      option: 'embedder',
      expected: embedder.id,
      got: 'hashed-ngram:other',
      message:
        `m.json was built with embedder ${embedder.id} (dim 64); this run embeds with hashed-ngram:other ` +
        '(dim 64): load it with the embedder it was built with, or rebuild or re-embed it with this one',
    });
    expect(other({ embedder: { id: embedder.id, dim: embedder.dim }, task: 'esconv' })).toBe('accepted');
    expect(other({ task: 'cb' })).toBe('task: the memory is of task esconv, this run is of task cb');
    const text = JSON.stringify(good, null, 2);
    const error = (() => {
      try {
        parseMemoryFile(text.slice(0, 300), 'm.json');
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error).toMatchObject({ name: 'DataFormatError', code: 'MEMORY_FILE_INVALID' });
    expect((error as DataFormatError).code).toBe('MEMORY_FILE_INVALID');
    expect(error?.message).toMatch(/^m\.json line \d+ is damaged: the JSON ends early/);
    // A JSON Lines file (a dataset, seeds, trajectories) is named as such, not as a damaged memory.
    const lines = `${JSON.stringify({ dialog: [] })}\n${JSON.stringify({ dialog: [] })}\n`;
    expect(() => parseMemoryFile(lines, 'd.jsonl')).toThrow(
      /^d\.jsonl is not a principle memory: it holds one JSON record per line/,
    );
    // A compact memory file cut after its first line stays a damaged memory.
    expect(() => parseMemoryFile(`${JSON.stringify(good)}\n{`, 'c.json')).toThrow(
      /^c\.json line 2 is damaged/,
    );
  });

  it('accepts a file without embeddings and embeds it on load', async () => {
    const good = await validFile();
    const bare = {
      ...good,
      embedder: undefined,
      principles: good.principles.map((p) => ({ principle: p.principle })),
    };
    const memory = await PrincipleMemory.fromFile(bare, embedder);
    expect(memory.size).toBe(2);
    expect(memory.entries[0]!.when).toEqual((await embedder.embed(['a situation']))[0]);
  });
});
