/**
 * `npm run sim-card --report FILE` checks the file before any work: a file that is not a validate-sim validity
 * report (an evaluate report, a JSONL file, an empty file) is one line naming --report and the file (with the line
 * and column of a JSON error) and the validity.json it expected, exit 1, and no card is written.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, readValidityReport, reportProblem } from '../../../scripts/simulator-card';
import { cli } from './run-main';

const EXPECTED = 'expected the validity.json that `npm run validate-sim -- --out DIR` writes';
let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pdl-sim-card-report-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** sim-card on a report file holding `text`: its result, and whether a card was written. */
async function cardOf(name: string, text: string) {
  const report = join(dir, name);
  await writeFile(report, text);
  const out = join(dir, `${name}.card.md`);
  const r = await cli(main, ['--report', report, '--out', out, '--data', join(dir, 'no-data')]);
  return { ...r, report, written: existsSync(out) };
}

describe('sim-card --report', () => {
  it('an evaluate report is refused in one line naming the file and what it lacks, exit 1', async () => {
    const evaluate = { library: '0.1.0', generatedAt: '2025-01-01T00:00:00Z', config: { tasks: ['cb'] } };
    const r = await cardOf('report.json', JSON.stringify(evaluate));
    expect(r.code).toBe(1);
    expect(r.written).toBe(false);
    expect(r.out).toBe('');
    expect(r.err).toBe(
      `error: --report ${r.report}: not a validate-sim validity report: it has no simulatorVersion, split, ` +
        `datasets, rows, dose (its fields: library, generatedAt, config); ${EXPECTED}\n`,
    );
  });

  it('a JSONL file names its file, line and column; an empty file says it is empty', async () => {
    const jsonl = await cardOf('some.jsonl', '{"a":1}\n{"a":2}\n');
    expect(jsonl.code).toBe(1);
    expect(jsonl.written).toBe(false);
    expect(jsonl.err).toBe(
      `error: --report ${jsonl.report} line 2: not valid JSON: unexpected "{" at column 1; ${EXPECTED}\n`,
    );
    const empty = await cardOf('empty.json', '');
    expect(empty.code).toBe(1);
    expect(empty.err).toMatch(new RegExp(`^error: --report ${empty.report}: the file is empty`));
    expect(empty.err).toContain(EXPECTED);
    expect(empty.err.trim().split('\n')).toHaveLength(1);
    expect(empty.err).not.toMatch(/Unexpected end of JSON input|position \d/);
  });

  it('a report with a field of the wrong kind names the field', async () => {
    const r = await cardOf(
      'wrong.json',
      JSON.stringify({ simulatorVersion: 'x', split: 's', datasets: [], rows: [{ task: 'cb' }], dose: [] }),
    );
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      `--report ${r.report}: not a validate-sim validity report: rows.0.split: expected string`,
    );
  });

  it('accepts the validate-sim report the project keeps in its before record', async () => {
    const before = JSON.parse(readFileSync('results/simulator-card.before.json', 'utf8')) as {
      report: Record<string, unknown>;
    };
    expect(reportProblem(before.report)).toBeNull();
    const path = join(dir, 'validity.json');
    await writeFile(path, JSON.stringify(before.report));
    await expect(readValidityReport(path, path)).resolves.toMatchObject({ rows: before.report.rows });
  });
});
