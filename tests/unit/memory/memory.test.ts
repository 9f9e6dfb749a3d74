import { describe, expect, it } from 'vitest';

import { HashedNgramEmbedder } from '../../../src/embed';
import { FlatL2Index, formatPrinciple, PrincipleMemory, type IndexFactory } from '../../../src/memory';
import { roundToHalves } from '../../../src/memory/half';
import { embedder, principle } from './helpers';

const situations = [
  'the help-seeker sounds anxious and is unsure, early in the conversation',
  'the help-seeker sounds low and agrees, late in the conversation',
  'the help-seeker sounds frustrated and pushes back, in the middle of the conversation',
  'the help-seeker sounds hopeful and is listening, late in the conversation',
];

describe('PrincipleMemory', () => {
  it('retrieves the k nearest When clauses by L2 distance (default k = 3)', async () => {
    const memory = new PrincipleMemory('m', 'esconv', embedder);
    await memory.add(
      situations.map((s, i) => principle(s, ['Question', 'Information', 'Others', 'Self-disclosure'][i]!)),
    );
    const hits = await memory.retrieve(situations[2]!);
    expect(hits).toHaveLength(3);
    expect(hits[0]).toMatchObject({ rank: 0, distance: 0 });
    expect(hits[0]!.principle.when).toBe(situations[2]);
    expect(hits.map((h) => h.distance)).toEqual([...hits.map((h) => h.distance)].sort((a, b) => a - b));
    // The same answer as a scan of the When embeddings computed afresh.
    const [q] = await embedder.embed([situations[2]!]);
    const scan = FlatL2Index.from(embedder.dim, await embedder.embed(situations));
    expect(hits.map((h) => h.distance)).toEqual(scan.searchSync(q!, 3).map((h) => h.distance));
    expect(await memory.retrieve('anything', 10)).toHaveLength(4);
    expect(await new PrincipleMemory('e', 'esconv', embedder).retrieve('x')).toEqual([]);
  });

  it('drops exact and near-duplicate principles of the same strategy, keeps other strategies', async () => {
    const memory = new PrincipleMemory('m', 'esconv', embedder);
    const first = principle(situations[0]!, 'Question');
    const r1 = await memory.add([first, first]);
    expect(r1.added).toHaveLength(1);
    expect(r1.duplicates).toEqual([{ principle: first, of: first.id, distance: 0 }]);
    // One word changed in a long principle: near-identical.
    const near = principle(situations[0]!.replace('early', 'very early'), 'Question');
    const other = principle(situations[0]!, 'Information');
    const far = principle(situations[1]!, 'Question');
    const r2 = await memory.add([near, other, far]);
    expect(r2.duplicates.map((d) => [d.principle.id, d.of])).toEqual([[near.id, first.id]]);
    expect(r2.duplicates[0]!.distance).toBeGreaterThan(0);
    expect(r2.duplicates[0]!.distance).toBeLessThanOrEqual(memory.dedupDistance);
    expect(memory.principles.map((p) => p.id)).toEqual([first.id, other.id, far.id]);
    // dedupDistance 0 keeps the near one.
    const strict = new PrincipleMemory('s', 'esconv', embedder, { dedupDistance: 0 });
    expect((await strict.add([first, near])).added).toHaveLength(2);
  });

  it('rejects principles of another task and embeddings of the wrong length', async () => {
    const memory = new PrincipleMemory('m', 'esconv', embedder);
    await expect(memory.add([principle('x', 'stance', { task: 'cb' })])).rejects.toThrow(/is for cb/);
    const p = principle('x', 'Question');
    expect(() =>
      memory.addEmbedded([{ principle: p, when: new Float32Array(3), text: new Float32Array(64) }]),
    ).toThrow(expect.objectContaining({ name: 'InputError', code: 'MEMORY_INPUT_INVALID' }));
    expect(memory.size).toBe(0);
    expect(() => new PrincipleMemory(' ', 'esconv', embedder)).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'MEMORY_OPTION_INVALID' }),
    );
  });

  it('filters by origin without re-embedding', async () => {
    const memory = new PrincipleMemory('m', 'esconv', embedder);
    await memory.add([
      principle(situations[0]!, 'Question'),
      principle(situations[1]!, 'Others', { origin: 'revision' }),
    ]);
    const revision = memory.filter('revision', (p) => p.provenance.origin === 'revision');
    expect(revision.name).toBe('revision');
    expect(revision.principles.map((p) => p.strategy)).toEqual(['Others']);
    expect(revision.entries[0]!.when).toEqual(memory.entries[1]!.when);
    expect(revision.entries[0]!.text).toEqual(memory.entries[1]!.text);
  });

  it('round-trips through its file bit-exactly; another embedder is refused unless it re-embeds', async () => {
    const memory = new PrincipleMemory('m', 'esconv', embedder);
    await memory.add(situations.map((s) => principle(s, 'Question', { utterance: s })));
    const json = JSON.stringify(memory.toFile());
    const back = await PrincipleMemory.fromFile(json, embedder);
    expect(back.principles).toEqual(memory.principles);
    back.entries.forEach((e, i) => {
      expect(e.when).toEqual(memory.entries[i]!.when);
      expect(e.text).toEqual(memory.entries[i]!.text);
    });
    expect(await back.retrieve('the help-seeker sounds low')).toEqual(
      await memory.retrieve('the help-seeker sounds low'),
    );
    const other = new HashedNgramEmbedder({ dim: 32 });
    const refused = PrincipleMemory.fromFile(json, other, { source: 'm.json' });
    // The file is valid: the embedder asked for is not its own (a ConfigError on the option `embedder`).
    await expect(refused).rejects.toMatchObject({
      name: 'ConfigError',
      code: 'MEMORY_OPTION_INVALID',
      option: 'embedder',
      expected: embedder.id,
      got: other.id,
    });
    await expect(refused).rejects.toThrow(
      `m.json was built with embedder ${embedder.id} (dim ${embedder.dim}); this run embeds with ${other.id} ` +
        '(dim 32): load it with the embedder it was built with, or rebuild or re-embed it with this one',
    );
    await expect(refused).rejects.not.toThrow('not a valid principle memory');
    const reembedded = await PrincipleMemory.fromFile(json, other, { name: 'renamed', reembed: true });
    expect(reembedded.name).toBe('renamed');
    expect(reembedded.entries[0]!.when).toEqual((await other.embed([situations[0]!]))[0]);
    expect(reembedded.entries[0]!.text).toEqual(
      (await other.embed([formatPrinciple(memory.principles[0]!)]))[0],
    );
  });

  it('uses the accelerator from its minimum size and rebuilds it after a change', async () => {
    const built: number[] = [];
    const accelerator: IndexFactory = (rows, dim) => {
      built.push(rows.length / dim);
      return FlatL2Index.from(dim, [rows.slice(0, dim)]); // a deliberately different index, to see it used
    };
    const memory = new PrincipleMemory('m', 'esconv', embedder, { accelerator, acceleratorMinSize: 3 });
    await memory.add(situations.slice(0, 2).map((s) => principle(s, 'Question')));
    expect((await memory.retrieve(situations[1]!, 2)).map((h) => h.principle.when)).toEqual([
      situations[1],
      situations[0],
    ]);
    expect(built).toEqual([]);
    await memory.add([principle(situations[2]!, 'Question')]);
    expect((await memory.retrieve(situations[1]!, 2)).map((h) => h.principle.when)).toEqual([situations[0]]);
    await memory.retrieve(situations[1]!);
    await memory.add([principle(situations[3]!, 'Question')]);
    await memory.retrieve(situations[1]!);
    expect(built).toEqual([3, 4]);
  });

  it('holds its embeddings in two contiguous matrices, no per-principle arrays, and hands out views', async () => {
    const memory = new PrincipleMemory('m', 'esconv', embedder);
    await memory.add(situations.map((s) => principle(s, 'Question', { utterance: s })));
    const dim = embedder.dim;
    const pages = 65_536;
    // Two matrices of capacity ≥ size rows (64 reserved here), each with its search scratch, in whole pages.
    expect(memory.bytes).toBe(2 * memory.retrievalBytes);
    expect(memory.retrievalBytes).toBeLessThanOrEqual(
      Math.ceil((64 * (dim + 1) * 4 + dim * 4 + 32) / pages) * pages,
    );
    const [first] = memory.entries;
    expect(first!.when.buffer).toBe(memory.entries[1]!.when.buffer);
    expect(first!.when).toEqual((await embedder.embed([situations[0]!]))[0]);
  });

  it('stores halves with precision float16: half the bytes, exact over the stored values, repeats still dropped', async () => {
    const principles = situations.map((s, i) => principle(s, i % 2 ? 'Question' : 'Information'));
    // Room for 4,000 principles, so that the 64 KiB pages do not hide the halving.
    const full = new PrincipleMemory('f', 'esconv', embedder, {}, 4000);
    const half = new PrincipleMemory(
      'h',
      'esconv',
      embedder,
      { precision: 'float16', dedupDistance: 0 },
      4000,
    );
    await full.add(principles);
    const r = await half.add([...principles, principles[1]!]);
    expect(r.added).toHaveLength(4);
    expect(r.duplicates.map((d) => d.distance)).toEqual([0]);
    // Rows of 64 halves plus 4 bytes of distance scratch each, against 64 float32 plus 4, in whole pages.
    expect(half.bytes).toBeLessThan(full.bytes * 0.6);
    half.entries.forEach((e, i) => expect(e.when).toEqual(roundToHalves(full.entries[i]!.when)));
    // Retrieval: the scan of the stored halves, to the last bit.
    const [q] = await embedder.embed([situations[2]!]);
    const stored = FlatL2Index.from(
      embedder.dim,
      half.entries.map((e) => e.when),
    );
    expect((await half.retrieve(situations[2]!)).map((h) => [h.principle.id, h.distance])).toEqual(
      stored.searchSync(q!, 3).map((h) => [principles[h.index]!.id, h.distance]),
    );
    // Saved and loaded as halves, the file is stable.
    const json = JSON.stringify(half.toFile());
    const back = await PrincipleMemory.fromFile(json, embedder, { precision: 'float16' });
    expect(JSON.stringify(back.toFile())).toBe(json);
  });
});
