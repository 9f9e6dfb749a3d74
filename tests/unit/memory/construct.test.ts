import { describe, expect, it } from 'vitest';
import { RandomPolicy, TemplateRealizer } from '../../../src/agents';
import { runEpisode } from '../../../src/agents/rollout';
import { planEpisodes } from '../../../src/seeding';
import { DialogueEnv, type Action, type EnvCheckpoint, type StepResult } from '../../../src/env';
import { ScriptedBackend } from '../../../src/llm';
import {
  LlmWriter,
  checkpointLine,
  constructionHeader,
  constructPrinciples,
  parseConstructionCheckpoint,
  selfPlayEpisode,
  TemplateReviser,
  TemplateWriter,
  type ConstructionOptions,
  type StrategyReviser,
  type Trial,
} from '../../../src/memory';
import type { Observation } from '../../../src/env';
import type { Rng } from '../../../src/rng';
import { defaultSeeds } from '../../../src/tasks/defaults';
import type { TaskId } from '../../../src/tasks';
import { SIMULATOR_VERSION } from '../../../src/sim/version';
import { CheckpointError } from '../../../src/errors';

/** An environment that records its complete state at the start and the end of every step. */
class RecordingEnv extends DialogueEnv {
  readonly starts: EnvCheckpoint[] = [];
  readonly ends: EnvCheckpoint[] = [];
  override async step(action: Action): Promise<StepResult> {
    this.starts.push(this.checkpoint());
    const result = await super.step(action);
    this.ends.push(this.checkpoint());
    return result;
  }
}

/** The template reviser, recording what it was told. */
class SpyReviser implements StrategyReviser {
  readonly name = 'spy';
  readonly told: Trial[][] = [];
  private readonly inner = new TemplateReviser();
  async revise(observation: Observation, failures: readonly Trial[], rng: Rng): Promise<string> {
    this.told.push([...failures]);
    return this.inner.revise(observation, failures, rng);
  }
}

function options(
  task: TaskId,
  env: DialogueEnv,
  reviser: StrategyReviser = new TemplateReviser(),
): ConstructionOptions {
  return {
    env,
    actor: new RandomPolicy(task),
    realizer: new TemplateRealizer(),
    reviser,
    writer: new TemplateWriter(),
  };
}

describe('self-play construction with backtracking', () => {
  it('restores the exact pre-failure state before every revision attempt (deep-equal)', async () => {
    const env = new RecordingEnv('esconv', { protocol: 'ppdpp' });
    const reviser = new SpyReviser();
    let revised = 0;
    let failed = 0;
    for (const [i, seed] of defaultSeeds('esconv').slice(0, 4).entries()) {
      env.starts.length = 0;
      env.ends.length = 0;
      reviser.told.length = 0;
      let call = 0;
      const episode = await selfPlayEpisode(options('esconv', env, reviser), seed, { policySeed: i });
      let step = 0;
      episode.turns.forEach((turn, t) => {
        const first = step;
        expect(env.ends[first]).not.toEqual(env.starts[first]); // the original attempt changed the state
        for (let a = 1; a < turn.attempts.length; a++) {
          // Every retry starts from the checkpoint before the failure: dialogue, cognitive state, events, RNG.
          expect(env.starts[first + a]).toEqual(env.starts[first]);
          expect(env.starts[first + a]!.sim.rng).toEqual(env.starts[first]!.sim.rng);
          // ... and the reviser was told every failed trial of the turn so far, the original included.
          expect(reviser.told[call++]).toEqual(turn.attempts.slice(0, a));
        }
        step += turn.attempts.length;
        const next = env.starts[step] ?? null;
        if (next === null) return;
        // The dialogue goes on from the kept attempt: the successful one, or the original after all failed.
        const kept = turn.status === 'failed' ? first : step - 1;
        expect(next, `turn ${t} (${turn.status}) continues from attempt ${kept - first}`).toEqual(
          env.ends[kept],
        );
        if (turn.status === 'revised') revised++;
        if (turn.status === 'failed') failed++;
      });
      expect(step).toBe(env.starts.length);
      expect(call).toBe(reviser.told.length);
    }
    expect(revised).toBeGreaterThan(0);
    expect(failed).toBeGreaterThan(0);
  });

  it('writes success and revision principles consistent with the critic', async () => {
    const env = new DialogueEnv('p4g', { protocol: 'ppdpp' });
    const { principles, episodes } = await constructPrinciples(options('p4g', env), {
      seeds: defaultSeeds('p4g'),
      episodes: 6,
    });
    const turns = episodes.flatMap((e) => e.turns);
    expect(principles.map((p) => p.id)).toEqual(turns.filter((t) => t.principleId).map((t) => t.principleId));
    for (const turn of turns) {
      const last = turn.attempts.at(-1)!;
      const strategies = turn.attempts.map((a) => a.strategy);
      if (turn.status === 'success') expect(turn.attempts).toHaveLength(1);
      if (turn.status !== 'success') expect(turn.attempts[0]!.reward).toBeLessThanOrEqual(turn.rewardBefore);
      if (turn.status === 'revised') expect(last.reward).toBeGreaterThan(turn.rewardBefore);
      if (turn.status === 'failed') {
        expect(turn.attempts).toHaveLength(4); // the original and 3 revisions
        for (const a of turn.attempts) expect(a.reward).toBeLessThanOrEqual(turn.rewardBefore);
      }
      if (turn.status !== 'success') expect(new Set(strategies).size).toBe(strategies.length); // revisions differ
      const p = principles.find((x) => x.id === turn.principleId);
      if (!p) continue;
      expect(p.provenance).toMatchObject({
        task: 'p4g',
        turn: turn.turn,
        rewardBefore: turn.rewardBefore,
        rewardAfter: last.reward,
      });
      expect(p.strategy).toBe(last.strategy);
      expect(p.provenance.utterance).toBe(last.utterance);
      if (turn.status === 'revised') {
        expect(p.provenance.origin).toBe('revision');
        expect(p.ratherThan).toBeDefined();
        expect(p.failedStrategies).toEqual([...new Set(strategies.slice(0, -1))]);
        for (const f of p.failedStrategies) expect(p.ratherThan).toContain(f);
      } else {
        expect(p.provenance.origin).toBe('success');
        expect(p.ratherThan).toBeUndefined();
      }
    }
    expect(turns.some((t) => t.status === 'revised')).toBe(true);
    expect(turns.some((t) => t.status === 'success')).toBe(true);
  });

  it('is deterministic, and maxAttempts 0 turns revision off', async () => {
    const run = (maxAttempts?: number) =>
      constructPrinciples(
        {
          ...options('cb', new DialogueEnv('cb', { protocol: 'ppdpp' })),
          ...(maxAttempts !== undefined ? { maxAttempts } : {}),
        },
        { seeds: defaultSeeds('cb'), episodes: 5, baseSeed: 3 },
      );
    const a = await run();
    expect(await run()).toEqual(a);
    const none = await run(0);
    expect(none.principles.every((p) => p.provenance.origin === 'success')).toBe(true);
    expect(none.episodes.flatMap((e) => e.turns).every((t) => t.attempts.length === 1)).toBe(true);
  });

  it("writes the LLM writer's principles, validated, with the provenance of the turn", async () => {
    const answer = JSON.stringify({
      when: 'When the persuadee hesitates',
      should: 'tell a short personal story',
      ratherThan: 'rather than repeating the request',
      because: 'stories lower resistance.',
    });
    const backend = new ScriptedBackend(Array.from({ length: 200 }, () => answer));
    const env = new DialogueEnv('p4g', { protocol: 'ppdpp' });
    const { principles, episodes } = await constructPrinciples(
      { ...options('p4g', env), writer: new LlmWriter({ backend, seed: 1 }) },
      { seeds: defaultSeeds('p4g'), episodes: 2 },
    );
    expect(principles.length).toBeGreaterThan(0);
    expect(backend.requests).toHaveLength(principles.length);
    for (const p of principles) {
      expect(p).toMatchObject({
        when: 'the persuadee hesitates',
        should: 'tell a short personal story',
        because: 'stories lower resistance',
      });
      expect(p.ratherThan).toBe(p.provenance.origin === 'revision' ? 'repeating the request' : undefined);
    }
    expect(episodes.flatMap((e) => e.turns).filter((t) => t.principleId).length).toBe(principles.length);
  });

  it('plays the one episode plan: episode i is seed i mod N, repeat ⌊i / N⌋, with its case streams', async () => {
    const seeds = defaultSeeds('cb').slice(0, 3);
    const job = { seeds, episodes: 5, baseSeed: 4 };
    const { episodes } = await constructPrinciples(
      options('cb', new DialogueEnv('cb', { protocol: 'ppdpp' })),
      job,
    );
    const plan = [...planEpisodes(seeds, { rngSeed: 4, task: 'cb', episodes: 5 })];
    expect(episodes.map((e) => e.seedId)).toEqual(plan.map((p) => p.seed.id));
    for (const [i, planned] of plan.entries()) {
      const alone = await selfPlayEpisode(
        options('cb', new DialogueEnv('cb', { protocol: 'ppdpp' })),
        planned.seed,
        {
          rngSeed: planned.streams.simSeed,
          policySeed: planned.streams.policySeed,
        },
      );
      expect(episodes[i]).toEqual(alone);
    }
    // The repeat of a seed meets another user draw than its first episode (its own case streams).
    expect(episodes[3]!.turns).not.toEqual(episodes[0]!.turns);
  });

  it('plays through the one play loop: without revisions its turns are the plain policy turns', async () => {
    // With maxAttempts 0 a failed turn is kept as it was, so the kept turns are exactly those of runEpisode with
    // the same policy and streams.
    const seed = defaultSeeds('p4g')[1]!;
    const streams = { rngSeed: 17, policySeed: 23 };
    const episode = await selfPlayEpisode(
      { ...options('p4g', new DialogueEnv('p4g', { protocol: 'ppdpp' })), maxAttempts: 0 },
      seed,
      streams,
    );
    const record = await runEpisode(
      new DialogueEnv('p4g', { protocol: 'ppdpp' }),
      new RandomPolicy('p4g'),
      seed,
      streams,
    );
    expect(episode.turns.every((t) => t.attempts.length === 1)).toBe(true);
    expect(new Set(episode.turns.map((t) => t.status))).toEqual(new Set(['success', 'failed']));
    expect(episode.turns.map((t) => t.attempts[0]!.utterance)).toEqual(
      record.turns.map((t) => t.action.utterance),
    );
    expect(episode.turns.map((t) => t.attempts[0]!.reward)).toEqual(record.turns.map((t) => t.reward));
  });

  it('needs per-turn rewards and valid arguments', async () => {
    const cstpo = options('esconv', new DialogueEnv('esconv'));
    await expect(selfPlayEpisode(cstpo, defaultSeeds('esconv')[0]!, { policySeed: 0 })).rejects.toThrow(
      expect.objectContaining({ name: 'InputError', code: 'MEMORY_CONSTRUCTION_INVALID' }),
    );
    const ok = options('esconv', new DialogueEnv('esconv', { protocol: 'ppdpp' }));
    await expect(constructPrinciples(ok, { seeds: [], episodes: 1 })).rejects.toThrow(/no seeds/);
    await expect(constructPrinciples(ok, { seeds: defaultSeeds('esconv'), episodes: 0 })).rejects.toThrow(
      /positive/,
    );
    await expect(
      selfPlayEpisode({ ...ok, maxAttempts: -1 }, defaultSeeds('esconv')[0]!, { policySeed: 0 }),
    ).rejects.toThrow(/maxAttempts/);
  });

  it('resumes an interrupted build from its checkpoint to the same principles as an uninterrupted one', async () => {
    const job = { seeds: defaultSeeds('cb'), episodes: 5, baseSeed: 3 };
    const make = () => options('cb', new DialogueEnv('cb', { protocol: 'ppdpp' }));
    const straight = await constructPrinciples(make(), job);
    const first = make();
    let text = checkpointLine(constructionHeader(first, job));
    const killed = new Error('killed');
    const interrupted = constructPrinciples(first, {
      ...job,
      onEpisode: (episode, i) => {
        text += checkpointLine(episode);
        if (i === 1) throw killed;
      },
    });
    await expect(interrupted).rejects.toBe(killed);
    text += checkpointLine(straight.episodes[2]!).slice(0, 40); // a line cut by the interruption
    const second = make();
    const completed = parseConstructionCheckpoint(text, 'build.jsonl', constructionHeader(second, job));
    expect(completed.map((e) => e.seedId)).toEqual(straight.episodes.slice(0, 2).map((e) => e.seedId));
    const ran: number[] = [];
    const resumed = await constructPrinciples(second, {
      ...job,
      completed,
      onEpisode: (_e, i) => void ran.push(i),
    });
    expect(ran).toEqual([2, 3, 4]);
    expect(resumed).toEqual(straight);
    expect(resumed.principles.length).toBeGreaterThan(0);
  });

  it('refuses a checkpoint of another build or a damaged one, naming the file and line', async () => {
    const job = { seeds: defaultSeeds('cb'), episodes: 3 };
    const opts = options('cb', new DialogueEnv('cb', { protocol: 'ppdpp' }));
    const header = constructionHeader(opts, job);
    const other = checkpointLine({ ...header, baseSeed: 9 });
    expect(() => parseConstructionCheckpoint(other, 'b.jsonl', header)).toThrow(
      'b.jsonl line 1: made by another build: baseSeed is 9, this build has 0',
    );
    // The episode count is not the build's identity: a resume may go on to another count, not below what it holds.
    const started =
      checkpointLine({ ...header, episodes: 1 }) +
      checkpointLine({ seedId: job.seeds[0]!.id, turns: [], principles: [] });
    expect(parseConstructionCheckpoint(started, 'b.jsonl', header)).toHaveLength(1);
    const ahead =
      checkpointLine({ ...header, episodes: 9 }) +
      [0, 1, 2, 3]
        .map((i) => checkpointLine({ seedId: job.seeds[i]!.id, turns: [], principles: [] }))
        .join('');
    expect(() => parseConstructionCheckpoint(ahead, 'b.jsonl', header)).toThrow(
      'b.jsonl: holds 4 finished episodes, more than the 3 this build plays: give episodes 4 or more to resume it',
    );
    // Episodes played on another simulator version are not resumed on this one.
    expect(header.simulatorVersion).toBe(SIMULATOR_VERSION);
    const otherSim = checkpointLine({ ...header, simulatorVersion: 'cogsim-000000000000' });
    expect(() => parseConstructionCheckpoint(otherSim, 'b.jsonl', header)).toThrow(
      `b.jsonl line 1: made by another build: simulatorVersion is "cogsim-000000000000", this build has "${SIMULATOR_VERSION}"`,
    );
    const damaged = checkpointLine(header) + '{"seedId": \n' + '{}\n';
    const error = (() => {
      try {
        parseConstructionCheckpoint(damaged, 'b.jsonl', header);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toMatchObject({ name: 'CheckpointError', code: 'MEMORY_CHECKPOINT_DAMAGED' });
    expect((error as CheckpointError).code).toBe('MEMORY_CHECKPOINT_DAMAGED');
    expect((error as Error).message).toBe('b.jsonl line 2: not a JSON object (the file is damaged)');
    // A checkpoint of the earlier format (its episodes had other random streams) is not resumed.
    expect(() =>
      parseConstructionCheckpoint(checkpointLine({ ...header, version: 1 } as never), 'b.jsonl', header),
    ).toThrow(
      'b.jsonl line 1: made by an earlier release, whose self-play episodes had other random streams: start the build again',
    );
    const wrongSeed = checkpointLine(header) + checkpointLine({ seedId: 'x', turns: [], principles: [] });
    expect(() => parseConstructionCheckpoint(wrongSeed, 'b.jsonl', header)).toThrow(
      `b.jsonl line 2: not episode 1 of this build (seed ${job.seeds[0]!.id})`,
    );
    expect(parseConstructionCheckpoint('', 'b.jsonl', header)).toEqual([]);
    await expect(
      constructPrinciples(opts, { ...job, completed: [{ seedId: 'x', turns: [], principles: [] }] }),
    ).rejects.toMatchObject({ name: 'InputError', code: 'MEMORY_CONSTRUCTION_INVALID' });
  });
});
