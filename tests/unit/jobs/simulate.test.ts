/**
 * The simulate job: the same episodes as evaluate for the same rng seed, streaming, cancellation, the policy
 * registry (typed errors, principles: and cstpo: policies), and the simulate command line around it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main as simulateMain, type SimulateReport } from '../../../cli/simulate';
import { main as principlesMain } from '../../../cli/principles';
import { planEvaluation } from '../../../src/eval/harness';
import { InlineExecutor, MemoryEpisodeStore, runEvaluation } from '../../../src/eval/harness-run';

import { PolicyRegistry } from '../../../src/policies';
import { simulateJob, type TrajectoryLine } from '../../../src/jobs/simulate';
import { TfActor } from '../../../src/rl/actor';
import { resolveConfig } from '../../../src/rl/config';
import { featurizerFor, networkDims } from '../../../src/rl/context';
import { evaluateActor } from '../../../src/rl/evaluate';
import { ActorNetworks } from '../../../src/rl/networks';
import { Rng } from '../../../src/rng';
import { resolveRoles } from '../../../src/roles';
import { SIMULATOR_VERSION } from '../../../src/sim/version';
import { defaultSeeds } from '../../../src/tasks/defaults';
import { getTask } from '../../../src/tasks';
import { TINY } from '../rl/tiny';
import { PolicySpecError } from '../../../src/errors';

const dir = mkdtempSync(join(tmpdir(), 'pdl-jobs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await simulateMain(argv, {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    isTTY: false,
  });
  return { code, stdout, stderr };
}

/** What decides an episode: the actions, the simulated user's replies, the outcome. */
const play = (e: {
  seedId: string;
  turns: { action: unknown; userUtterance: string }[];
  return: number;
}) => ({
  seedId: e.seedId,
  turns: e.turns.map((t) => [t.action, t.userUtterance]),
  return: e.return,
});

describe('simulate and evaluate play the same episodes for the same rng seed', () => {
  it('job level: simulateJob == planEvaluation + runEvaluation, for two repeats of every seed', async () => {
    const seeds = defaultSeeds('cb').slice(0, 4);
    const lines: TrajectoryLine[] = [];
    const result = await simulateJob(
      { task: 'cb', policy: 'proactive', seeds, episodes: 8, rngSeed: 12 },
      { onEpisode: (l) => void lines.push(l) },
    );
    const plan = planEvaluation({
      tasks: ['cb'],
      policies: ['proactive'],
      seedSets: [{ task: 'cb', name: 'set', seeds }],
      repeats: 2,
      baseSeed: 12,
    });
    const { records } = await runEvaluation(plan, {
      executor: new InlineExecutor(),
      store: new MemoryEpisodeStore(),
      keepRecords: true,
    });
    const evaluated = records!.get('cb\u0000proactive')!;
    const key = (e: { seedId: string; repeat: number }) => `${e.seedId}/${e.repeat}`;
    const byKey = new Map(evaluated.map((e) => [key(e), e]));
    expect(lines).toHaveLength(8);
    for (const line of lines) expect(play(line)).toEqual(play(byKey.get(key(line))!));
    expect(result.summary.episodes).toBe(8);
    // Not degenerate: the episodes differ between seeds and between repeats.
    expect(new Set(lines.map((l) => JSON.stringify(play(l).turns))).size).toBeGreaterThan(4);
  });

  it('command level: simulate --rng-seed and evaluate --rng-seed write the same trajectories', async () => {
    const { main: evaluateMain } = await import('../../../cli/evaluate');
    const out = join(dir, 'sim.jsonl');
    const r = await run(['--task', 'p4g', '--policy', 'random', '--rng-seed', '5', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const folder = join(dir, 'eval');
    let err = '';
    const code = await evaluateMain(
      ['--task', 'p4g', '--policy', 'random', '--rng-seed', '5', '--out', folder],
      { stdout: () => {}, stderr: (s) => (err += s), isTTY: false },
    );
    expect(code, err).toBe(0);
    const read = (p: string) =>
      readFileSync(p, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as TrajectoryLine);
    const simulated = read(out);
    const evaluated = new Map(
      read(join(folder, 'trajectories', 'p4g', 'random.jsonl')).map((e) => [e.seedId, e]),
    );
    expect(simulated.length).toBe(defaultSeeds('p4g').length);
    for (const line of simulated) expect(play(line)).toEqual(play(evaluated.get(line.seedId)!));
  });
});

describe('simulateJob', () => {
  it('streams each episode with the simulator version and stops on abort, keeping what finished', async () => {
    const controller = new AbortController();
    const lines: TrajectoryLine[] = [];
    await expect(
      simulateJob(
        { task: 'esconv', episodes: 10 },
        {
          onEpisode: (l) => void lines.push(l),
          onProgress: ({ done }) => {
            if (done === 3) controller.abort('enough');
          },
          signal: controller.signal,
        },
      ),
    ).rejects.toMatchObject({ name: 'AbortedError', code: 'JOB_ABORTED' });
    expect(lines).toHaveLength(3);
    expect(lines.every((l) => l.simulatorVersion === SIMULATOR_VERSION && l.repeat === 0)).toBe(true);
  });

  it('rejects unknown and unavailable policies with typed errors listing the valid names', async () => {
    const unknown = await simulateJob({ task: 'cb', policy: 'greedy' }).catch((e: unknown) => e);
    expect(unknown).toMatchObject({ name: 'PolicySpecError', code: 'POLICY_UNKNOWN' });
    expect((unknown as Error).message).toMatch(
      /valid policies: random, replay, fixed:<label>, llm, arg, standard/,
    );
    expect((unknown as Error).message).toMatch(/principles:<memory>, cstpo:<run>/);
    await expect(simulateJob({ task: 'cb', policy: 'icl-aif' })).rejects.toBeInstanceOf(PolicySpecError);
    await expect(simulateJob({ task: 'cb', policy: 'principles:none' })).rejects.toBeInstanceOf(
      PolicySpecError,
    );
    await expect(simulateJob({ task: 'cb', policy: 'fixed:Nope' })).rejects.toThrow(/not a cb label/);
  });
});

describe('policy registry: trained artefacts as policies', () => {
  it('cstpo:<run> plays the same episodes as the trainer evaluation of the same weights', async () => {
    const config = resolveConfig(TINY);
    const nets = new ActorNetworks(networkDims(config, featurizerFor(config)), Rng.fromSeed(3));
    const actor = await nets.params.toWeights();
    const seeds = defaultSeeds('cb').slice(0, 3);
    const expected = await evaluateActor(config, new TfActor(nets), seeds, { repeats: 1, seed: 9 });
    nets.dispose();
    const lines: TrajectoryLine[] = [];
    await simulateJob(
      {
        task: 'cb',
        policy: 'cstpo:tiny',
        seeds,
        rngSeed: 9,
        horizon: config.horizon,
        resources: { cstpo: { tiny: { config, actor } } },
      },
      { onEpisode: (l) => void lines.push(l) },
    );
    // Episode records keep returns to 9 decimals (src/agents/rollout.ts); the trainer's evaluation keeps the sum.
    const labels = getTask('cb').strategies;
    expect(lines.map((l) => [l.seedId, l.return, l.success, l.turns.map((t) => t.action.strategy)])).toEqual(
      expected.map((e) => [
        e.caseId,
        Math.round(e.return * 1e9) / 1e9,
        e.success,
        e.strategies.map((k) => labels[k]),
      ]),
    );
    // Not degenerate: the CB seller closes some of these deals (a non-zero return).
    expect(lines.some((l) => l.return !== 0)).toBe(true);
    expect(lines[0]!.policy).toBe('cstpo:tiny');
  });

  it('principles:<memory> runs the Principles planner over a memory file, and refuses another task', async () => {
    const file = join(dir, 'memory.json');
    const built = await principlesMain(['build', '--task', 'esconv', '--episodes', '3', '--out', file], {
      stdout: () => {},
      stderr: () => {},
    });
    expect(built).toBe(0);
    const text = readFileSync(file, 'utf8');
    const registry = await PolicyRegistry.create(resolveRoles({}).policyParts, { principles: { m: text } });
    expect(registry.create('esconv', 'principles:m').name).toBe('principles:m');
    expect(() => registry.create('cb', 'principles:m')).toThrow(
      expect.objectContaining({ name: 'PolicySpecError', code: 'POLICY_UNAVAILABLE' }),
    );
    const r = await run(['--task', 'esconv', '--policy', `principles:${file}`, '--episodes', '2', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as SimulateReport).policy).toBe(`principles:${file}`);
  });
});

describe('simulate command line', () => {
  it('refuses an existing --out before any work unless --overwrite, and streams lines with the version', async () => {
    const out = join(dir, 'exists.jsonl');
    writeFileSync(out, 'keep me\n');
    const refused = await run(['--task', 'cb', '--out', out]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /output .*exists\.jsonl already holds a file \(8 bytes\); pass --overwrite/,
    );
    expect(readFileSync(out, 'utf8')).toBe('keep me\n');
    const folder = await run(['--task', 'cb', '--out', dir]);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toMatch(/already holds a folder .*give the path of a file/);
    const under = await run(['--task', 'cb', '--out', join(out, 'x.jsonl')]);
    expect(under.code).toBe(2);
    expect(under.stderr).toMatch(/exists\.jsonl is a file, not a folder/);
    const ok = await run(['--task', 'cb', '--out', out, '--overwrite', '--episodes', '3']);
    expect(ok.code, ok.stderr).toBe(0);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(3);
    expect((JSON.parse(lines[0]!) as TrajectoryLine).simulatorVersion).toBe(SIMULATOR_VERSION);
  });

  it('bounds every numeric option and names the range', async () => {
    const cases: [string[], RegExp][] = [
      [['--episodes', '0'], /--episodes must be an integer in 1 to 1,000,000, got "0"/],
      [['--episodes', '1e9'], /--episodes must be an integer in 1 to 1,000,000/],
      [['--episodes', '2.5'], /--episodes must be an integer/],
      [['--rng-seed=-1'], /--rng-seed must be an integer in 0 to/],
      [['--lookahead', '1000000'], /--lookahead must be an integer in 1 to 30/],
      [['--protocol', 'ppdpp', '--lookahead', '9'], /--lookahead: at most the horizon \(8 turns for esconv/],
      [['--horizon', '4', '--lookahead', '5'], /--lookahead: at most the horizon \(4 turns/],
      [['--protocol', 'x'], /--protocol must be one of cstpo \| ppdpp/],
      [['--policy', 'random,replay'], /simulate runs one policy/],
      [['--policy', 'greedy'], /unknown policy "greedy"; valid policies:/],
      [['--seeds', join(dir, 'missing.jsonl')], /no such file or folder/],
    ];
    for (const [args, message] of cases) {
      const r = await run(['--task', 'esconv', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
  });

  it('keeps the old spellings --seed and --policies working, with a notice', async () => {
    const old = await run([
      '--task',
      'cb',
      '--seed',
      '4',
      '--policies',
      'replay',
      '--json',
      '--episodes',
      '2',
    ]);
    expect(old.code, old.stderr).toBe(0);
    expect(old.stderr).toMatch(/notice: --seed is now --rng-seed/);
    expect(old.stderr).toMatch(/notice: --policies is now --policy/);
    const now = await run([
      '--task',
      'cb',
      '--rng-seed',
      '4',
      '--policy',
      'replay',
      '--json',
      '--episodes',
      '2',
    ]);
    expect(JSON.parse(now.stdout)).toEqual(JSON.parse(old.stdout));
    expect((JSON.parse(now.stdout) as SimulateReport).rngSeed).toBe(4);
  });

  it('generates --help from the job schema: every option with its range and default', async () => {
    const r = await run(['--help']);
    expect(r.stdout).toMatch(/--episodes N\s+episodes to play.* \(range 1 to 1,000,000\)/);
    expect(r.stdout).toMatch(/--rng-seed N\s+the run's integer seed.*default 0\)/s);
    expect(r.stdout).toMatch(/--protocol P\s+reward protocol.*cstpo \| ppdpp; default cstpo/);
    for (const name of ['principles:<memory>', 'cstpo:<run>', 'icl-aif', '--seeds [TASK=]PATH|bundled'])
      expect(r.stdout).toContain(name);
  });
});
