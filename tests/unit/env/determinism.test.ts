/**
 * Checkpoint / restore (docs/architecture.md "Checkpoint and restore", paper §A.4): restoring a checkpoint
 * and replaying the same actions reproduces the continuation exactly — observations, rewards, flags and infos
 * (simulator state and random stream included) — also through JSON and in a fresh environment; checkpoints
 * and observations never alias the environment's state; the same seed gives the same trajectory.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runEpisode, runEpisodes } from '../../../src/agents';
import { createPolicy } from '../../../src/policies';
import { DialogueEnv, type Action, type EnvCheckpoint, type StepResult } from '../../../src/env';
import { Rng } from '../../../src/rng';
import { TASK_IDS, getTask, type Seed, type TaskId } from '../../../src/tasks';
import { DEFAULT_SEEDS } from '../../../src/tasks/defaults';

const CONTINUATION = 10;

/** Play `actions` (or, when absent, the policy's own actions, recorded) for up to CONTINUATION steps. */
async function play(
  env: DialogueEnv,
  next: (obs: StepResult['observation']) => Promise<Action>,
  start: StepResult['observation'],
  tamper: boolean,
): Promise<{ actions: Action[]; results: StepResult[] }> {
  const actions: Action[] = [];
  const results: StepResult[] = [];
  let obs = start;
  for (let i = 0; i < CONTINUATION; i++) {
    const action = await next(obs);
    actions.push(action);
    const r = await env.step(action);
    results.push(structuredClone(r));
    obs = r.observation;
    if (tamper) {
      // Mutating the observation the environment returned must not change the environment.
      r.observation.history.push({ speaker: 'user', text: 'tampered' });
      r.observation.events.length = 0;
      r.observation.actorView.goal = 'tampered';
      obs = structuredClone(results.at(-1)?.observation as StepResult['observation']);
    }
    if (r.terminated || r.truncated) break;
  }
  return { actions, results };
}

function mutate(cp: EnvCheckpoint): void {
  cp.history.push({ speaker: 'actor', text: 'mutated', strategy: 'x' });
  cp.sim.cognitive.beliefs.forEach((b) => (b.strength = 0));
  cp.sim.cognitive.affect.valence = 1;
  cp.sim.rng[0] = (cp.sim.rng[0] ?? 0) ^ 0x5a5a;
  cp.sim.remaining = 1;
  cp.sim.events.push({ turn: 0, by: 'user', type: 'quit' });
  cp.seed.profile.tau_A = 0;
}

describe('checkpoint / restore', () => {
  it('replays identically from 100 random checkpoints, also through JSON and in a fresh environment', async () => {
    let midEpisode = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...TASK_IDS),
        fc.nat({ max: 14 }),
        fc.oneof(fc.constant('random'), fc.constant('replay'), fc.nat({ max: 12 })),
        fc.nat({ max: 12 }),
        fc.nat({ max: 0xffff }),
        fc.constantFrom('stochastic', 'deterministic') as fc.Arbitrary<'stochastic' | 'deterministic'>,
        async (task: TaskId, seedIdx, policyPick, steps, policySeed, routeSampling) => {
          const seeds = DEFAULT_SEEDS[task];
          const seed = seeds[seedIdx % seeds.length] as Seed;
          const labels = getTask(task).strategies;
          const spec =
            typeof policyPick === 'number' ? `fixed:${labels[policyPick % labels.length]}` : policyPick;
          const policy = createPolicy(task, spec);
          policy.begin?.({ seedId: seed.id, reference: seed.reference });
          const rng = Rng.fromSeed(policySeed);
          const env = new DialogueEnv(task, { routeSampling });
          let obs = env.reset({ seed }).observation;
          let done = false;
          for (let i = 0; i < steps && !done; i++) {
            const r = await env.step(await policy.act(obs, rng));
            obs = r.observation;
            done = r.terminated || r.truncated;
          }
          const cp = env.checkpoint();
          const json = JSON.stringify(cp);
          const decoy = env.checkpoint();
          mutate(decoy); // a mutated copy must not reach the environment
          expect(JSON.parse(json)).toEqual(cp);

          if (done) {
            await expect(env.step({ strategy: 'x', utterance: 'Hello?' })).rejects.toThrow(
              expect.objectContaining({ name: 'StateUpdateRejectedError', code: 'ENV_STATE_INVALID' }),
            );
            env.restore(cp);
            await expect(env.step({ strategy: 'x', utterance: 'Hello?' })).rejects.toThrow(
              expect.objectContaining({ name: 'StateUpdateRejectedError', code: 'ENV_STATE_INVALID' }),
            );
            return;
          }
          midEpisode++;
          const original = await play(env, (o) => policy.act(o, rng), obs, true);
          expect(original.results.length).toBeGreaterThan(0);
          const replay = (e: DialogueEnv) => {
            const queue = [...original.actions];
            return play(e, async () => queue.shift() as Action, obs, false);
          };

          const restoredObs = env.restore(cp).observation;
          mutate(cp); // the environment holds its own copy
          expect(restoredObs).toEqual(obs);
          expect((await replay(env)).results).toEqual(original.results);

          const fresh = new DialogueEnv(task, { routeSampling });
          expect(fresh.restore(JSON.parse(json) as EnvCheckpoint).observation).toEqual(obs);
          expect((await replay(fresh)).results).toEqual(original.results);
        },
      ),
      { numRuns: 100 },
    );
    // Most checkpoints are taken mid-episode, where there is a continuation to compare.
    expect(midEpisode).toBeGreaterThan(60);
  });

  it('restores the random stream: the same utterance from one checkpoint gives the same reply every time', async () => {
    const env = new DialogueEnv('esconv');
    env.reset({ seed: DEFAULT_SEEDS.esconv[2] as Seed });
    await env.step({ strategy: 'Question', utterance: 'What happened?' });
    const cp = env.checkpoint();
    const replies = new Set<string>();
    const states = new Set<string>();
    for (let i = 0; i < 5; i++) {
      env.restore(cp);
      const r = await env.step({ strategy: 'Others', utterance: 'Okay.' });
      replies.add(r.info.sim.userUtterance);
      states.add(JSON.stringify(r.info.state));
    }
    expect(replies.size).toBe(1);
    expect(states.size).toBe(1);
  });

  it('gives the same trajectory twice from the same seed, and another one from another random seed', async () => {
    for (const task of TASK_IDS) {
      const seed = DEFAULT_SEEDS[task][3] as Seed;
      const run = (rngSeed?: number) =>
        runEpisode(new DialogueEnv(task), createPolicy(task, 'random'), seed, {
          policySeed: 77,
          ...(rngSeed !== undefined ? { rngSeed } : {}),
        });
      const a = await run();
      const b = await run();
      expect(b).toEqual(a);
      expect(a.turns.length).toBeGreaterThan(0);
    }
    // Different simulator random streams change at least one trajectory (route draws, reply phrasing).
    const differs = await Promise.all(
      TASK_IDS.map(async (task) => {
        const seed = DEFAULT_SEEDS[task][3] as Seed;
        const env = new DialogueEnv(task);
        const a = await runEpisode(env, createPolicy(task, 'random'), seed, { policySeed: 77, rngSeed: 1 });
        const b = await runEpisode(env, createPolicy(task, 'random'), seed, { policySeed: 77, rngSeed: 2 });
        return JSON.stringify(a) !== JSON.stringify(b);
      }),
    );
    expect(differs).toContain(true);
  });

  it('gives the same trajectories with and without frozen states (freezing is a guard, not a mechanic)', async () => {
    for (const task of TASK_IDS) {
      const seeds = DEFAULT_SEEDS[task];
      const run = (freezeStates: boolean) =>
        runEpisodes(new DialogueEnv(task, { freezeStates }), createPolicy(task, 'random'), seeds, {
          episodes: 2 * seeds.length,
          baseSeed: 5,
        });
      const [frozen, plain] = [await run(true), await run(false)];
      expect(JSON.stringify(plain)).toBe(JSON.stringify(frozen));
      expect(frozen.some((e) => e.turns.some((t) => t.mode === 'Influence'))).toBe(true);
    }
    const env = new DialogueEnv('cb', { freezeStates: false });
    env.reset({ seed: DEFAULT_SEEDS.cb[0] as Seed });
    const step = await env.step({ strategy: 'inquire', utterance: 'How old is it?' });
    expect(Object.isFrozen(step.info.state)).toBe(false);
    expect(
      Object.isFrozen(new DialogueEnv('cb').reset({ seed: DEFAULT_SEEDS.cb[0] as Seed }).info.state),
    ).toBe(true);
  });
});
