import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
  existsSync,
  readdirSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../../cli/evaluate';
import {
  CSV_COLUMNS,
  LIBRARY,
  evaluate,
  planEvaluation,
  reportToCsv,
  reportToJson,
  reportToMarkdown,
  type EvalReport,
} from '../../../src/eval';
import { ESTIMATE_METHOD_NAMES } from '../../../src/stats';
import { FileEpisodeStore, prepareOutputFolder, trajectoryFile } from '../../../src/eval/harness-node';
import { defaultSeeds } from '../../../src/tasks/defaults';
import pkg from '../../../package.json';
import { SIMULATOR_VERSION } from '../../../src/sim/version';

const root = mkdtempSync(join(tmpdir(), 'pdl-evaluate-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let folders = 0;
const folder = () => join(root, `out${folders++}`);

async function cli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), isTTY: false });
  return { code, stdout, stderr };
}

const ARGS = [
  '--task',
  'esconv,p4g,cb',
  '--policies',
  'random,proactive',
  '--episodes',
  '8',
  '--resamples',
  '200',
];
const report = (dir: string) => {
  const r = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
  return { ...r, generatedAt: '' };
};

describe('npm run evaluate', () => {
  it('prints help', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--policy LIST');
    expect(r.stdout).toMatch(/--episodes N\s+episodes per task, policy and seed set.*range 1 to 1,000,000/s);
    expect(r.stdout).toContain('--seeds [TASK=]PATH|bundled');
    expect(r.stdout).toContain('--backend SPEC');
  });

  it('fails on bad configuration before any episode runs, naming the problem', async () => {
    const cases: [string[], RegExp][] = [
      [['--task', 'esconv', '--policies', 'random,ppo'], /unknown policy "ppo"/],
      [
        ['--task', 'esconv,cb', '--policies', 'random', '--f1'],
        /strategy F1 needs human strategy labels, which cb does not have/,
      ],
      [['--task', 'chess', '--policies', 'random'], /unknown task "chess"/],
      [
        ['--task', 'esconv', '--policies', 'random', '--repeats', '0'],
        /--repeats must be an integer in 1 to 1,000/,
      ],
      [['--task', 'esconv'], /--policy is required/],
      [
        ['--task', 'esconv', '--policy', 'random', '--episodes', '2', '--repeats', '2'],
        /give episodes or repeats/,
      ],
      [['--task', 'esconv', '--policy', 'icl-aif'], /"icl-aif" has no template form/],
    ];
    for (const [args, message] of cases) {
      const out = folder();
      const r = await cli([...args, '--out', out]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(existsSync(out)).toBe(false);
    }
    const empty = join(root, 'empty.jsonl');
    writeFileSync(empty, '');
    const out = folder();
    const r = await cli([
      '--task',
      'esconv',
      '--policies',
      'random',
      '--seeds',
      `esconv=${empty}`,
      '--out',
      out,
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${empty}:1: no esconv seeds in the file`);
    expect(existsSync(out)).toBe(false);
  });

  it('writes JSON, CSV and Markdown reports and the trajectories; an interrupted run resumes to the same report', async () => {
    const full = folder();
    const r = await cli([...ARGS, '--out', full]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('| esconv | bundled | proactive | 8 |');
    expect(r.stderr).toContain('48 episodes run, 0 found finished');
    expect(readdirSync(full).sort()).toEqual([
      'manifest.json',
      'report.csv',
      'report.json',
      'report.md',
      'settings.json',
      'trajectories',
    ]);
    const json = report(full);
    expect(json.library).toEqual({ name: pkg.name, version: pkg.version });
    expect(json.config).toMatchObject({
      tasks: ['esconv', 'p4g', 'cb'],
      repeats: 1,
      episodes: 8,
      mode: 'template',
    });

    // The same command in a second folder, interrupted: one file loses its last 3 episodes and is left with half
    // a line, another is gone. Running again finishes it.
    const interrupted = folder();
    expect((await cli([...ARGS, '--out', interrupted])).code).toBe(0);
    const cut = trajectoryFile(interrupted, 'p4g', 'proactive');
    const lines = readFileSync(cut, 'utf8').split('\n');
    writeFileSync(cut, `${lines.slice(0, 5).join('\n')}\n${lines[5]!.slice(0, 40)}`);
    rmSync(trajectoryFile(interrupted, 'cb', 'random'));
    rmSync(join(interrupted, 'report.json'));
    const refused = await cli([...ARGS, '--out', interrupted]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /already holds a folder .*pass --resume to continue it or --overwrite to replace it/,
    );
    const resumed = await cli([...ARGS, '--resume', '--out', interrupted]);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain('11 episodes run, 37 found finished');
    // The half line is dropped with a notice naming the file and line (the stored file is read line by line).
    expect(resumed.stderr).toContain(
      `notice: ${cut}:6: dropped an episode cut short by an interruption (40 bytes); it runs again`,
    );
    expect(report(interrupted)).toEqual(json);
    expect(readFileSync(cut, 'utf8').split('\n').filter(Boolean)).toHaveLength(8);
  }, 120_000);

  it('refuses a foreign non-empty --out, one under a file or one that is a file, before any work (exit 2)', async () => {
    const foreign = folder();
    mkdirSync(foreign);
    writeFileSync(join(foreign, 'notes.txt'), 'mine');
    const args = ['--task', 'cb', '--policy', 'random', '--episodes', '2', '--resamples', '100'];
    for (const flags of [[], ['--overwrite'], ['--resume']]) {
      const r = await cli([...args, ...flags, '--out', foreign]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`output ${foreign} already holds a folder with 1 entry (notes.txt)`);
      expect(r.stderr).not.toContain('episodes run');
    }
    expect(readdirSync(foreign)).toEqual(['notes.txt']);
    const file = join(folder(), 'report');
    mkdirSync(dirname(file));
    writeFileSync(file, 'x');
    const under = await cli([...args, '--out', join(file, 'sub')]);
    expect(under.code).toBe(2);
    expect(under.stderr).toContain(`cannot write ${join(file, 'sub')}: ${file} is a file, not a folder`);
    const isFile = await cli([...args, '--out', file]);
    expect(isFile.code).toBe(2);
    expect(readFileSync(file, 'utf8')).toBe('x');
  });

  it('refuses to resume in a folder made with other settings', async () => {
    const out = folder();
    expect((await cli([...ARGS, '--out', out])).code).toBe(0);
    const r = await cli([...ARGS, '--protocol', 'ppdpp', '--resume', '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--protocol ppdpp (the evaluation has cstpo)');
    // Episodes of another simulator version are never mixed into one report.
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    manifest.settings.simulatorVersion = 'cogsim-000000000000';
    writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest));
    const other = await cli([...ARGS, '--resume', '--out', out]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(
      `was made by simulator version cogsim-000000000000; this is ${SIMULATOR_VERSION}`,
    );
    const lines = readFileSync(trajectoryFile(out, 'cb', 'random'), 'utf8')
      .trim()
      .split('\n');
    expect(JSON.parse(lines[0]!).simulatorVersion).toBe(SIMULATOR_VERSION);
    expect(report(out).simulatorVersion).toBe(SIMULATOR_VERSION);
  }, 60_000);

  it('trains PPDPP before evaluating it, saves the planner and reuses it when resuming', async () => {
    const out = folder();
    const args = [
      '--task',
      'p4g',
      '--policies',
      'ppdpp,standard',
      '--episodes',
      '3',
      '--ppdpp-steps',
      '1',
      '--ppdpp-episodes',
      '2',
      '--resamples',
      '100',
      '--out',
      out,
    ];
    const first = await cli(args);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/ppdpp p4g: SFT on \d+ labelled turns .* 1 REINFORCE steps/);
    expect(existsSync(join(out, 'ppdpp-p4g.json'))).toBe(true);
    expect(report(out).config.ppdpp[0]).toMatchObject({
      task: 'p4g',
      training: { rlSteps: 1, episodesPerStep: 2 },
    });
    rmSync(join(out, 'report.json'));
    const second = await cli([...args, '--resume']);
    expect(second.stderr).toContain('planner loaded from');
    expect(second.stderr).toContain('0 episodes run, 6 found finished');
    // A bad configuration is reported before any training episode.
    const bad = await cli(args.map((a) => (a === 'ppdpp,standard' ? 'ppdpp,ppo' : a === out ? folder() : a)));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown policy "ppo"/);
    expect(bad.stderr).not.toContain('ppdpp p4g');
  }, 120_000);

  it('gives the same report with 2 worker threads', async () => {
    const one = folder();
    const two = folder();
    const args = ['--task', 'cb', '--policies', 'random,standard', '--episodes', '6', '--resamples', '200'];
    expect((await cli([...args, '--out', one])).code).toBe(0);
    expect((await cli([...args, '--workers', '2', '--out', two])).code).toBe(0);
    expect(report(two)).toEqual(report(one));
  }, 120_000);
});

describe('stored episodes', () => {
  it('name the file and line of a damaged record', async () => {
    const out = folder();
    const store = new FileEpisodeStore(out);
    const plan = planEvaluation({
      tasks: ['cb'],
      policies: ['random'],
      seedSets: [{ task: 'cb', name: 'b', seeds: defaultSeeds('cb').slice(0, 2) }],
    });
    await prepareOutputFolder(out, plan);
    await evaluate(plan, { store });
    const file = trajectoryFile(out, 'cb', 'random');
    const [first, second] = readFileSync(file, 'utf8').split('\n');
    writeFileSync(file, `${first}\n{"broken\n${second}\n`);
    await expect(store.load('cb', 'random')).rejects.toThrow(
      expect.objectContaining({ name: 'DataFormatError', code: 'EVAL_STORED_EPISODE_INVALID' }),
    );
    await expect(store.load('cb', 'random')).rejects.toThrow(`${file}:2: not JSON`);
    writeFileSync(file, `${second!.replace('"policy":"random"', '"policy":"standard"')}\n`);
    await expect(store.load('cb', 'random')).rejects.toThrow(/:1: not a stored episode of cb \/ random/);
    // A seed id stored with other content is refused.
    const other = planEvaluation({
      tasks: ['cb'],
      policies: ['random'],
      seedSets: [
        {
          task: 'cb',
          name: 'b',
          seeds: defaultSeeds('cb')
            .slice(0, 2)
            .map((s) => ({ ...s, randomSeed: s.randomSeed + 1 })),
        },
      ],
    });
    await expect(prepareOutputFolder(out, other)).rejects.toThrow(/a different seed cb\/b\//);
  });
});

describe('report formats', () => {
  it('CSV has one row per result with the declared columns and reads back with csv-parse', async () => {
    const plan = planEvaluation({
      tasks: ['esconv', 'p4g'],
      policies: ['standard', 'procot'],
      seedSets: (['esconv', 'p4g'] as const).map((task) => ({
        task,
        name: 'b',
        seeds: defaultSeeds(task).slice(0, 3),
      })),
      f1: true,
      resamples: 100,
    });
    const { report: r } = await evaluate(plan);
    const rows = parse(reportToCsv(r), { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual([...CSV_COLUMNS]);
    expect(rows).toHaveLength(4);
    const procot = rows.find((x) => x.task === 'p4g' && x.policy === 'procot')!;
    const result = r.results.find((x) => x.task === 'p4g' && x.policy === 'procot')!;
    expect(Number(procot.mean_return_lo)).toBe(result.meanReturn.lo);
    expect(Number(procot.macro_f1)).toBe(
      r.strategyPrediction.find((s) => s.task === 'p4g' && s.policy === 'procot')!.macroF1,
    );
    expect(rows.find((x) => x.policy === 'standard')!.strategy_entropy).toBe('');
    const md = reportToMarkdown(r);
    expect(md).toContain(`${LIBRARY.name} ${LIBRARY.version}`);
    expect(md).toContain('## Strategy prediction against human labels');
    expect(md).toContain('| esconv | standard | n/a (no strategy) |');
    expect(md).toContain('procot − standard');
  });

  it('name the method of every figure: each Markdown table, each CSV interval and each JSON section', async () => {
    const plan = planEvaluation({
      tasks: ['esconv'],
      policies: ['random', 'replay'],
      seedSets: [{ task: 'esconv', name: 'b', seeds: defaultSeeds('esconv').slice(0, 3) }],
      f1: true,
      resamples: 50,
    });
    const { report: r } = await evaluate(plan);
    // Markdown: every table is followed by a line naming its method(s)
    const lines = reportToMarkdown(r).split('\n');
    const tableEnds = lines.flatMap((l, i) =>
      l.startsWith('|') && !lines[i + 1]?.startsWith('|') ? [i] : [],
    );
    expect(tableEnds).toHaveLength(4); // results, endings, paired differences, strategy prediction
    for (const end of tableEnds) expect(lines[end + 2]).toMatch(/^Methods?: /);
    const methodsLine = lines[tableEnds[0]! + 2]!;
    expect(methodsLine).toContain(`SR — 95% ${ESTIMATE_METHOD_NAMES.wilson}`);
    expect(methodsLine).toContain(
      `Return — 95% ${ESTIMATE_METHOD_NAMES['cluster-bootstrap']} over seeds, 50 resamples`,
    );
    expect(lines[tableEnds[1]! + 2]).toContain('classifyEnding');
    expect(lines[tableEnds[3]! + 2]).toContain('replay policy plays the human labels');
    // CSV: each interval column group names its method
    const rows = parse(reportToCsv(r), { columns: true }) as Record<string, string>[];
    for (const row of rows) {
      expect(row.success_rate_method).toBe('wilson');
      expect(row.avg_turns_all_method).toBe('cluster-bootstrap');
      expect(row.mean_return_method).toBe('cluster-bootstrap');
    }
    // JSON: a method for every section, and on every estimate
    const json = JSON.parse(reportToJson(r)) as EvalReport;
    expect(Object.keys(json.methods).sort()).toEqual(
      [
        'avgTurns',
        'endings',
        'judgeAgreement',
        'meanReturn',
        'paired',
        'strategyEntropy',
        'strategyPrediction',
        'successRate',
        'validation',
      ].sort(),
    );
    for (const text of Object.values(json.methods)) expect(text.length).toBeGreaterThan(10);
    for (const p of json.paired) expect(p.method).toBe('cluster-bootstrap');
    for (const x of json.results)
      expect([x.successRate.method, x.meanReturn.method]).toEqual(['wilson', 'cluster-bootstrap']);
  });
});
