/**
 * New-user findings: a negative number after an option is a range error naming the option; data
 * errors exit 1 in every command with file:line kept (usage errors exit 2); no `--skip-invalid` hint where it
 * cannot help; a P4G CSV given alone says which companion files were read too; a principles checkpoint of another
 * build names the CLI option; `simulate --task emollm` plays N episodes per setting, like evaluate; the report
 * shows the EmoLLM setting the person named.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as evaluateMain } from '../../../cli/evaluate';
import { main as principlesMain } from '../../../cli/principles';
import { main as simulateMain } from '../../../cli/simulate';
import { main as validateMain } from '../../../cli/validate-sim';
import { simulateJob } from '../../../src/jobs/simulate';
import { reportToMarkdown } from '../../../src/eval/report-format';
import type { EvalReport } from '../../../src/eval/report';
import { CONSTRUCTION_CHECKPOINT_FORMAT } from '../../../src/memory/construct';

const P4G = '../shared/data/p4g';
const FIXTURES = 'tests/fixtures/data/p4g';
let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pdl-new-user-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

function capture() {
  const err: string[] = [];
  const out: string[] = [];
  return {
    err,
    out,
    io: {
      stdout: (s: string) => void out.push(s),
      stderr: (s: string) => void err.push(s),
      isTTY: false,
    },
  };
}

describe('negative numbers after an option', () => {
  it('--episodes -1 is a range error naming the option (exit 2), not "ambiguous"', async () => {
    for (const [main, argv] of [
      [simulateMain, ['--task', 'cb', '--episodes', '-1']],
      [evaluateMain, ['--task', 'cb', '--policy', 'random', '--episodes', '-1', '--out', join(dir, 'neg')]],
      [principlesMain, ['build', '--task', 'cb', '--episodes', '-1', '--out', join(dir, 'neg.json')]],
    ] as const) {
      const c = capture();
      expect(await main([...argv], c.io)).toBe(2);
      const text = c.err.join('');
      expect(text).toMatch(/--episodes must be an integer (in 1 to|≥ 1).*got "-1"/);
      expect(text).not.toMatch(/ambiguous/);
    }
  });
});

describe('data errors', () => {
  it('exit 1 with file:line for ESConv records and EmoLLM seeds alike', async () => {
    const esconv = join(dir, 'esconv-bad.jsonl');
    const good = readFileSync('../shared/data/esconv/esconv-valid.jsonl', 'utf8').split('\n')[0];
    writeFileSync(esconv, `${good}\n{"emotion_type": 3, "dialog": "x"}\n`);
    const emollm = join(dir, 'emollm-bad.jsonl');
    writeFileSync(emollm, '{"id": "a", "scenario": 1}\n');
    const a = capture();
    // Two episodes play the file's first two records (a run reads only the seeds it plays).
    expect(await simulateMain(['--task', 'esconv', '--seeds', esconv, '--episodes', '2'], a.io)).toBe(1);
    expect(a.err.join('')).toContain(`${esconv}:2:`);
    expect(a.err.join('')).toContain('--skip-invalid');
    const b = capture();
    expect(await simulateMain(['--task', 'emollm-ed', '--seeds', emollm, '--episodes', '1'], b.io)).toBe(1);
    expect(b.err.join('')).toContain(`${emollm}:1:`);
    expect(b.err.join('')).not.toMatch(/--help|--skip-invalid/);
  });

  it('a P4G CSV with a wrong header names file:line and does not suggest --skip-invalid', async () => {
    const folder = join(dir, 'p4g-bad');
    mkdirSync(folder);
    writeFileSync(join(folder, 'p4g-dialogs.csv'), 'dialog_id,turn,speaker,sentence\nx,0,0,hi\n');
    const c = capture();
    expect(await simulateMain(['--task', 'p4g', '--seeds', join(folder, 'p4g-dialogs.csv')], c.io)).toBe(1);
    const text = c.err.join('');
    expect(text).toContain(`${join(folder, 'p4g-dialogs.csv')}:1: missing column "role"`);
    expect(text).not.toContain('--skip-invalid');
  });
});

describe('a P4G CSV given alone', () => {
  it('says on stderr which companion files beside it were read, and why', async () => {
    const folder = join(dir, 'p4g-two');
    mkdirSync(folder);
    // One dialogue of the shared data and its participants' rows (small: the notice is what is checked).
    const dialogs = readFileSync(join(P4G, 'p4g-dialogs.csv'), 'utf8').split('\n');
    const id = (dialogs[1] ?? '').split(',')[0] ?? '';
    const rowsOf = (text: string) => text.split('\n').filter((l, i) => i === 0 || l.startsWith(`${id},`));
    writeFileSync(join(folder, 'p4g-dialogs.csv'), rowsOf(dialogs.join('\n')).join('\n') + '\n');
    const participants = readFileSync(join(P4G, 'p4g-participants.csv'), 'utf8');
    writeFileSync(join(folder, 'p4g-participants.csv'), rowsOf(participants).join('\n') + '\n');
    const c = capture();
    const code = await simulateMain(
      ['--task', 'p4g', '--seeds', join(folder, 'p4g-dialogs.csv'), '--episodes', '1'],
      c.io,
    );
    expect(code, c.err.join('')).toBe(0);
    const notice = c.err.find((s) => s.startsWith('notice:')) ?? '';
    expect(notice).toContain(`${join(folder, 'p4g-participants.csv')} (persuadee traits)`);
    expect(notice).not.toContain('p4g-annotated');
  });

  it('a missing companion file and a dialogues file missing from the folder are cited without line 0', async () => {
    const folder = join(dir, 'p4g-no-companions');
    mkdirSync(folder);
    writeFileSync(join(folder, 'p4g-dialogs.csv'), readFileSync(join(FIXTURES, 'p4g-dialogs.csv'), 'utf8'));
    const c = capture();
    expect(await simulateMain(['--task', 'p4g', '--seeds', folder, '--episodes', '1'], c.io)).toBe(0);
    const err = c.err.join('');
    expect(err).toContain(`warning: ${join(folder, 'p4g-dialogs.csv')}: no p4g-participants.csv`);
    expect(err).not.toMatch(/:0:/);
    const alone = join(dir, 'p4g-participants-alone');
    mkdirSync(alone);
    writeFileSync(
      join(alone, 'p4g-participants.csv'),
      readFileSync(join(FIXTURES, 'p4g-participants.csv'), 'utf8'),
    );
    const e = capture();
    expect(await simulateMain(['--task', 'p4g', '--seeds', alone, '--episodes', '1'], e.io)).toBe(1);
    expect(e.err.join('')).toContain(
      `error: ${join(alone, 'p4g-participants.csv')}: PersuasionForGood needs its dialogues file`,
    );
  });
});

describe('principles build --resume of another build', () => {
  it('names --max-attempts, not the internal field', async () => {
    const out = join(dir, 'memory.json');
    writeFileSync(
      `${out}.checkpoint.jsonl`,
      JSON.stringify({
        format: CONSTRUCTION_CHECKPOINT_FORMAT,
        version: 2,
        task: 'cb',
        episodes: 1,
        baseSeed: 0,
        maxAttempts: 5,
        baselineReward: 0,
        seedIds: [],
        roles: [],
      }) + '\n',
    );
    const c = capture();
    const code = await principlesMain(
      ['build', '--task', 'cb', '--episodes', '1', '--out', out, '--resume'],
      c.io,
    );
    const text = c.err.join('');
    expect(code, text).toBe(2);
    expect(text).toContain('--max-attempts is 5');
    expect(text).not.toContain('maxAttempts');
  });
});

describe('EmoLLM settings', () => {
  it('simulate --task emollm plays --episodes per setting, as evaluate does', async () => {
    const r = await simulateJob({ task: 'emollm', episodes: 1, policy: 'random' });
    expect(r.episodes).toBe(4);
    expect(r.summary.cases).toBe(4);
  });

  it("the Markdown report's task column shows the setting named", () => {
    const estimate = { mean: 0.5, lo: null, hi: null, method: 'cluster-bootstrap', n: 1, nClusters: 1 };
    const report = {
      library: { name: 'pdl', version: '0' },
      simulatorVersion: 'v',
      generatedAt: '2026-01-01T00:00:00.000Z',
      config: {
        mode: 'template',
        protocol: 'cstpo',
        repeats: 1,
        baseSeed: 0,
        seedSets: [{ task: 'esconv', name: 'emollm-ed', seeds: 1 }],
      },
      results: [
        {
          task: 'esconv',
          seedSet: 'emollm-ed',
          policy: 'random',
          episodes: 1,
          cases: 1,
          successRate: estimate,
          avgTurnsAll: estimate,
          avgTurnsSuccessful: null,
          meanReturn: estimate,
          strategyEntropy: null,
          judgeAgreement: null,
          endings: { byLabel: { 'horizon, judged unsuccessful': 1 }, contradictions: 0 },
        },
      ],
      paired: [],
      strategyPrediction: [],
      validation: [],
      methods: { successRate: '', avgTurns: '', meanReturn: '', strategyEntropy: '' },
    } as unknown as EvalReport;
    const md = reportToMarkdown(report);
    expect(md).toMatch(/\n\| emollm-ed \| emollm-ed \| random \|/);
    expect(md).not.toMatch(/\| esconv \|/);
  });
});

describe('fresh-user trial', () => {
  it('simulate --policy ppdpp points at the command that trains or loads a planner', async () => {
    const c = capture();
    expect(await simulateMain(['--task', 'cb', '--policy', 'ppdpp'], c.io)).toBe(2);
    const text = c.err.join('');
    expect(text).toContain('evaluate trains one (or loads --ppdpp-model cb=PATH)');
    expect(text).toContain('npm run evaluate -- --task cb --policy ppdpp');
    expect(text).not.toContain('trainPpdpp');
  });

  it('an empty --seeds file is a data error naming the file (exit 1), in every command', async () => {
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    for (const [main, argv] of [
      [simulateMain, ['--task', 'esconv']],
      [evaluateMain, ['--task', 'esconv', '--policy', 'random', '--out', join(dir, 'empty-eval')]],
      [principlesMain, ['build', '--task', 'esconv', '--out', join(dir, 'empty.json')]],
    ] as const) {
      const c = capture();
      expect(await main([...argv, '--seeds', empty], c.io)).toBe(1);
      expect(c.err.join('')).toBe(`error: ${empty}:1: no esconv seeds in the file\n`);
    }
  });

  it('a P4G folder whose dialogues CSV holds only its header says what the file given alone says', async () => {
    // Each shared P4G file's header row alone (no dataset sentence), in a folder of its own.
    const header = (name: string) => readFileSync(join(P4G, name), 'utf8').split(/\r?\n/, 1)[0] + '\n';
    const headerOnly = join(dir, 'p4g-header-only');
    const withCompanions = join(dir, 'p4g-header-only-all');
    mkdirSync(headerOnly);
    mkdirSync(withCompanions);
    writeFileSync(join(headerOnly, 'p4g-dialogs.csv'), header('p4g-dialogs.csv'));
    for (const name of readdirSync(P4G).filter((n) => n.endsWith('.csv')))
      writeFileSync(join(withCompanions, name), header(name));
    for (const folder of [headerOnly, withCompanions]) {
      const dialogs = join(folder, 'p4g-dialogs.csv');
      const direct = capture();
      expect(await simulateMain(['--task', 'p4g', '--seeds', dialogs], direct.io)).toBe(1);
      const fileError = `error: ${dialogs}:1: no p4g seeds in the file\n`;
      expect(direct.err.join('')).toContain(fileError);
      const viaFolder = capture();
      expect(await simulateMain(['--task', 'p4g', '--seeds', folder], viaFolder.io)).toBe(1);
      expect(viaFolder.err.join('')).toBe(fileError);
    }
  });

  it('a malformed --ladder is a data error naming the file, line and column (exit 1)', async () => {
    const ladder = join(dir, 'ladder.json');
    writeFileSync(ladder, '{\n  "cb": {\n    "levels": [}\n}\n');
    const c = capture();
    expect(await validateMain(['--ladder', ladder], c.io)).toBe(1);
    expect(c.err.join('')).toBe(`error: ${ladder} line 3: not valid JSON: unexpected "}" at column 16\n`);
    writeFileSync(ladder, '{"cb": {"levels": []}}');
    const shape = capture();
    expect(await validateMain(['--ladder', ladder], shape.io)).toBe(1);
    expect(shape.err.join('')).toContain(`${ladder}: cb.levels`);
  });

  it('a malformed --fixtures file is a data error naming the file, line and column (exit 1)', async () => {
    const fixtures = join(dir, 'fixtures.json');
    writeFileSync(fixtures, '{\n  "a": }\n');
    const c = capture();
    expect(
      await simulateMain(
        ['--task', 'cb', '--backend', 'replay', '--fixtures', fixtures, '--episodes', '1'],
        c.io,
      ),
    ).toBe(1);
    expect(c.err.join('')).toBe(
      `error: --fixtures: ${fixtures} line 2 is damaged: not valid JSON: unexpected "}" at column 8\n`,
    );
  });

  it("an empty path option (--out '') is a usage error naming it, in every command", async () => {
    for (const [main, argv, flag] of [
      [simulateMain, ['--task', 'cb', '--out', ''], 'out'],
      [evaluateMain, ['--task', 'cb', '--policy', 'random', '--out', ''], 'out'],
      [principlesMain, ['build', '--task', 'cb', '--out', ''], 'out'],
      [principlesMain, ['query', '--task', 'cb', '--text', 'hi', '--memory', ''], 'memory'],
      [validateMain, ['--ladder', ''], 'ladder'],
    ] as const) {
      const c = capture();
      expect(await main([...argv], c.io)).toBe(2);
      expect(c.err.join('')).toContain(`--${flag} is empty: give a path`);
    }
  });

  it('wording: the policy listed twice is named; "1 episode run"; "an esconv label"', async () => {
    const twice = capture();
    expect(
      await evaluateMain(
        ['--task', 'cb', '--policy', 'random,random', '--out', join(dir, 'twice')],
        twice.io,
      ),
    ).toBe(2);
    expect(twice.err.join('')).toContain('policy "random" is listed twice');
    const one = capture();
    const args = ['--task', 'cb', '--policy', 'random', '--episodes', '1', '--resamples', '100'];
    expect(await evaluateMain([...args, '--out', join(dir, 'one')], one.io)).toBe(0);
    expect(one.err.join('')).toContain('1 episode run, 0 found finished');
    const label = capture();
    expect(await simulateMain(['--task', 'esconv', '--policy', 'fixed:Nope'], label.io)).toBe(2);
    expect(label.err.join('')).toContain('"Nope" is not an esconv label');
  });
});
