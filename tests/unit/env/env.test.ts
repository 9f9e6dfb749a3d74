/**
 * The dialogue environment's API (Gymnasium names), termination vs truncation, the two reward protocols, its
 * errors, and the role boundaries (docs/architecture.md "Role boundaries"): the actor's observation holds no
 * latent state, the simulator's roles never see a strategy label, and the judge reads no latent field.
 */
import { ZodError } from 'zod';
import { describe, expect, it } from 'vitest';

import { runEpisode } from '../../../src/agents';
import { createPolicy } from '../../../src/policies';
import {
  DialogueEnv,
  PPDPP_REWARDS,
  TemplateJudge,
  repeatedJudge,
  type Judge,
  type JudgeInput,
  type Observation,
  type StepResult,
  type TurnJudgment,
} from '../../../src/env';
import { templateSimRoles, type SimRoles, type SimView } from '../../../src/sim';
import { Rng } from '../../../src/rng';
import { TASK_IDS, cbUtility, getTask, type Seed, type TaskId, type Turn } from '../../../src/tasks';
import { DEFAULT_SEEDS } from '../../../src/tasks/defaults';

const first = (task: TaskId): Seed => DEFAULT_SEEDS[task][0] as Seed;

/** Keys that name the simulator's latent or private state: none may reach the actor or the judge. */
const LATENT_KEYS = new Set([
  'cognitive',
  'beliefs',
  'desires',
  'intentions',
  'affect',
  'appraisal',
  'profile',
  'persona',
  'eta_R',
  'tau_A',
  'tau_R',
  'userPrivate',
  'private',
  'reservationPrice',
  'concerns',
  'barriers',
  'situation',
  'emotionType',
  'problemType',
  'rng',
  'changeLog',
  'revealed',
  'reference',
  'state',
]);

/** Every key of a JSON-like value, at any depth. */
function keysDeep(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => keysDeep(v, out));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      keysDeep(v, out);
    }
  }
  return out;
}

function latentKeysIn(value: unknown): string[] {
  return [...keysDeep(value)].filter((k) => LATENT_KEYS.has(k));
}

describe('DialogueEnv API', () => {
  it('reset returns { observation, info } with the prefix, the actor view and the full horizon', () => {
    const seed = first('cb');
    const env = new DialogueEnv('cb');
    const r = env.reset({ seed });
    expect(Object.keys(r).sort()).toEqual(['info', 'observation']);
    expect(Object.keys(r.observation).sort()).toEqual(
      ['actorView', 'events', 'history', 'remaining', 'seedId', 'task', 'turn'].sort(),
    );
    expect(r.observation).toMatchObject({ task: 'cb', seedId: seed.id, turn: 0, remaining: 30, events: [] });
    expect(r.observation.history).toEqual(seed.prefix);
    expect(r.observation.actorView).toEqual(seed.actorView);
    expect(r.info.state.cognitive).toEqual(seed.cognitive);
    expect(env.horizon).toBe(getTask('cb').horizon);
  });

  it('step returns { observation, reward, terminated, truncated, info } and appends the turn pair', async () => {
    const seed = first('esconv');
    const env = new DialogueEnv('esconv');
    env.reset({ seed });
    const r = await env.step({ strategy: 'Question', utterance: 'What happened?' });
    expect(Object.keys(r).sort()).toEqual(['info', 'observation', 'reward', 'terminated', 'truncated']);
    expect(r).toMatchObject({ reward: 0, terminated: false, truncated: false });
    expect(r.observation.turn).toBe(1);
    expect(r.observation.remaining).toBe(29);
    expect(r.observation.history.slice(0, -2)).toEqual(seed.prefix);
    expect(r.observation.history.at(-2)).toEqual({
      speaker: 'actor',
      text: 'What happened?',
      strategy: 'Question',
    });
    expect(r.observation.history.at(-1)).toEqual({ speaker: 'user', text: r.info.sim.userUtterance });
    expect(r.info.sim.mode).toBe('Elicit');
    expect(r.info.endReason).toBeNull();
    expect(r.info.terminal).toBeUndefined();
    expect(r.info.state.turn).toBe(1);
  });

  it('truncates at the horizon (not terminated) and pays the terminal utility there under CSTPO', async () => {
    const env = new DialogueEnv('esconv', { horizon: 2 });
    env.reset({ seed: first('esconv') });
    const a = await env.step({ strategy: 'Others', utterance: 'Okay.' });
    expect(a).toMatchObject({ reward: 0, terminated: false, truncated: false });
    const b = await env.step({ strategy: 'Others', utterance: 'Okay.' });
    expect(b).toMatchObject({ terminated: false, truncated: true });
    expect(b.info.endReason).toBe('horizon');
    expect(b.info.terminal).toBeDefined();
    expect(b.reward).toBe(b.info.terminal?.utility);
    expect(b.observation.remaining).toBe(0);
  });

  it('terminates on a deal, paying clip((list − p) / (list − target), 0, 1)', async () => {
    const seed = first('cb');
    const { listPrice, targetPrice } = seed.actorView as { listPrice: number; targetPrice: number };
    const env = new DialogueEnv('cb');
    env.reset({ seed });
    const offer = await env.step({ strategy: 'propose price', utterance: `Would you take $${targetPrice}?` });
    expect(offer).toMatchObject({ reward: 0, terminated: false, truncated: false });
    const counter = offer.observation.events.find((e) => e.type === 'offer' && e.by === 'user')?.price;
    expect(counter).toBeDefined();
    const p = counter as number;
    expect(p).toBeGreaterThan(targetPrice);
    expect(p).toBeLessThanOrEqual(listPrice);
    const deal = await env.step({ strategy: 'stance', utterance: `Deal, I will take it at $${p}.` });
    expect(deal).toMatchObject({ terminated: true, truncated: false });
    expect(deal.info.endReason).toBe('deal');
    expect(deal.reward).toBeCloseTo((listPrice - p) / (listPrice - targetPrice), 12);
    expect(deal.reward).toBe(cbUtility(p, listPrice, targetPrice));
  });

  it('terminates with utility 0 when the buyer quits', async () => {
    const env = new DialogueEnv('cb');
    env.reset({ seed: first('cb') });
    const r = await env.step({ strategy: 'stance', utterance: 'No thanks, I will pass.' });
    expect(r).toMatchObject({ reward: 0, terminated: true, truncated: false });
    expect(r.info.endReason).toBe('actor-quit');
  });

  it('CSTPO: every episode ends exactly once, rewards are 0 until the end and the terminal utility at the end', async () => {
    const reasons = new Set<string>();
    for (const task of TASK_IDS) {
      const env = new DialogueEnv(task);
      const seeds = DEFAULT_SEEDS[task].slice(0, 5);
      for (const [i, seed] of seeds.entries()) {
        const policy = createPolicy(task, i % 2 ? 'replay' : 'random');
        const ep = await runEpisode(env, policy, seed, { policySeed: 100 + i, keepState: false });
        expect(ep.terminated !== ep.truncated).toBe(true);
        expect(ep.truncated).toBe(ep.endReason === 'horizon' || ep.endReason === 'stale');
        expect(ep.turns.slice(0, -1).every((t) => t.reward === 0)).toBe(true);
        expect(ep.turns.at(-1)?.reward).toBe(ep.utility);
        expect(ep.return).toBeCloseTo(ep.utility, 9);
        expect(ep.utility).toBeGreaterThanOrEqual(0);
        expect(ep.utility).toBeLessThanOrEqual(1);
        reasons.add(ep.endReason as string);
      }
    }
    // Both kinds of ending occur over these episodes.
    expect([...reasons].some((r) => r === 'horizon' || r === 'stale')).toBe(true);
    expect([...reasons].some((r) => r !== 'horizon' && r !== 'stale')).toBe(true);
  });
});

describe('PPDPP protocol', () => {
  it('uses the PPDPP horizon and per-turn rewards in {−1, −0.5, 0.5, 1} from the repeated template judge', async () => {
    for (const task of TASK_IDS) {
      const env = new DialogueEnv(task, { protocol: 'ppdpp' });
      expect(env.horizon).toBe(getTask(task).ppdppHorizon);
      const ep = await runEpisode(env, createPolicy(task, 'random'), first(task), { policySeed: 5 });
      expect(ep.turns.length).toBeLessThanOrEqual(getTask(task).ppdppHorizon);
      for (const t of ep.turns) expect(PPDPP_REWARDS).toContain(t.reward);
      expect(ep.return).toBeCloseTo(
        ep.turns.reduce((s, t) => s + t.reward, 0),
        9,
      );
    }
  });

  /** A judge whose per-turn answers follow a script (one reward per call). */
  function scriptedJudge(rewards: number[]): Judge & { inputs: JudgeInput[] } {
    let i = 0;
    const inputs: JudgeInput[] = [];
    return {
      inputs,
      async terminal() {
        return { utility: 0.25, success: false, scores: {} };
      },
      async turn(input): Promise<TurnJudgment> {
        inputs.push(input);
        const reward = rewards[i++ % rewards.length] as number;
        return { labels: [String(reward)], reward, success: reward > 0.5 };
      },
    };
  }

  it('averages the l samples of the critic, and ends with success when the mean exceeds 0.5', async () => {
    // Samples: turn 1 → 1, 1, −0.5 (mean 0.5: no success); turn 2 → 1, 1, 0.5 (mean 5/6: success).
    const inner = scriptedJudge([1, 1, -0.5, 1, 1, 0.5]);
    const env = new DialogueEnv('p4g', { protocol: 'ppdpp', judge: repeatedJudge(inner, 3) });
    env.reset({ seed: first('p4g') });
    const a = await env.step({ strategy: 'Other', utterance: 'Okay.' });
    expect(a.reward).toBe(0.5);
    expect(a).toMatchObject({ terminated: false, truncated: false });
    expect(a.info.turnJudgment).toEqual({ labels: ['1', '1', '-0.5'], reward: 0.5, success: false });
    const b = await env.step({ strategy: 'Other', utterance: 'Okay.' });
    expect(b.reward).toBeCloseTo(5 / 6, 12);
    expect(b).toMatchObject({ terminated: true, truncated: false });
    // The episode's reward is the critic's, not the terminal utility (0.25 here).
    expect(b.info.terminal?.utility).toBe(0.25);
    expect(inner.inputs).toHaveLength(6);
    await expect(env.step({ strategy: 'Other', utterance: 'Okay.' })).rejects.toThrow(
      expect.objectContaining({ name: 'StateUpdateRejectedError', code: 'ENV_STATE_INVALID' }),
    );
  });

  it('truncates at the PPDPP horizon without success', async () => {
    const env = new DialogueEnv('esconv', { protocol: 'ppdpp', judge: scriptedJudge([-0.5]) });
    env.reset({ seed: first('esconv') });
    let last: StepResult | undefined;
    for (let i = 0; i < 8; i++) last = await env.step({ strategy: 'Others', utterance: 'Okay.' });
    expect(last).toMatchObject({ reward: -0.5, terminated: false, truncated: true });
    expect(last?.info.endReason).toBe('horizon');
  });
});

describe('DialogueEnv errors', () => {
  it('throws StateUpdateRejectedError before reset and after the end', async () => {
    const env = new DialogueEnv('cb');
    await expect(env.step({ strategy: 'other', utterance: 'Hi.' })).rejects.toThrow(
      expect.objectContaining({ name: 'StateUpdateRejectedError', code: 'ENV_STATE_INVALID' }),
    );
    expect(() => env.checkpoint()).toThrow(
      expect.objectContaining({ name: 'StateUpdateRejectedError', code: 'ENV_STATE_INVALID' }),
    );
    env.reset({ seed: first('cb') });
    await env.step({ strategy: 'stance', utterance: 'No thanks, I will pass.' });
    await expect(env.step({ strategy: 'other', utterance: 'Hi.' })).rejects.toThrow(
      /after the episode ended/,
    );
    // A new reset starts over.
    expect(env.reset({ seed: first('cb') }).observation.turn).toBe(0);
  });

  it('rejects an empty utterance with an InputError and stays usable', async () => {
    const env = new DialogueEnv('esconv');
    env.reset({ seed: first('esconv') });
    await expect(env.step({ strategy: 'Question', utterance: '' })).rejects.toThrow(
      expect.objectContaining({ name: 'InputError', code: 'ENV_ACTION_INVALID' }),
    );
    await expect(env.step({ strategy: 'Question', utterance: '  \n ' })).rejects.toThrow(
      expect.objectContaining({ name: 'InputError', code: 'ENV_ACTION_INVALID' }),
    );
    await expect(
      env.step({ strategy: 'Question', utterance: undefined as unknown as string }),
    ).rejects.toThrow(expect.objectContaining({ name: 'InputError', code: 'ENV_ACTION_INVALID' }));
    const r = await env.step({ strategy: 'Question', utterance: 'What happened?' });
    expect(r.observation.turn).toBe(1);
  });

  it("refuses a strategy that is not one of the task's labels, naming it and listing the labels", async () => {
    for (const task of TASK_IDS) {
      const env = new DialogueEnv(task);
      env.reset({ seed: first(task) });
      const labels = getTask(task).strategies;
      for (const bad of ['Emotion apeal', 'question', 'dose', `${labels[0]} `]) {
        const error = await env.step({ strategy: bad, utterance: 'Hello there.' }).catch((e: unknown) => e);
        expect(error).toMatchObject({ name: 'InputError', code: 'ENV_ACTION_INVALID', got: bad });
        const message = (error as Error).message;
        expect(message).toContain(
          `unknown strategy ${JSON.stringify(bad)} for ${task}: use one of ${labels.join(', ')};`,
        );
      }
      // Not a string at all (JavaScript callers): refused too.
      await expect(
        env.step({ strategy: undefined as unknown as string, utterance: 'Hello there.' }),
      ).rejects.toThrow(/unknown strategy of type undefined for/);
      // Every label of the task, none ('' or 'none') and a marked free-form strategy are played.
      for (const strategy of [...labels, '', 'none']) {
        env.reset({ seed: first(task) });
        expect((await env.step({ strategy, utterance: 'Hello there.' })).observation.turn).toBe(1);
      }
      env.reset({ seed: first(task) });
      const free = await env.step({ strategy: 'say hello', utterance: 'Hello there.', freeForm: true });
      expect(free.observation.history.at(-2)).toMatchObject({ speaker: 'actor', strategy: 'say hello' });
    }
  });

  it('a refused strategy leaves the environment as it was: the next step plays as if it never came', async () => {
    for (const protocol of ['cstpo', 'ppdpp'] as const) {
      const env = new DialogueEnv('p4g', { protocol });
      const fresh = new DialogueEnv('p4g', { protocol });
      env.reset({ seed: first('p4g'), rngSeed: 7 });
      fresh.reset({ seed: first('p4g'), rngSeed: 7 });
      const opening = { strategy: 'Greeting', utterance: 'Hi! How are you doing today?' };
      await env.step(opening);
      await fresh.step(opening);
      const before = env.checkpoint();
      await expect(
        env.step({ strategy: 'Guilt trip', utterance: 'Children are suffering. Will you give?' }),
      ).rejects.toThrow(expect.objectContaining({ name: 'InputError', code: 'ENV_ACTION_INVALID' }));
      expect(env.checkpoint()).toEqual(before);
      const next = { strategy: 'Emotion appeal', utterance: 'Children are suffering. Will you give?' };
      const played = await env.step(next);
      expect(played).toEqual(await fresh.step(next));
      expect(env.checkpoint()).toEqual(fresh.checkpoint());
    }
  });

  it('rejects a seed of another task and an invalid seed', () => {
    const env = new DialogueEnv('esconv');
    expect(() => env.reset({ seed: first('p4g') })).toThrow(/is for task p4g, not esconv/);
    const broken = { ...first('esconv'), randomSeed: -1 };
    expect(() => env.reset({ seed: broken })).toThrow(ZodError);
    expect(() => new DialogueEnv('chess' as TaskId)).toThrow(/unknown task "chess"/);
  });

  it('refuses to restore a checkpoint of another task, protocol or version', () => {
    const cbEnv = new DialogueEnv('cb');
    cbEnv.reset({ seed: first('cb') });
    const cp = cbEnv.checkpoint();
    expect(() => new DialogueEnv('p4g').restore(cp)).toThrow(/checkpoint is for task cb/);
    expect(() => new DialogueEnv('cb', { protocol: 'ppdpp' }).restore(cp)).toThrow(/protocol cstpo/);
    expect(() => cbEnv.restore({ ...cp, version: 2 as 1 })).toThrow(/unsupported checkpoint version 2/);
  });
});

/** Template roles wrapped in spies that record every utterance and history a role receives. */
function spyRoles(): {
  roles: SimRoles;
  seen: { role: string; utterance: string; history: readonly Turn[] }[];
} {
  const inner = templateSimRoles();
  const seen: { role: string; utterance: string; history: readonly Turn[] }[] = [];
  const note = (role: string, utterance: string, view: SimView) =>
    seen.push({ role, utterance, history: structuredClone(view.history) });
  return {
    seen,
    roles: {
      modeClassifier: {
        classify: (u, v) => (note('mode', u, v), inner.modeClassifier.classify(u, v)),
      },
      changeProposer: {
        assess: (u, v) => (note('assess', u, v), inner.changeProposer.assess(u, v)),
        propose: (u, v, r, j, a) => (note('propose', u, v), inner.changeProposer.propose(u, v, r, j, a)),
      },
      responder: {
        respond: (input) => (note('respond', input.utterance, input.view), inner.responder.respond(input)),
      },
    },
  };
}

describe('role boundaries', () => {
  it('never puts latent state, the profile or private fields into an observation', async () => {
    for (const task of TASK_IDS) {
      for (const seed of DEFAULT_SEEDS[task].slice(0, 4)) {
        const env = new DialogueEnv(task);
        const observations: Observation[] = [env.reset({ seed }).observation];
        const policy = createPolicy(task, 'random');
        const rng = Rng.fromSeed(seed.randomSeed);
        for (let done = false; !done;) {
          const r = await env.step(await policy.act(observations.at(-1) as Observation, rng));
          observations.push(r.observation);
          done = r.terminated || r.truncated;
        }
        for (const obs of observations) {
          expect(latentKeysIn(obs)).toEqual([]);
          const json = JSON.stringify(obs);
          expect(json).not.toContain(seed.profile.persona);
          if (seed.userPrivate.situation) expect(json).not.toContain(seed.userPrivate.situation);
          if (seed.userPrivate.itemDescription) expect(json).not.toContain(seed.userPrivate.itemDescription);
        }
      }
    }
    // The check itself can fail: the simulator's state is full of such keys.
    const env = new DialogueEnv('cb');
    expect(latentKeysIn(env.reset({ seed: first('cb') }).info)).toContain('reservationPrice');
  });

  it('gives the simulator roles the utterance text only and a history without strategy labels', async () => {
    for (const task of TASK_IDS) {
      const spy = spyRoles();
      const env = new DialogueEnv(task, { roles: spy.roles });
      const seed = DEFAULT_SEEDS[task][1] as Seed;
      let obs = env.reset({ seed }).observation;
      const policy = createPolicy(task, 'replay');
      policy.begin?.({ seedId: seed.id, reference: seed.reference });
      const rng = Rng.fromSeed(3);
      const sent: string[] = [];
      for (let done = false; !done;) {
        const action = await policy.act(obs, rng);
        sent.push(action.utterance);
        const r = await env.step(action);
        obs = r.observation;
        done = r.terminated || r.truncated;
        // What the roles saw this turn: the exact text, and the history before it with labels stripped.
        const before = obs.history.slice(0, -2).map((t) => ({ speaker: t.speaker, text: t.text }));
        const thisTurn = spy.seen.splice(0);
        expect(thisTurn.length).toBeGreaterThanOrEqual(2);
        for (const s of thisTurn) {
          expect(s.utterance).toBe(action.utterance);
          expect(s.history).toEqual(before);
          for (const t of s.history) expect(Object.keys(t).sort()).toEqual(['speaker', 'text']);
        }
      }
      // The actor's own history does carry its labels (the check above is not vacuous).
      expect(obs.history.filter((t) => t.speaker === 'actor').every((t) => t.strategy !== undefined)).toBe(
        true,
      );
      expect(sent.length).toBeGreaterThan(0);
    }
  });

  it('gives the judge the transcript text, public events and the public task view only', async () => {
    const inputs: JudgeInput[] = [];
    const inner = new TemplateJudge();
    const judge: Judge = {
      terminal: (input) => (inputs.push(structuredClone(input)), inner.terminal(input)),
      turn: (input) => (inputs.push(structuredClone(input)), inner.turn(input)),
    };
    for (const task of TASK_IDS) {
      for (const protocol of ['cstpo', 'ppdpp'] as const) {
        const env = new DialogueEnv(task, { judge, protocol });
        await runEpisode(env, createPolicy(task, 'random'), first(task), { policySeed: 9 });
      }
    }
    expect(inputs.length).toBeGreaterThan(6);
    for (const input of inputs) {
      expect(Object.keys(input).sort()).toEqual(['actorView', 'events', 'task', 'transcript']);
      expect(latentKeysIn(input)).toEqual([]);
      for (const t of input.transcript) expect(Object.keys(t).sort()).toEqual(['speaker', 'text']);
    }
  });
});
