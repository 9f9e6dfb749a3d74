import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../../src/rng';
import { TfActor, UniformActor } from '../../../src/rl/actor';
import { returnsPerSeed, rolloutSeeds, type SeedJob, type SeedRollout } from '../../../src/rl/branching';
import { resolveConfig } from '../../../src/rl/config';
import { createRolloutContext, featurizerFor, networkDims } from '../../../src/rl/context';
import { llmCalls, zeroCounts } from '../../../src/rl/counting';
import { ActorNetworks } from '../../../src/rl/networks';
import { runPaths } from '../../../src/rl/rollout';
import { defaultSeeds } from '../../../src/tasks/defaults';

const config = resolveConfig({ task: 'cb', horizon: 8, embedDim: 16, hidden: 16, checkpoints: 2 });
const featurizer = featurizerFor(config);
let nets: ActorNetworks;

beforeAll(async () => {
  await tf.setBackend('cpu');
  nets = new ActorNetworks(networkDims(config, featurizer), Rng.fromSeed(5));
});
afterAll(() => nets.dispose());

const seeds = defaultSeeds('cb');
const jobs: SeedJob[] = seeds.slice(0, 3).map((seed, i) => ({ seed, envSeed: 100 + i, policySeed: 200 + i }));
const branching = { kind: 'branch', checkpoints: 2, strategies: 2, realizations: 2 } as const;

async function run(js: readonly SeedJob[], scheme: Parameters<typeof rolloutSeeds>[2] = branching) {
  const counts = zeroCounts();
  const ctx = createRolloutContext(config, new TfActor(nets), counts, {}, featurizer);
  return { rollouts: await rolloutSeeds(ctx, js, scheme), counts };
}

/** Rollouts without the feature arrays, for equality checks that print readably. */
const shape = (rs: SeedRollout[]) =>
  rs.map((r) => ({
    seedId: r.seedId,
    mains: r.mains.map((m) => ({
      actions: m.decisions.map((d) => [d.strategy, d.utterance]),
      returnsToGo: m.returnsToGo,
    })),
    checkpoints: r.checkpoints,
  }));

describe('sparse complete-branch sampling', () => {
  it('continues 2 strategies × 2 realizations at each of 2 checkpoints, reusing the main continuation', async () => {
    const { rollouts, counts } = await run(jobs);
    let tailTurns = 0;
    for (const r of rollouts) {
      const main = r.mains[0]!;
      expect(r.mains).toHaveLength(1);
      expect(r.checkpoints.map((c) => c.turn)).toEqual(
        [...r.checkpoints.map((c) => c.turn)].sort((a, b) => a - b),
      );
      expect(r.checkpoints).toHaveLength(Math.min(2, main.decisions.length));
      for (const cp of r.checkpoints) {
        const d = main.decisions[cp.turn]!;
        const [own, ...tails] = cp.continuations;
        // The main continuation is the main path itself: its return-to-go, flagged main.
        expect(own).toEqual({
          strategy: d.strategy,
          utterance: d.utterance,
          return: main.returnsToGo[cp.turn],
          main: true,
        });
        expect(tails.every((t) => !t.main)).toBe(true);
        expect(tails).toHaveLength(3);
        const strategies = [...new Set(cp.continuations.map((c) => c.strategy))];
        expect(strategies).toHaveLength(2);
        expect(strategies[0]).toBe(d.strategy);
        for (const k of strategies) {
          const us = cp.continuations.filter((c) => c.strategy === k).map((c) => c.utterance);
          expect(new Set(us).size).toBe(2); // distinct realizations
        }
      }
      tailTurns += r.checkpoints.length * 3;
    }
    const mainTurns = rollouts.reduce((s, r) => s + r.mains[0]!.decisions.length, 0);
    // Every env turn is a main-path turn or a tail turn; the main continuation is not re-run.
    expect(counts.envTurns).toBeGreaterThanOrEqual(mainTurns + tailTurns);
    expect(returnsPerSeed(branching)).toBe(7);
  });

  it('counts each env turn once: main paths from a reset, tails only from their checkpoint turn on', async () => {
    const counts = zeroCounts();
    const ctx = createRolloutContext(config, new TfActor(nets), counts, {}, featurizer);
    const envs: { start: 'reset' | 'restore' | null; seedId: string; turn: number; steps: number }[] = [];
    const makeEnv = ctx.makeEnv;
    ctx.makeEnv = () => {
      const env = makeEnv();
      const log = { start: null as 'reset' | 'restore' | null, seedId: '', turn: 0, steps: 0 };
      envs.push(log);
      const [reset, restore, step] = [env.reset.bind(env), env.restore.bind(env), env.step.bind(env)];
      env.reset = (a) => (Object.assign(log, { start: 'reset', seedId: a.seed.id }), reset(a));
      env.restore = (c) => (
        Object.assign(log, { start: 'restore', seedId: c.seed.id, turn: c.sim.turn }),
        restore(c)
      );
      env.step = (a) => (log.steps++, step(a));
      return env;
    };
    const rollouts = await rolloutSeeds(ctx, jobs, branching);
    const mains = envs.filter((e) => e.start === 'reset');
    const tails = envs.filter((e) => e.start === 'restore' && e.steps > 0);
    // One reset per seed, played exactly as long as the recorded main path.
    expect(mains.map((e) => [e.seedId, e.steps])).toEqual(
      rollouts.map((r) => [r.seedId, r.mains[0]!.decisions.length]),
    );
    // Three tails per checkpoint (the main continuation is reused), each starting at its checkpoint's turn and
    // playing no more than the turns left there: the prefix is restored, not replayed.
    const expected = rollouts.flatMap((r) =>
      r.checkpoints.flatMap((c) => [0, 1, 2].map(() => `${r.seedId}@${c.turn}`)),
    );
    expect(tails.map((e) => `${e.seedId}@${e.turn}`).sort()).toEqual(expected.sort());
    for (const e of tails) expect(e.steps).toBeLessThanOrEqual(config.horizon - e.turn);
    // Restores that only realize an alternative strategy's candidates play no turn; nothing else is counted.
    expect(counts.envTurns).toBe(envs.reduce((s, e) => s + e.steps, 0));
  });

  it('a tail starts from the checkpoint state with its forced action', async () => {
    const counts = zeroCounts();
    const ctx = createRolloutContext(config, new TfActor(nets), counts, {}, featurizer);
    const job = jobs[0]!;
    const [main] = await runPaths(ctx, [
      {
        start: { kind: 'reset', seed: job.seed, envSeed: job.envSeed },
        rng: Rng.fromSeed(1),
        record: true,
        keepCheckpoints: true,
      },
    ]);
    const t = Math.min(1, main!.decisions.length - 1);
    const d = main!.decisions[t]!;
    const forced = {
      strategy: (d.strategy + 1) % 6,
      candidateTexts: ['Could you do $310?', 'Hmm.'],
      utterance: 0,
    };
    const [tail] = await runPaths(ctx, [
      {
        start: { kind: 'restore', checkpoint: main!.checkpoints[t]! },
        rng: Rng.fromSeed(2),
        record: true,
        keepCheckpoints: false,
        forced,
      },
    ]);
    const first = tail!.decisions[0]!;
    expect(Array.from(first.obs)).toEqual(Array.from(d.obs)); // same observation as the main path at t
    expect(Array.from(first.cog)).toEqual(Array.from(d.cog)); // same simulator state
    expect([first.strategy, first.utterance, first.candidateTexts]).toEqual([
      forced.strategy,
      0,
      forced.candidateTexts,
    ]);
    expect(tail!.return).toBeCloseTo(
      tail!.rewards.reduce((a, b) => a + b, 0),
      12,
    );
  });

  it('is deterministic and independent of what else is in the batch', async () => {
    const alone = await run(jobs.slice(1, 2));
    const together = await run(jobs);
    const again = await run(jobs);
    expect(shape(together.rollouts)).toEqual(shape(again.rollouts));
    expect(shape(alone.rollouts)[0]).toEqual(shape(together.rollouts)[1]);
    const a = alone.rollouts[0]!.mains[0]!.decisions;
    const b = together.rollouts[1]!.mains[0]!.decisions;
    expect(a.map((d) => Array.from(d.obs))).toEqual(b.map((d) => Array.from(d.obs)));
    expect(a.map((d) => Array.from(d.strategyProbs))).toEqual(b.map((d) => Array.from(d.strategyProbs)));
  });

  it('full-trajectory sampling gives N recorded main paths per seed and no branches', async () => {
    const { rollouts } = await run(jobs.slice(0, 2), { kind: 'full', trajectories: 3 });
    for (const r of rollouts) {
      expect(r.mains).toHaveLength(3);
      expect(r.checkpoints).toEqual([]);
      for (const m of r.mains) expect(m.returnsToGo[0]).toBeCloseTo(m.return, 12);
    }
  });

  it('costs fewer env turns and LLM-role calls than full trajectories at the same number of returns', async () => {
    const branch = await run(jobs);
    const full = await run(jobs, { kind: 'full', trajectories: returnsPerSeed(branching) });
    expect(branch.counts.envTurns).toBeLessThan(full.counts.envTurns);
    expect(llmCalls(branch.counts)).toBeLessThan(llmCalls(full.counts));
    expect(full.counts.judgeCalls).toBe(3 * 3 * returnsPerSeed(branching)); // 3 seeds × 7 episodes × 3 repeats
  });
});

describe('UniformActor', () => {
  it('gives equal probabilities to every label and candidate', async () => {
    const u = new UniformActor(4);
    expect(Array.from((await u.strategyProbs([new Float32Array(2)], null))[0]!)).toEqual([
      0.25, 0.25, 0.25, 0.25,
    ]);
    expect(
      Array.from(
        (
          await u.utteranceProbs([new Float32Array(2)], [0], [[new Float32Array(1), new Float32Array(1)]])
        )[0]!,
      ),
    ).toEqual([0.5, 0.5]);
  });
});
