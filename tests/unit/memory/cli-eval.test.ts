/**
 * `principles eval` runs through the one evaluation path: the same policies, seeds and rng seed give the same
 * figures and paired differences as `npm run evaluate`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main as evaluateMain } from '../../../cli/evaluate';
import { main as principlesMain, type EvalReport } from '../../../cli/principles';
import { HashedNgramEmbedder } from '../../../src/embed';
import type { EvalReport as EvaluateReport } from '../../../src/eval/report';
import { PrincipleMemory } from '../../../src/memory';

const dir = mkdtempSync(join(tmpdir(), 'pdl-principles-eval-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Main = (
  argv: string[],
  io: { stdout: (s: string) => void; stderr: (s: string) => void; isTTY: boolean },
) => Promise<number>;

async function run(main: Main, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, {
    stdout: (s) => void (out += s),
    stderr: (s) => void (err += s),
    isTTY: false,
  });
  return { code, out, err };
}

describe('principles eval and npm run evaluate', () => {
  it('give the same figures for the same policies, seeds and rng seed', async () => {
    const file = join(dir, 'esconv.json');
    const built = await run(principlesMain, 'build', '--task', 'esconv', '--episodes', '3', '--out', file);
    expect(built.code, built.err).toBe(0);
    const common = [
      '--task',
      'esconv',
      '--episodes',
      '4',
      '--protocol',
      'ppdpp',
      '--rng-seed',
      '5',
      '--json',
    ];
    const p = await run(principlesMain, 'eval', '--memory', file, '--origins', 'all,success', ...common);
    expect(p.code, p.err).toBe(0);
    const principles = JSON.parse(p.out) as EvalReport;

    // The success-only variant as a file of its own, named as principles eval names it.
    const text = readFileSync(file, 'utf8');
    const memory = await PrincipleMemory.fromFile(text, new HashedNgramEmbedder());
    const success = memory.filter('success', (x) => x.provenance.origin === 'success');
    writeFileSync(`${file}#success`, JSON.stringify(success.toFile()));
    const policies = ['standard', 'random', `principles:${file}`, `principles:${file}#success`];
    const e = await run(
      evaluateMain,
      '--policy',
      policies.join(','),
      '--out',
      join(dir, 'report'),
      ...common,
    );
    expect(e.code, e.err).toBe(0);
    const evaluate = JSON.parse(e.out) as EvaluateReport;

    expect(principles.evaluation.config.policies).toEqual(policies);
    expect(principles.evaluation.results).toEqual(evaluate.results);
    expect(principles.evaluation.paired).toEqual(evaluate.paired);
    expect(principles.evaluation.config.seedSets).toEqual(evaluate.config.seedSets);
    // The table's rows are the report's figures.
    expect(principles.rows.map((r) => r.summary)).toEqual(evaluate.results);
    expect(principles.rows[3]!.vsStandard!.return).toEqual(
      evaluate.paired.find((x) => x.policy === policies[3] && x.metric === 'return'),
    );
    // Not trivially equal: the planners differ from Standard on these episodes.
    expect(new Set(evaluate.results.map((r) => r.meanReturn.mean)).size).toBeGreaterThan(1);

    // Another rng seed plays other episodes.
    const other = await run(
      principlesMain,
      'eval',
      '--memory',
      file,
      '--origins',
      'all',
      ...common.map((a, i) => (common[i - 1] === '--rng-seed' ? '6' : a)),
    );
    expect(other.code, other.err).toBe(0);
    const otherReport = JSON.parse(other.out) as EvalReport;
    expect(otherReport.rows.map((r) => r.summary.meanReturn.mean)).not.toEqual(
      principles.rows.slice(0, 3).map((r) => r.summary.meanReturn.mean),
    );
  });
});
