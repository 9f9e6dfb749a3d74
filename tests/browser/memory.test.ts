import { afterEach, describe, expect, it } from 'vitest';
import { RandomPolicy, TemplateRealizer } from '../../src/agents';
import { HashedNgramEmbedder } from '../../src/embed';
import { DialogueEnv } from '../../src/env';
import {
  constructPrinciples,
  PrincipleMemory,
  TemplateReviser,
  TemplateWriter,
  type MemoryMeta,
} from '../../src/memory';
import { defaultSeeds } from '../../src/tasks/defaults';
import type { QueryHit } from '../../workers/memory.worker';
import { principle } from '../unit/memory/helpers';
import { openPage, type OpenedPage } from './harness';

let p: OpenedPage | undefined;
afterEach(async () => {
  await p?.close();
  p = undefined;
});

const QUERIES = [
  'the persuadee sounds calm and is unsure, doubts the cause, early in the conversation',
  'the persuadee sounds hopeful and agrees, is considering a step, late in the conversation',
];

async function reload(page: OpenedPage): Promise<void> {
  await page.page.reload();
  await page.page.waitForFunction(() => window.__ready === true, undefined, { timeout: 30_000 });
}

async function snapshot(page: OpenedPage): Promise<{ metas: MemoryMeta[]; files: string[] }> {
  const metas = await page.run<MemoryMeta[]>({ op: 'list' });
  const files = await Promise.all(metas.map((m) => page.run<string>({ op: 'export', name: m.name })));
  return { metas, files };
}

describe('principle memories in a Web Worker and IndexedDB (headless Chromium)', () => {
  it('a memory built in the worker survives a page reload and answers the same query identically', async () => {
    p = await openPage('memory');
    const job = { task: 'p4g' as const, name: 'p4g', episodes: 12, baseSeed: 5 };
    const built = await p.run<{ meta: MemoryMeta & { written: number }; progress: number }>({
      op: 'build',
      job,
    });
    expect(built.progress).toBe(12);
    expect(built.meta.count).toBeGreaterThan(5);
    const before = await Promise.all(
      QUERIES.map((text) => p!.run<QueryHit[]>({ op: 'query', name: 'p4g', text })),
    );
    expect(before.every((hits) => hits.length === 3)).toBe(true);

    await reload(p);
    expect((await p.run<MemoryMeta[]>({ op: 'list' })).map((m) => [m.name, m.count])).toEqual([
      ['p4g', built.meta.count],
    ]);
    for (const [i, text] of QUERIES.entries()) {
      expect(await p.run({ op: 'query', name: 'p4g', text })).toEqual(before[i]); // a fresh worker
      expect(await p.run({ op: 'queryMain', name: 'p4g', text })).toEqual(before[i]); // the page itself
    }

    // The same job in Node builds the same memory: same principles, same answers.
    const result = await constructPrinciples(
      {
        env: new DialogueEnv('p4g', { protocol: 'ppdpp' }),
        actor: new RandomPolicy('p4g'),
        realizer: new TemplateRealizer(),
        reviser: new TemplateReviser(),
        writer: new TemplateWriter(),
      },
      { seeds: defaultSeeds('p4g'), episodes: 12, baseSeed: 5 },
    );
    const node = new PrincipleMemory('p4g', 'p4g', new HashedNgramEmbedder());
    await node.add(result.principles);
    expect(JSON.parse(await p.run<string>({ op: 'export', name: 'p4g' }))).toEqual(
      JSON.parse(JSON.stringify(node.toFile())),
    );
    const nodeHits = (await node.retrieve(QUERIES[0]!)).map((h) => ({
      rank: h.rank,
      distance: h.distance,
      id: h.principle.id,
    }));
    expect(before[0]!.map(({ rank, distance, id }) => ({ rank, distance, id }))).toEqual(nodeHits);
  });

  it('an import of a malformed file is rejected with the reason and leaves the stored memories unchanged', async () => {
    p = await openPage('memory');
    await p.run({ op: 'build', job: { task: 'cb', name: 'cb', episodes: 6 } });
    const good = await p.run<string>({ op: 'export', name: 'cb' });
    await p.run({ op: 'import', text: good, name: 'cb-copy' });
    const before = await snapshot(p);
    expect(before.metas.map((m) => m.name)).toEqual(['cb', 'cb-copy']);

    const broken = JSON.parse(good) as { principles: { principle: { when: string } }[] };
    broken.principles.at(-1)!.principle.when = '';
    for (const [text, reason] of [
      [JSON.stringify(broken), /principles\[\d+\]\.principle\.when/],
      [good.slice(0, good.length / 2), /line 1 is damaged: the JSON ends early/],
      [JSON.stringify({ ...JSON.parse(good), task: 'esconv' }), /principle of task cb in a esconv memory/],
    ] as const) {
      for (const replace of [false, true]) {
        await expect(p.run({ op: 'import', text, name: 'cb', replace })).rejects.toMatchObject({
          name: 'DataFormatError',
          details: expect.objectContaining({ code: 'MEMORY_FILE_INVALID' }),
          message: expect.stringMatching(reason),
        });
      }
    }
    await expect(p.run({ op: 'import', text: good, name: 'cb' })).rejects.toMatchObject({
      name: 'OutputConflictError',
      details: expect.objectContaining({ code: 'MEMORY_EXISTS' }),
    });
    expect(await snapshot(p)).toEqual(before);
    await reload(p);
    expect(await snapshot(p)).toEqual(before);
  });

  it('memories and runs stored by the previous version (IndexedDB v1) are read in place, then migrated once with a notice', async () => {
    p = await openPage('memory');
    const principles = [
      principle('the persuadee sounds calm and is unsure, doubts the cause', 'Credibility appeal', {
        task: 'p4g',
      }),
      principle('the persuadee sounds hopeful and agrees', 'Emotion appeal', { task: 'p4g', turn: 2 }),
      principle('the persuadee asks how the money is used', 'Logical appeal', { task: 'p4g', turn: 4 }),
    ];
    const before = await p.run<QueryHit[]>({ op: 'writeV1', principles });
    // The Principles page reads version 1 in place (its own reader on the page thread).
    const header = {
      name: 'old memory',
      task: 'p4g',
      embedderId: new HashedNgramEmbedder().id,
      dim: new HashedNgramEmbedder().dim,
      count: 3,
      nextSeq: 3,
      schemaVersion: 1,
    };
    expect(await p.run({ op: 'listPage' })).toEqual([header]);
    // The worker's first open migrates it and says so.
    expect(await p.run<MemoryMeta[]>({ op: 'list' })).toEqual([header]);
    // (Chromium also forwards a worker's console to the page's: the same line may be logged twice.)
    const notices = p.logs.filter((l) => l.includes('notice:')).map((l) => l.replace(/^\[[^\]]*\] /, ''));
    expect([...new Set(notices)]).toEqual([
      'notice: IndexedDB "proactive-dialogue-lab-principles": 1 principle memory moved to ' +
        'memory-file texts (database version 2); nothing was lost',
    ]);
    expect(p.logs.some((l) => l.startsWith('[worker info] notice:'))).toBe(true);
    expect(await p.run({ op: 'listPage' })).toEqual([header]);
    const text = principles[0]!.when;
    expect(await p.run({ op: 'query', name: 'old memory', text })).toEqual(before);
    expect(await p.run({ op: 'queryMain', name: 'old memory', text })).toEqual(before);
    await reload(p);
    expect(await p.run({ op: 'query', name: 'old memory', text })).toEqual(before);

    expect(await p.run({ op: 'runsV1' })).toEqual({
      listed: [['cstpo', 'old-run', 1, 'paused']],
      latest: Array.from(Float32Array.of(0.1, -2.5e-8, 3.4028234663852886e38, 1)),
      float32: true,
      exact: true,
      history: [{ step: 1, loss: 0.5 }],
    });
  });
});
