/**
 * Dataset loading benchmarks: wall and CPU time to load each file of `../shared/data` into
 * seeds (the P4G folder: its four CSV files; aim ≤ 250 ms), against the bare parse of the same file (JSON.parse
 * per line, or csv-parse's Node build with no checks) measured interleaved in the same run.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { loadCb, loadEsconv, loadSeedsFromFiles } from '../../src/entries/simulator';
import { compare, cpuEntry, ratioEntry, timingEntry } from '../timing';
import type { Benchmark, BenchEntry } from '../types';

const DATA = join(import.meta.dirname, '..', '..', '..', 'shared', 'data');

const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as unknown);

export const dataBenchmark: Benchmark = {
  name: 'data/load',
  async run(ctx) {
    const entries: BenchEntry[] = [];
    const esconv = await readFile(join(DATA, 'esconv', 'esconv-valid.jsonl'), 'utf8');
    const cb = await readFile(join(DATA, 'cb', 'craigslistbargain-valid.jsonl'), 'utf8');
    const p4gNames = [
      'p4g-dialogs.csv',
      'p4g-participants.csv',
      'p4g-annotated.csv',
      'p4g-annotated-donations.csv',
    ];
    const p4g = await Promise.all(
      p4gNames.map(async (name) => ({ name, text: await readFile(join(DATA, 'p4g', name), 'utf8') })),
    );
    const cases = [
      {
        label: 'esconv/esconv-valid.jsonl',
        load: () => loadEsconv(esconv, 'esconv-valid.jsonl'),
        bare: () => jsonLines(esconv),
      },
      {
        label: 'cb/craigslistbargain-valid.jsonl',
        load: () => loadCb(cb, 'craigslistbargain-valid.jsonl'),
        bare: () => jsonLines(cb),
      },
      {
        label: 'p4g/ (4 CSV files)',
        load: () => loadSeedsFromFiles('p4g', p4g),
        bare: () => p4g.map((f) => parse(f.text, { columns: true }) as unknown),
      },
    ];
    for (const c of cases) {
      const comparison = await compare(
        () => void c.load(),
        () => void c.bare(),
        ctx.timing,
      );
      ctx.log(`${c.label}: ${comparison.target.median.toFixed(1)} ms`);
      entries.push(
        timingEntry(`data/load ${c.label}`, comparison.target),
        cpuEntry(`data/load CPU ${c.label}`, comparison.target),
        ratioEntry(`data/load ${c.label} vs bare parse`, comparison, 'JSON.parse per line / csv-parse only'),
      );
    }
    return entries;
  },
};
