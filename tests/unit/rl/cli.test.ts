import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main, parseTrainArgs, type TrainReport } from '../../../cli/train';
import { SIMULATOR_VERSION } from '../../../src/sim/version';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: { stdout: (s: string) => out.push(s), stderr: (s: string) => err.push(s), isTTY: false },
  };
}

describe('train CLI arguments', () => {
  it('parses ablations and rejects mistakes', () => {
    const o = parseTrainArgs([
      '--task',
      'esconv',
      '--out',
      'runs/x',
      '--ablate',
      'no-cog,no-branch',
      '--steps',
      '5',
    ]);
    expect(o).toMatchObject({
      task: 'esconv',
      cstpo: { steps: 5, ablations: { cognitiveState: false, hierarchicalCritic: true, branching: false } },
    });
    expect(() => parseTrainArgs(['--task', 'esconv'])).toThrow(/--out is required/);
    expect(() => parseTrainArgs(['--out', 'x'])).toThrow(/--task is required/);
    expect(() => parseTrainArgs(['--task', 'chess', '--out', 'x'])).toThrow(/unknown task/);
    expect(() => parseTrainArgs(['--task', 'emollm-ed', '--out', 'x'])).toThrow(
      'EmoLLM settings train with --algo grpo-emollm',
    );
    expect(() => parseTrainArgs(['--task', 'cb', '--out', 'x', '--algo', 'ppo'])).toThrow(/--algo/);
    expect(() => parseTrainArgs(['--task', 'cb', '--out', 'x', '--ablate', 'no-critic'])).toThrow(
      /unknown ablation/,
    );
    expect(() => parseTrainArgs(['--task', 'cb', '--out', 'x', '--steps', '-1'])).toThrow(/--steps/);
    expect(() => parseTrainArgs(['--task', 'cb', '--out', 'x', '--eval-fraction', '1'])).toThrow(
      /eval-fraction/,
    );
    expect(parseTrainArgs(['-h'])).toBe('help');
  });
});

describe('npm run train (end to end, tiny)', () => {
  let dir = '';
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('trains, saves, plots and evaluates; --resume continues the same run', async () => {
    dir = await mkdtemp(join(tmpdir(), 'pdl-train-'));
    const out = join(dir, 'run');
    const common = ['--out', out, '--json', '--eval-repeats', '1'];
    const first = io();
    const args = [
      '--task',
      'cb',
      '--steps',
      '2',
      '--seeds-per-step',
      '2',
      '--horizon',
      '5',
      '--sft-epochs',
      '2',
    ];
    expect(await main([...args, ...common, '--warmup', '1'], first.io)).toBe(0);
    const report = JSON.parse(first.out.join('')) as TrainReport;
    expect(report.backend).toBe('wasm'); // CPU_BACKEND_PREFERENCE: wasm first, as in the trainer worker;
    expect(report.outcome).toBe('finished');
    expect(report.steps.map((s) => s.step)).toEqual([1, 2]);
    expect(report.steps.map((s) => s.phase)).toEqual(['warmup', 'rl']);
    expect(report.seeds).toMatchObject({ train: 11, eval: 4, source: 'bundled' });
    const ev = report.evaluation!;
    expect(ev.seeds).toBe(4);
    for (const p of ['cstpo', 'sft', 'random']) expect(ev.policies[p]!.summary.episodes).toBe(4);
    // "Better" is the paired difference's interval lying above 0, as the report prints it.
    expect(ev.beats.random).toBe(ev.differences.vsRandom.lo !== null && ev.differences.vsRandom.lo > 0);
    expect(ev.beats.sft).toBe(ev.differences.vsSft!.lo !== null && ev.differences.vsSft!.lo > 0);
    const curves = JSON.parse(await readFile(join(out, 'curves.json'), 'utf8'));
    expect(curves.step).toEqual([1, 2]);
    expect(await readFile(join(out, 'curves.svg'), 'utf8')).toMatch(
      /^<svg [^>]*>[\s\S]*polyline[\s\S]*<\/svg>\n$/,
    );

    const second = io();
    expect(await main(['--resume', '--steps', '3', ...common, '--no-eval'], second.io)).toBe(0);
    const resumed = JSON.parse(second.out.join('')) as TrainReport;
    expect(resumed.steps.map((s) => s.step)).toEqual([1, 2, 3]);
    expect(resumed.steps[1]!.inputDigest).toBe(report.steps[1]!.inputDigest);
    expect(resumed.evaluation).toBeNull();

    // A finished run evaluated on other seeds: nothing more to train, a separate evaluation file.
    const third = io();
    expect(
      await main(
        ['--resume', '--out', out, '--json', '--eval-seeds', 'bundled', '--eval-repeats', '1'],
        third.io,
      ),
    ).toBe(0);
    const extra = JSON.parse(third.out.join('')) as TrainReport;
    expect(extra.steps).toHaveLength(3);
    expect(extra.seeds).toMatchObject({ evalSource: 'bundled', eval: 15 });
    expect(extra.evaluation!.policies.cstpo!.summary.episodes).toBe(15);
    expect(third.err.join('')).toMatch(/11 of the evaluation seeds were training seeds/);
    expect(JSON.parse(await readFile(join(out, 'eval-bundled.json'), 'utf8')).seeds).toBe(15);

    // The run folder is never overwritten by accident; resuming needs the same simulator.
    const again = io();
    expect(await main([...args, ...common], again.io)).toBe(2);
    expect(again.err.join('')).toMatch(
      /already holds a folder .*pass --resume to continue it or --overwrite/,
    );
    const split = JSON.parse(await readFile(join(out, 'split.json'), 'utf8')) as Record<string, unknown>;
    expect(split.simulatorVersion).toBe(SIMULATOR_VERSION);
    await writeFile(
      join(out, 'split.json'),
      JSON.stringify({ ...split, simulatorVersion: 'cogsim-000000000000' }),
    );
    const other = io();
    expect(await main(['--resume', '--steps', '4', ...common], other.io)).toBe(2);
    expect(other.err.join('')).toMatch(
      new RegExp(`made by simulator version cogsim-000000000000; this is ${SIMULATOR_VERSION}`),
    );
    expect(JSON.parse(await readFile(join(out, 'run.json'), 'utf8')).step).toBe(3);
    const elsewhere = join(dir, 'notes');
    await mkdir(elsewhere);
    await writeFile(join(elsewhere, 'todo.txt'), 'keep');
    const foreign = io();
    expect(await main([...args, '--out', elsewhere, '--overwrite'], foreign.io)).toBe(2);
    expect(foreign.err.join('')).toMatch(/which has no split\.json/);
    expect(await readFile(join(elsewhere, 'todo.txt'), 'utf8')).toBe('keep');
  });

  it('Ctrl-C stops between steps: the run is saved and the report says to --resume it', async () => {
    const root = await mkdtemp(join(tmpdir(), 'pdl-train-stop-'));
    try {
      const out = join(root, 'run');
      const c = io();
      const run = main(
        [
          '--task',
          'cb',
          '--steps',
          '200',
          '--seeds-per-step',
          '2',
          '--horizon',
          '5',
          '--sft-epochs',
          '1',
        ].concat(['--no-eval', '--out', out]),
        c.io,
      );
      // Interrupt once the first step is reported (each step is saved as it finishes).
      await new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (c.err.some((l) => l.startsWith('step 1 '))) {
            clearInterval(poll);
            process.emit('SIGINT');
            resolve();
          }
        }, 5);
      });
      expect(await run).toBe(130);
      expect(c.out.join('')).toMatch(/RL: \d+\/200 steps \(stopped\)/);
      expect(c.err.join('')).toContain(
        `the steps done are saved in ${out}; run the same command again with --resume to continue`,
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('reports usage errors with exit code 2 and a missing run to resume', async () => {
    const e = io();
    expect(await main(['--task', 'cb'], e.io)).toBe(2);
    expect(e.err.join('')).toMatch(/--out is required/);
    const r = io();
    expect(await main(['--resume', '--out', join(tmpdir(), 'pdl-no-such-run')], r.io)).toBe(2);
    expect(r.err.join('')).toMatch(/no run to resume/);
  });
});
