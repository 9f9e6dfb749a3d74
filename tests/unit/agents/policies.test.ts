/**
 * Simple policies (random, fixed, dataset replay) and the episode rollout helpers.
 */
import { describe, expect, it } from 'vitest';

import {
  FixedPolicy,
  RandomPolicy,
  ReplayPolicy,
  TemplateRealizer,
  runEpisodes,
  toJsonl,
  type EpisodeRecord,
  type Realizer,
} from '../../../src/agents';
import { DialogueEnv, type Observation } from '../../../src/env';
import { simulateJob } from '../../../src/jobs/simulate';
import { Rng } from '../../../src/rng';
import { TASK_IDS, getTask, type Seed, type TaskId } from '../../../src/tasks';
import { DEFAULT_SEEDS } from '../../../src/tasks/defaults';

function observationOf(task: TaskId, seed = DEFAULT_SEEDS[task][0] as Seed): Observation {
  return new DialogueEnv(task).reset({ seed }).observation;
}

describe('RandomPolicy', () => {
  it('uses every label of the task over many steps, roughly uniformly, with an utterance of that label', async () => {
    const realizer = new TemplateRealizer();
    for (const task of TASK_IDS) {
      const labels = getTask(task).strategies;
      const obs = observationOf(task);
      const policy = new RandomPolicy(task);
      const rng = Rng.fromSeed(11);
      const counts = new Map<string, number>();
      const n = 60 * labels.length;
      for (let i = 0; i < n; i++) {
        const a = await policy.act(obs, rng);
        counts.set(a.strategy, (counts.get(a.strategy) ?? 0) + 1);
        expect(await realizer.realize(obs, a.strategy, 3, rng)).toContain(a.utterance);
      }
      expect([...counts.keys()].sort()).toEqual([...labels].sort());
      for (const c of counts.values()) expect(c).toBeGreaterThan(30);
    }
  });

  it('is deterministic given the random stream', async () => {
    const obs = observationOf('p4g');
    const run = async () => {
      const rng = Rng.fromSeed(5);
      const p = new RandomPolicy('p4g');
      const out = [];
      for (let i = 0; i < 20; i++) out.push(await p.act(obs, rng));
      return out;
    };
    expect(await run()).toEqual(await run());
  });
});

describe('FixedPolicy', () => {
  it('always plays its strategy, with any of its realizations', async () => {
    const obs = observationOf('esconv');
    const policy = new FixedPolicy('esconv', 'Providing Suggestions');
    const rng = Rng.fromSeed(2);
    const utterances = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const a = await policy.act(obs, rng);
      expect(a.strategy).toBe('Providing Suggestions');
      utterances.add(a.utterance);
    }
    expect(utterances.size).toBe(3);
    expect(policy.name).toBe('fixed:Providing Suggestions');
  });

  it('rejects a label outside the task label set', () => {
    expect(() => new FixedPolicy('esconv', 'Logical appeal')).toThrow(
      /unknown strategy "Logical appeal" for esconv/,
    );
    expect(() => new FixedPolicy('cb', 'Propose Price')).toThrow(/unknown strategy/);
    expect(() => new FixedPolicy('p4g', 'bribe')).toThrow(/unknown strategy "bribe"/);
    expect(new FixedPolicy('p4g', 'Greeting').name).toBe('fixed:Greeting');
  });
});

describe('ReplayPolicy', () => {
  it('follows the reference labels in order, then falls back to random labels of the task', async () => {
    const obs = observationOf('cb');
    const policy = new ReplayPolicy('cb');
    const reference = ['inquire', 'propose price', 'stance'];
    policy.begin({ seedId: 's', reference: { strategies: reference } });
    const rng = Rng.fromSeed(8);
    const played: string[] = [];
    for (let i = 0; i < 40; i++) played.push((await policy.act(obs, rng)).strategy);
    expect(played.slice(0, 3)).toEqual(reference);
    const rest = new Set(played.slice(3));
    expect(rest.size).toBeGreaterThan(3);
    for (const s of rest) expect(getTask('cb').strategies).toContain(s);
  });

  it('replaces a label unknown to the task by a random one, restarts on begin, and plays random without a reference', async () => {
    const obs = observationOf('esconv');
    const policy = new ReplayPolicy('esconv');
    const rng = Rng.fromSeed(1);
    policy.begin({ seedId: 's', reference: { strategies: ['Question', 'not a label', 'Information'] } });
    const a = [];
    for (let i = 0; i < 3; i++) a.push((await policy.act(obs, rng)).strategy);
    expect(a[0]).toBe('Question');
    expect(getTask('esconv').strategies).toContain(a[1]);
    expect(a[2]).toBe('Information');
    policy.begin({ seedId: 's', reference: { strategies: ['Others'] } });
    expect((await policy.act(obs, rng)).strategy).toBe('Others');
    policy.begin({ seedId: 's' });
    const free = new Set<string>();
    for (let i = 0; i < 50; i++) free.add((await policy.act(obs, rng)).strategy);
    expect(free.size).toBeGreaterThan(3);
  });
});

describe('policies and realizers', () => {
  it('realise their strategy with the injected realizer, and fail on a realizer that gives nothing', async () => {
    const calls: string[] = [];
    const fixed: Realizer = {
      realize: async (_obs, strategy) => {
        calls.push(strategy);
        return [`say ${strategy}`];
      },
    };
    const obs = observationOf('cb');
    expect(await new FixedPolicy('cb', 'inform', fixed).act(obs, Rng.fromSeed(1))).toEqual({
      strategy: 'inform',
      utterance: 'say inform',
    });
    expect(calls).toEqual(['inform']);
    const empty: Realizer = { realize: async () => [] };
    await expect(new RandomPolicy('cb', empty).act(obs, Rng.fromSeed(1))).rejects.toThrow(/no utterance/);
  });

  it('ask a realizer that answers at once without waiting, with the same pick, and reject (not throw) on nothing', async () => {
    const obs = observationOf('cb');
    const waiting: Realizer = { realize: async () => ['a', 'b', 'c'] };
    const atOnce: Realizer = {
      realize: () => Promise.reject(new Error('not asked')),
      realizeNow: () => ['a', 'b', 'c'],
    };
    for (let seed = 0; seed < 8; seed++) {
      expect(await new RandomPolicy('cb', atOnce).act(obs, Rng.fromSeed(seed))).toEqual(
        await new RandomPolicy('cb', waiting).act(obs, Rng.fromSeed(seed)),
      );
    }
    const empty: Realizer = { realize: async () => ['x'], realizeNow: () => [] };
    const acted = new FixedPolicy('cb', 'inform', empty).act(obs, Rng.fromSeed(1));
    await expect(acted).rejects.toThrow(/no utterance/);
  });
});

describe('runEpisodes', () => {
  it('cycles the seeds, is deterministic, and plays the episodes of the simulate job', async () => {
    const seeds = DEFAULT_SEEDS.cb.slice(0, 2);
    const env = new DialogueEnv('cb');
    const a = await runEpisodes(env, new RandomPolicy('cb'), seeds, {
      episodes: 5,
      baseSeed: 3,
      keepState: false,
    });
    expect(a.map((e) => e.seedId)).toEqual([0, 1, 0, 1, 0].map((i) => seeds[i]?.id));
    expect(a.every((e) => e.turns.every((t) => t.state === undefined))).toBe(true);
    const simulated: EpisodeRecord[] = [];
    await simulateJob(
      { task: 'cb', policy: 'random', seeds, episodes: 5, rngSeed: 3 },
      {
        onEpisode: ({ repeat: _r, rngSeed: _s, simulatorVersion: _v, ...record }) =>
          void simulated.push(record),
      },
    );
    expect(simulated).toEqual(a);
    const lines = toJsonl(a).trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    expect(JSON.parse(lines[0] as string)).toEqual(a[0]);
    expect(toJsonl([])).toBe('');
  });

  it('rejects an empty seed list and a bad episode count', async () => {
    const env = new DialogueEnv('cb');
    await expect(runEpisodes(env, new RandomPolicy('cb'), [], { episodes: 1 })).rejects.toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'AGENT_OPTION_INVALID' }),
    );
    await expect(runEpisodes(env, new RandomPolicy('cb'), DEFAULT_SEEDS.cb, { episodes: 0 })).rejects.toThrow(
      /positive integer/,
    );
    await expect(
      runEpisodes(env, new RandomPolicy('cb'), DEFAULT_SEEDS.cb, { episodes: 2.5 }),
    ).rejects.toThrow(expect.objectContaining({ name: 'ConfigError', code: 'AGENT_OPTION_INVALID' }));
  });
});
