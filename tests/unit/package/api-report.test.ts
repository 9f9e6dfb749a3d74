/**
 * The checked-in API report (api/proactive-dialogue-lab.api.md) matches what the package entries export now: a
 * change to the public API fails here until `npm run api-report` rewrites the report and the diff is reviewed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectApi, entrySources, renderReport, reportDiff, REPORT_FILE } from '../../../scripts/api-report';
import { REPO_ROOT } from './readme';

/** The failure message: what changed, and what to do about it. */
function mismatch(expected: string, actual: string): string | undefined {
  const diff = reportDiff(expected, actual);
  if (diff.length === 0) return undefined;
  return `the public API changed: run npm run api-report and review the diff\n${diff.join('\n')}`;
}

describe('API report', () => {
  const entries = collectApi();

  it('the checked-in report matches the entries’ exports', () => {
    const checkedIn = readFileSync(join(REPO_ROOT, REPORT_FILE), 'utf8');
    const problem = mismatch(checkedIn, renderReport(entries));
    if (problem !== undefined) expect.fail(problem);
  });

  it('covers every entry of package.json "exports", the workers pattern expanded', () => {
    const specifiers = entrySources().map(([s]) => s);
    expect(specifiers.slice(0, 3)).toEqual([
      'proactive-dialogue-lab',
      'proactive-dialogue-lab/node',
      'proactive-dialogue-lab/worker',
    ]);
    expect(specifiers).toContain('proactive-dialogue-lab/workers/episode.worker');
    expect(entries.map((e) => e.specifier)).toEqual(specifiers);
  });

  it('the main entry is small: 60 to 80 names (the rest are in the subject entries)', () => {
    const main = entries[0];
    expect(main?.specifier).toBe('proactive-dialogue-lab');
    expect(main?.names.length).toBeGreaterThanOrEqual(60);
    expect(main?.names.length).toBeLessThanOrEqual(80);
  });

  it('names each export with its kind', () => {
    const main = new Map(entries[0]?.names.map((n) => [n.name, n.kind]));
    expect(main.get('CogSim')).toBe('class');
    expect(main.get('createEnv')).toBe('function');
    expect(main.get('SeedSchema')).toBe('const');
    expect(main.get('TaskId')).toBe('type');
    expect(main.get('LabError')).toBe('class');
  });

  it('fails, naming the lines, when an export is added or removed (it can fail)', () => {
    const report = renderReport(entries);
    const changed = report.replaceAll('- class `CogSim`\n', '- class `CogSimulator`\n');
    const problem = mismatch(report, changed);
    expect(problem).toMatch(/^the public API changed: run npm run api-report and review the diff/);
    expect(problem).toContain('- - class `CogSim`');
    expect(problem).toContain('+ - class `CogSimulator`');
    expect(mismatch(report, report)).toBeUndefined();
  });
});
