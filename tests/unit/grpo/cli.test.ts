/**
 * `npm run train -- --algo grpo-emollm` with `--rewards template|llm` and `--seeds`: the LLM judge comes from the
 * same `--backend` options as every command (here replayed from tests/fixtures/llm/grpo-cli*.replay.json, written
 * by grpo-cli.author.ts); the run's stored configuration records the choice and `--resume` refuses another; an
 * answer that stays malformed ends in RoleOutputError with exit 1. `--seeds` reads a dataset or EmoLLM scenario
 * file through the commands' one loader; a malformed line names file and line (exit 1).
 */
import { writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../cli/train';
import { parseGrpoArgs } from '../../../cli/train-grpo';
import { EMOLLM_SEED_SPECS } from '../../../src/tasks/defaults';
import { emollmSeedsToJsonl } from '../../../src/tasks/emollm-loader';
import { GRPO_CLI_ARGS } from '../../fixtures/llm/grpo-cli-cases';

const FIXTURES = join(__dirname, '../../fixtures/llm');
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'grpo-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const run = async (argv: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, {
    stdout: (s) => out.push(s),
    stderr: (s) => err.push(s),
    isTTY: false,
  });
  return { code, out: out.join(''), err: err.join('') };
};
const judge = (file: string) => ['--backend', 'judge=replay', '--fixtures', join(FIXTURES, file)];
const small = [
  '--algo',
  'grpo-emollm',
  '--steps',
  '1',
  '--group-size',
  '2',
  '--groups-per-step',
  '1',
  '--horizon',
  '2',
];

describe('--rewards template|llm', () => {
  it('llm: the judge role’s replayed answers score the step; run.json records rewards llm', async () => {
    const out = join(dir, 'llm');
    const r = await run([...GRPO_CLI_ARGS, ...judge('grpo-cli.replay.json'), '--out', out, '--json']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out);
    expect(report.config.rewards).toBe('llm');
    expect(report.steps).toHaveLength(1);
    // the recorded judge gives R_cog = (4 − 1) / 4 on every turn and R_emo = (3 − 2) / 4 on every trajectory
    expect(report.steps[0].rewards.cog).toBeCloseTo(0.75, 12);
    expect(report.steps[0].rewards.emo).toBeCloseTo(0.25, 12);
    const stored = JSON.parse(await readFile(join(out, 'run.json'), 'utf8'));
    expect(stored.config.rewards).toBe('llm');

    // --resume refuses another --rewards, naming the option and the stored value
    const other = await run(['--algo', 'grpo-emollm', '--resume', '--rewards', 'template', '--out', out]);
    expect(other.code).toBe(2);
    expect(other.err).toContain('--rewards template (the run has llm)');
    // … and an LLM-judged run resumed without a judge
    const bare = await run(['--algo', 'grpo-emollm', '--resume', '--steps', '2', '--out', out]);
    expect(bare.code).toBe(2);
    expect(bare.err).toContain('with an LLM judge (rewards llm)');
  });

  it('an answer that stays malformed ends in RoleOutputError: exit 1, the judge and the answer named', async () => {
    const r = await run([
      ...GRPO_CLI_ARGS,
      ...judge('grpo-cli-malformed.replay.json'),
      '--out',
      join(dir, 'malformed'),
    ]);
    expect(r.code).toBe(1);
    // The run says what it starts before its first step; the error is the line after.
    expect(r.err).toMatch(/^error: judge \(grpo_turn_rewards\): /m);
    expect(r.err).toContain('simple_turn');
  });

  it('refuses llm without a judge backend and --backend without llm; documents both in --help', async () => {
    const base = ['--algo', 'grpo-emollm', '--task', 'cb', '--out', join(dir, 'x')];
    expect(() => parseGrpoArgs([...base, '--rewards', 'llm'])).toThrow(/give the judge role a backend/);
    expect(() =>
      parseGrpoArgs([...base, '--rewards', 'llm', '--backend', 'actor=replay', '--fixtures', 'f']),
    ).toThrow(/give the judge role a backend/);
    expect(() => parseGrpoArgs([...base, ...judge('grpo-cli.replay.json')])).toThrow(
      /--backend is only read with --rewards llm/,
    );
    expect(() => parseGrpoArgs([...base, '--rewards', 'judge'])).toThrow(/template \| llm/);
    expect(parseGrpoArgs([...base, '--rewards', 'template'])).toMatchObject({
      grpo: { rewards: 'template' },
    });
    const help = await run(['--algo', 'grpo-emollm', '--help']);
    expect(help.out).toMatch(/--rewards X[\s\S]*?\(template \| llm;\s+default template\)/);
    expect(help.out).toContain('--seeds [TASK=]PATH|bundled');
    expect(help.out).toContain('--backend SPEC');
    expect(help.out).toMatch(
      /--group-size N +G: trajectories per group, same scenario and checkpoint \(paper: 4\) \(range 2 to 64; default 4\)/,
    );
    // the documented range is the checked one
    expect(() => parseGrpoArgs([...base, '--group-size', '1'])).toThrow(
      '--group-size must be an integer in 2 to 64, got "1"',
    );
  });
});

describe('--seeds [TASK=]PATH|bundled', () => {
  it('trains on an EmoLLM scenario file; --resume refuses another source; a bad line is exit 1 at file:line', async () => {
    const file = join(dir, 'ed.jsonl');
    writeFileSync(file, emollmSeedsToJsonl(EMOLLM_SEED_SPECS.ed.slice(0, 4)));
    const out = join(dir, 'seeds');
    const r = await run([
      ...small,
      '--task',
      'emollm-ed',
      '--seeds',
      `emollm-ed=${file}`,
      '--out',
      out,
      '--json',
    ]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out);
    expect(report.seeds).toEqual({ source: `emollm-ed=${file}`, train: 3, eval: 1 });
    const other = await run(['--algo', 'grpo-emollm', '--resume', '--seeds', 'bundled', '--out', out]);
    expect(other.code).toBe(2);
    expect(other.err).toContain(`--seeds bundled (the run has emollm-ed=${file})`);

    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, `${JSON.stringify(EMOLLM_SEED_SPECS.ed[0])}\n{"id": "x"}\n`);
    const b = await run([...small, '--task', 'emollm-ed', '--seeds', bad, '--out', join(dir, 'bad')]);
    expect(b.code).toBe(1);
    expect(b.err).toContain(`error: ${bad}:2: `);
  });

  it('reads a task’s dataset or seed file through the ordinary loaders; a bad record names file:line', async () => {
    const bad = join(dir, 'cb-bad.jsonl');
    writeFileSync(bad, '{"not": "a cb dialogue"\n');
    const r = await run([...small, '--task', 'cb', '--seeds', `cb=${bad}`, '--out', join(dir, 'cb')]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${bad}:1:`);
    expect(parseGrpoArgs([...small, '--task', 'cb', '--seeds', 'bundled', '--out', 'x'])).toMatchObject({
      seeds: 'bundled',
    });
    expect(() => parseGrpoArgs([...small, '--task', 'cb', '--seeds', 'esconv=x', '--out', 'x'])).toThrow(
      /esconv is not among the tasks \(cb\)/,
    );
    expect(() =>
      parseGrpoArgs([...small, '--task', 'cb', '--seeds', join(dir, 'none'), '--out', 'x']),
    ).toThrow(/no such file or folder/);
  });
});
