import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSeedJsonl, loadSeedsFromFiles, parseSeedJsonl, seedsToJsonl } from '../../../src/data';
import { loadSeedsFromPath } from '../../../src/data/node';
import { defaultSeeds } from '../../../src/tasks/defaults';
import { DATA_DIR, FIXTURES_DIR, readFixture, thrown } from './paths';
import { DataFormatError } from '../../../src/errors';

describe('seed files', () => {
  const seeds = defaultSeeds('cb');
  const text = seedsToJsonl(seeds);

  it('round-trip through JSONL', () => {
    expect(isSeedJsonl(text)).toBe(true);
    expect(isSeedJsonl(readFixture('cb-quirks.jsonl'))).toBe(false);
    expect(parseSeedJsonl(text, 'seeds.jsonl', { task: 'cb' })).toEqual({ seeds, skipped: [], warnings: [] });
  });

  it('an invalid seed, a repeated id and a seed of another task are reported at their lines', () => {
    const lines = text.trimEnd().split('\n');
    const broken = JSON.parse(lines[2] ?? '') as { profile: { tau_A: number } };
    broken.profile.tau_A = 0.9;
    lines[2] = JSON.stringify(broken);
    lines[4] = lines[0] ?? '';
    const bad = lines.join('\n');
    const e = thrown(() => parseSeedJsonl(bad, 'seeds.jsonl'));
    expect(e).toMatchObject({ name: 'DataFormatError', code: 'DATASET_INVALID' });
    expect((e as DataFormatError).message).toBe('seeds.jsonl:3: profile: tau_A must be below tau_R');
    const result = parseSeedJsonl(bad, 'seeds.jsonl', { skipInvalid: true });
    expect(result.skipped.map((s) => [s.line, s.reason])).toEqual([
      [3, 'profile: tau_A must be below tau_R'],
      [5, `duplicate seed id "${seeds[0]?.id}" (first on line 1)`],
    ]);
    expect(result.seeds).toHaveLength(seeds.length - 2);
    expect(
      (thrown(() => parseSeedJsonl(text, 'seeds.jsonl', { task: 'p4g' })) as DataFormatError).message,
    ).toBe(`seeds.jsonl:1: seed "${seeds[0]?.id}" is for task "cb", not "p4g"`);
  });

  it('loadSeedsFromFiles tells seed files from dataset files and P4G CSVs by their headers', () => {
    const p4g = ['p4g-annotated.csv', 'p4g-participants.csv', 'p4g-dialogs.csv'].map((n) => ({
      name: `upload-${n}`,
      text: readFixture(`p4g/${n}`),
    }));
    const result = loadSeedsFromFiles('p4g', [
      ...p4g,
      { name: 'mine.jsonl', text: seedsToJsonl(defaultSeeds('p4g')) },
    ]);
    expect(result.seeds.filter((s) => s.source === 'authored')).toHaveLength(defaultSeeds('p4g').length);
    expect(result.seeds.filter((s) => s.source === 'upload-p4g-dialogs.csv')).toHaveLength(3);
    expect(
      result.seeds.find((s) => s.id === 'upload-p4g-dialogs:fx-001')?.reference?.strategies,
    ).toHaveLength(3);
    const noDialogs = thrown(() => loadSeedsFromFiles('p4g', p4g.slice(0, 2)));
    expect((noDialogs as DataFormatError).message).toMatch(/needs its dialogues file/);
  });
});

describe('loadSeedsFromPath (node)', () => {
  it('reads dataset files and P4G companions next to p4g-dialogs.csv or in the p4g folder', async () => {
    const esconv = await loadSeedsFromPath(`${DATA_DIR}/esconv/esconv-valid.jsonl`, 'esconv');
    expect(esconv.seeds).toHaveLength(130);
    const cb = await loadSeedsFromPath(`${DATA_DIR}/cb/craigslistbargain-valid.jsonl`, 'cb');
    expect([cb.seeds.length, cb.warnings.length]).toEqual([188, 7]);
    const fromCsv = await loadSeedsFromPath(`${FIXTURES_DIR}/p4g/p4g-dialogs.csv`, 'p4g');
    const fromFolder = await loadSeedsFromPath(`${FIXTURES_DIR}/p4g`, 'p4g');
    expect(fromCsv.seeds).toEqual(fromFolder.seeds);
    expect(fromCsv.seeds.map((s) => s.id)).toEqual([
      'p4g-dialogs:fx-001',
      'p4g-dialogs:fx-002',
      'p4g-dialogs:fx-003',
      'p4g-annotated:fx-009',
    ]);
  });

  it('reads a seed file written to disk, and names the path in errors', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pdl-seeds-'));
    const good = join(dir, 'seeds.jsonl');
    writeFileSync(good, seedsToJsonl(defaultSeeds('esconv')));
    expect((await loadSeedsFromPath(good, 'esconv')).seeds).toEqual(defaultSeeds('esconv'));
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, `${seedsToJsonl(defaultSeeds('esconv').slice(0, 2))}{"schemaVersion": 1, "id": "x"\n`);
    await expect(loadSeedsFromPath(bad, 'esconv')).rejects.toThrow(`${bad}:3: invalid JSON`);
  });
});
