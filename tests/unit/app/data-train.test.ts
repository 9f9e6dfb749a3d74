/**
 * The pure parts of the app's Data and Train pages, in Node: the data store (fake-indexeddb) with its one
 * transaction per set and a quota failure that loses nothing; the loader's kind detection and loads of small real
 * files (first records of ../shared/data); the run file's exact float32 round trip and its errors; the run's seed
 * split (the train job's) and the seed source a run id records.
 */
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadEsconv } from '../../../src/data';
import { DEFAULT_SPLIT_SEED, splitByKey } from '../../../src/seeding';
import { defaultSeeds, EMOLLM_SEED_SPECS } from '../../../src/tasks/defaults';
import { emollmSeedsToJsonl, parseEmollmSeeds } from '../../../src/tasks/emollm-loader';
import type { StoredRun } from '../../../src/rl/store';
import type { AnyStoredRun } from '../../../workers/trainer.worker';
import { groupFiles } from '../../../demo/app/data/kinds';
import { detectKind, loadFiles } from '../../../demo/app/data/load';
import { keepTrajectories, seedsFor } from '../../../demo/app/data/seedsets';
import { DataStore, toJsonl } from '../../../demo/app/data/store';
import { RunFileError } from '../../../demo/app/train/errors';
import { runFromFile, runToFile } from '../../../demo/app/train/runfile';
import { newRunId, runSeeds, runSource } from '../../../demo/app/train/seeds';

const DATA = resolve(import.meta.dirname, '../../../../shared/data');
const head = (file: string, n: number) =>
  readFileSync(resolve(DATA, file), 'utf8').split('\n').slice(0, n).join('\n') + '\n';
let n = 0;
afterEach(() => vi.restoreAllMocks());

describe('DataStore', () => {
  it('keeps a set whole, lists it with its JSONL size, exports and deletes it; the same seeds get the same id', async () => {
    const store = await DataStore.open(`data-test-${++n}`);
    const seeds = defaultSeeds('cb').slice(0, 3);
    const set = await store.save('seeds', 'three.jsonl', 'cb', seeds);
    expect(set.id).toMatch(/^s-[0-9a-f]{12}$/);
    expect(set.bytes).toBe(Buffer.byteLength(toJsonl(seeds)));
    expect((await store.save('seeds', 'again.jsonl', 'cb', seeds)).id).toBe(set.id);
    expect(await store.list()).toHaveLength(1);
    expect(await store.exportJsonl(set.id)).toBe(toJsonl(seeds));
    expect((await store.load(set.id))?.items).toEqual(seeds);
    await store.delete(set.id);
    expect(await store.list()).toEqual([]);
    expect(await store.load(set.id)).toBeNull();
    store.close();
  });

  it('a quota failure in the middle of a set writes none of it and leaves the earlier set as it was', async () => {
    const store = await DataStore.open(`data-test-${++n}`);
    const kept = await store.save('seeds', 'kept', 'cb', defaultSeeds('cb').slice(0, 2));
    const put = IDBObjectStore.prototype.put;
    let calls = 0;
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, ...a) {
      if (++calls === 2) throw new DOMException('full', 'QuotaExceededError');
      return put.apply(this, a as Parameters<typeof put>);
    });
    const error = await store.save('seeds', 'new', 'p4g', defaultSeeds('p4g').slice(0, 3)).catch((e) => e);
    expect(error).toMatchObject({ name: 'DiskFullError', code: 'STORAGE_QUOTA' });
    expect((error as Error).message).toMatch(/out of space.*earlier data is intact/);
    vi.restoreAllMocks();
    expect(await store.list()).toEqual([kept]);
    expect((await store.load(kept.id))?.items).toHaveLength(2);
    store.close();
  });

  it('pages read seed sets by id (bundled by default) and keep trajectories as a set', async () => {
    expect(await seedsFor('p4g', 'bundled')).toEqual(defaultSeeds('p4g'));
    await expect(seedsFor('p4g', 's-000000000000')).rejects.toThrow(/not stored in this browser/);
    const t = await keepTrajectories('watch cb ×2', 'cb', [{ return: 1 }, { return: 0 }]);
    expect(t.kind).toBe('trajectories');
    await expect(seedsFor('cb', t.id)).rejects.toThrow(/not stored in this browser/);
  });
});

describe('loadFiles', () => {
  it('tells the kinds apart and loads ESConv as the library loader does; names a bad file and line', () => {
    const esconv = head('esconv/esconv-valid.jsonl', 2);
    const cb = head('cb/craigslistbargain-valid.jsonl', 2);
    const seed = toJsonl(defaultSeeds('cb').slice(0, 1));
    expect(detectKind({ name: 'a', text: esconv })).toBe('esconv');
    expect(detectKind({ name: 'b', text: cb })).toBe('cb');
    expect(detectKind({ name: 'c', text: seed })).toBe('seeds');
    expect(detectKind({ name: 'd', text: head('p4g/p4g-dialogs.csv', 3) })).toBe('p4g');
    expect(() => detectKind({ name: 'e.txt', text: 'hello\n' })).toThrow('e.txt:1:');
    const out = loadFiles({ files: [{ name: 'es.jsonl', text: esconv }], kind: 'auto', skipInvalid: false });
    expect(out.task).toBe('esconv');
    expect(out.seeds).toEqual(loadEsconv(esconv, 'es.jsonl').seeds);
    const bad = `${esconv.split('\n')[0]}\n{"dialog": [\n`;
    expect(() =>
      loadFiles({ files: [{ name: 'bad.jsonl', text: bad }], kind: 'auto', skipInvalid: false }),
    ).toThrow(expect.objectContaining({ name: 'DataFormatError', code: 'DATASET_INVALID' }));
    expect(() =>
      loadFiles({ files: [{ name: 'bad.jsonl', text: bad }], kind: 'auto', skipInvalid: false }),
    ).toThrow(/^bad\.jsonl:2:/);
    const skipped = loadFiles({ files: [{ name: 'bad.jsonl', text: bad }], kind: 'auto', skipInvalid: true });
    expect(skipped.seeds).toHaveLength(1);
    expect(skipped.skipped.map((s) => s.line)).toEqual([2]);
    expect(() =>
      loadFiles({ files: [{ name: 'x.jsonl', text: esconv }], kind: 'cb', skipInvalid: false }),
    ).toThrow(/^x\.jsonl:1:/);
  });

  it('loads the PersuasionForGood CSVs together (told apart by their headers)', () => {
    const files = [
      { name: 'p.csv', text: head('p4g/p4g-participants.csv', 5) },
      { name: 'd.csv', text: head('p4g/p4g-dialogs.csv', 60) },
    ];
    const out = loadFiles({ files, kind: 'auto', skipInvalid: true });
    expect(out.task).toBe('p4g');
    expect(out.seeds.length).toBeGreaterThanOrEqual(1);
    expect(() => loadFiles({ files: files.slice(0, 1), kind: 'auto', skipInvalid: false })).toThrow(
      /^p\.csv: PersuasionForGood needs its dialogues file/,
    );
  });

  it('loads EmoLLM scenario descriptions with the EmoLLM loader', () => {
    const text = emollmSeedsToJsonl(EMOLLM_SEED_SPECS.ed.slice(0, 2));
    expect(detectKind({ name: 'ed.jsonl', text })).toBe('emollm');
    const out = loadFiles({ files: [{ name: 'ed.jsonl', text }], kind: 'auto', skipInvalid: false });
    expect(out.seeds).toEqual(parseEmollmSeeds(text, 'ed.jsonl').seeds);
    expect(out.task).toBe(out.seeds[0]!.task);
    expect(() =>
      loadFiles({
        files: [{ name: 'ed.jsonl', text: `${text}{"id": 1}\n` }],
        kind: 'emollm',
        skipInvalid: false,
      }),
    ).toThrow(/^ed\.jsonl:3:/);
  });

  it('groups JSONL files one by one and the P4G CSVs together', () => {
    const f = (name: string) => ({ name });
    expect(groupFiles([f('a.jsonl'), f('d.csv'), f('b.jsonl'), f('p.CSV')])).toEqual([
      [f('a.jsonl')],
      [f('b.jsonl')],
      [f('d.csv'), f('p.CSV')],
    ]);
  });
});

describe('run file', () => {
  const stored = {
    run: { id: 'r', config: { task: 'cb' }, step: 1, status: 'stopped' },
    init: { actor: { w: { shape: [3], data: new Float32Array([0.1, -0, 1e-30]) } } },
    latest: { rng: [1, 2, 4294967295], actor: { w: { shape: [1], data: new Float32Array([Math.PI]) } } },
    history: [{ step: 1, meanReturn: 0.25 }],
  } as unknown as StoredRun;

  it('round-trips float32 weights bit for bit, for either algorithm', () => {
    const back = runFromFile('r.json', runToFile({ algo: 'cstpo', run: stored }));
    expect(back).toEqual({ algo: 'cstpo', run: stored });
    const w = (back.run.init as unknown as { actor: { w: { data: Float32Array } } }).actor.w.data;
    expect(w).toBeInstanceOf(Float32Array);
    expect(Object.is(w[1], -0)).toBe(true);
    const grpo = { algo: 'grpo-emollm', run: stored } as unknown as AnyStoredRun;
    expect(runFromFile('g.json', runToFile(grpo))).toEqual(grpo);
  });

  it('reads a CSTPO run file written before GRPO runs were exported (the same format, algo "cstpo")', () => {
    const old =
      '{"format":"pdl-run","version":1,"algo":"cstpo","run":{"run":{"id":"old","config":{"task":"cb"},"step":1,' +
      '"status":"finished"},"init":{"actor":{"w":{"shape":[1],"data":{"$f32":"AACAPw=="}}}},' +
      '"latest":{"actor":{"w":{"shape":[1],"data":{"$f32":"AAAAQA=="}}}},"history":[{"step":1}]}}';
    const back = runFromFile('old.run.json', old);
    expect(back.algo).toBe('cstpo');
    expect(back.run.run.id).toBe('old');
    const data = (s: unknown) => (s as { actor: { w: { data: Float32Array } } }).actor.w.data;
    expect(data(back.run.init)).toEqual(new Float32Array([1]));
    expect(data(back.run.latest)).toEqual(new Float32Array([2]));
  });

  it('names the file and what is wrong', () => {
    expect(() => runFromFile('x.json', '{')).toThrow(RunFileError);
    expect(() => runFromFile('x.json', '{')).toThrow(/^x\.json: not a run file \(not valid JSON/);
    expect(() => runFromFile('y.json', '{"format":"other"}')).toThrow(
      'y.json: not a run file exported by this app',
    );
    expect(() => runFromFile('z.json', '{"format":"pdl-run","version":9}')).toThrow(/version 9/);
    expect(() => runFromFile('a.json', '{"format":"pdl-run","version":1,"algo":"ppo","run":{}}')).toThrow(
      'a.json: a run of ppo; CSTPO and GRPO-EmoLLM runs are imported',
    );
    const partial = runToFile({ algo: 'cstpo', run: stored }).replace(/"\$f32":"[^"]*"/, '"$f32":"AAA="');
    expect(() => runFromFile('p.json', partial)).toThrow('p.json: a float32 payload has a partial value');
  });
});

describe('run seeds', () => {
  it('splits as the train job does (a quarter held out, split seed 0) and a run id records its seed source', async () => {
    const all = defaultSeeds('esconv');
    const { train, heldOut } = await runSeeds('esconv', 'bundled');
    const parts = splitByKey(all, (s) => s.id, Math.round(all.length * 0.25), DEFAULT_SPLIT_SEED);
    expect(heldOut).toEqual(parts.heldOut);
    expect(train).toEqual(parts.rest);
    const id = newRunId('cb', 's-0123456789ab');
    expect(runSource(id, 'esconv')).toEqual({ task: 'cb', source: 's-0123456789ab' });
    expect(runSource('old-run-id', 'p4g')).toEqual({ task: 'p4g', source: 'bundled' });
  });
});
