/**
 * experiments/emollm-studies.ts: every study runs at the smallest size and writes a JSON record with
 * intervals and the current simulator version, and a Markdown file whose tables hold the same figures; the
 * committed results/emollm-*.md name their JSON's simulator and hold its tables.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderStudiesJson, rowCells, type StudiesReport } from '../../../experiments/emollm-report';
import { SIMULATOR_VERSION } from '../../../src/sim/version';

/** The cells of the Markdown table row of `policy` in the section titled `title`. */
function markdownRow(md: string, title: string, policy: string): string[] | undefined {
  const start = md.indexOf(`### ${title}\n`);
  if (start < 0) return undefined;
  const end = md.indexOf('\n### ', start + 1);
  const section = md.slice(start, end < 0 ? undefined : end);
  const line = section.split('\n').find((l) => l.startsWith(`| ${policy} `));
  return line
    ?.split('|')
    .slice(1, -1)
    .map((c) => c.trim());
}

/** Every row of every table of `report` appears in `md` with the same cells. */
function expectSameTables(report: StudiesReport, md: string): void {
  for (const [title, rows] of Object.entries(report.results))
    for (const row of rows)
      expect(markdownRow(md, title, row.policy), `${title} / ${row.policy}`).toEqual(rowCells(row));
  for (const changes of Object.values(report.depthChoiceChanges))
    for (const c of changes) expect(md).toContain(`n = ${c.depth}: ${c.changed} of ${c.turns}`);
}

describe('emollm-studies script', () => {
  let dir: string;
  let report: StudiesReport;
  let md: string;
  let rawJson: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'emollm-studies-'));
    await promisify(execFile)(
      process.execPath,
      [
        '--import',
        'tsx',
        'experiments/emollm-studies.ts',
        '--tasks=emollm-ed',
        '--cstpo-tasks=esconv',
        '--studies=baselines,ablations,depth,overthinking,cstpo',
        '--steps=1',
        '--eval-seeds=2',
        '--repeats=1',
        `--json=${join(dir, 'r.json')}`,
        `--md=${join(dir, 'r.md')}`,
      ],
      { timeout: 110_000 },
    );
    rawJson = await readFile(join(dir, 'r.json'), 'utf8');
    report = JSON.parse(rawJson) as StudiesReport;
    md = await readFile(join(dir, 'r.md'), 'utf8');
  }, 120_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes one table per study, with intervals and the current simulator', async () => {
    expect(report.simulator).toBe(SIMULATOR_VERSION);
    expect(rawJson).toBe(await renderStudiesJson(report));
    expect(report.config).toMatchObject({ steps: 1, evalSeeds: 2, repeats: 1, tasks: ['emollm-ed'] });
    const titles = Object.keys(report.results);
    for (const study of [
      'GRPO vs prompting baselines',
      'ablations',
      'lookahead depth',
      'overthinking',
      'CSTPO',
    ])
      expect(
        titles.filter((t) => t.includes(study)),
        study,
      ).toHaveLength(1);
    for (const rows of Object.values(report.results)) {
      expect(rows.length).toBeGreaterThanOrEqual(2);
      // The first row is the table's reference: no difference against itself.
      expect(rows[0]!.vsReference).toBeNull();
      for (const [i, { summary, vsReference }] of rows.entries()) {
        expect(summary.episodes).toBe(2);
        expect(summary.meanReturn).toMatchObject({ level: 0.95, n: 2 });
        expect(summary.meanReturn.lo).not.toBeNull();
        expect(summary.meanReturn.lo!).toBeLessThanOrEqual(summary.meanReturn.hi!);
        expect(summary.successRate.method).toBe('wilson');
        if (i > 0) expect(vsReference).not.toBeNull();
        if (summary.emollm) expect(summary.emollm.emotionalState.method).toBe('cluster-bootstrap');
      }
    }
    const depth = titles.find((t) => t.includes('lookahead depth'))!;
    expect(report.depthChoiceChanges[depth]!.map((c) => c.depth)).toEqual([2, 3, 4]);
  });

  it('writes Markdown tables with the same figures and the same simulator', () => {
    expect(md).toContain(`Simulator \`${SIMULATOR_VERSION}\``);
    expectSameTables(report, md);
  });
});

describe('results/emollm-*', () => {
  it('each Markdown file names its JSON simulator only and holds its tables', async () => {
    const names = (await readdir('results')).filter((n) => /^emollm-.*\.json$/.test(n));
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      const raw = await readFile(join('results', name), 'utf8');
      const report = JSON.parse(raw) as StudiesReport;
      expect(raw, `${name} in Prettier's form`).toBe(await renderStudiesJson(report));
      const md = await readFile(join('results', name.replace(/\.json$/, '.md')), 'utf8');
      const versions = new Set(md.match(/cogsim-[0-9a-f]+/g));
      expect([...versions], name).toEqual([report.simulator]);
      expectSameTables(report, md);
    }
  });
});
