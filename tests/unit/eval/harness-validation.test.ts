import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hashKey32, loadCb, loadEsconv, loadP4g } from '../../../src/data';
import type { Seed, TaskId } from '../../../src/tasks/seed';
import { NoChangeProposer, personaSimRoles } from '../../../src/baselines';
import {
  DEFAULT_LADDERS,
  DOSE_LEVELS,
  DoseLaddersSchema,
  EvalInputError,
  distinctN,
  isMonotoneRise,
  ladderDoseResponse,
  levelUtterance,
  LlmResponseScorer,
  TemplateResponseScorer,
  doseResponse,
  type SimulatorUnderTest,
} from '../../../src/eval';
import { realizerContext } from '../../../src/agents/realizer';
import { DialogueEnv } from '../../../src/env/env';
import { ScriptedBackend } from '../../../src/llm';
import { Rng } from '../../../src/rng';
import type { Responder } from '../../../src/sim/roles';
import { TemplateModeClassifier } from '../../../src/sim/template';
import { defaultSeeds } from '../../../src/tasks/defaults';

/** A simulator whose reply depends only on the input's wording, through a fixed rule. */
function ruleSimulator(name: string, reply: (utterance: string) => string): SimulatorUnderTest {
  const responder: Responder = { respond: async (input) => reply(input.utterance) };
  return {
    name,
    roles: () => ({
      modeClassifier: new TemplateModeClassifier(),
      changeProposer: new NoChangeProposer(),
      responder,
    }),
  };
}

const responsive = ruleSimulator('responsive', (u) => {
  if (/small step/.test(u)) return 'Thank you, I feel better and hopeful. I am going to try it this week.';
  if (/hard|hurting/.test(u)) return 'Thank you, that helped.';
  if (/get over|worse/.test(u)) return 'That makes me feel worse and alone.';
  return 'Okay.';
});
const deaf = ruleSimulator('deaf', () => 'Okay.');
const seeds = defaultSeeds('esconv').slice(0, 5);

describe('dose-response validation', () => {
  it('orders the CB inputs as offers from the target to the list price', () => {
    const env = new DialogueEnv('cb');
    const { observation } = env.reset({ seed: defaultSeeds('cb')[0]! });
    const c = realizerContext(observation);
    const offers = DOSE_LEVELS.cb.map(([first]) => Number(/\$(\d+)/.exec(first(c))![1]));
    expect(offers[0]).toBe(Math.round(c.targetPrice));
    expect(offers[3]).toBe(Math.round(c.listPrice));
    expect(offers).toEqual([...offers].sort((a, b) => a - b));
  });

  it('scores a dose-responsive simulator as monotone (hand-checked level means)', async () => {
    const r = await doseResponse({ task: 'esconv', seeds, simulator: responsive, resamples: 100 });
    // Template scorer: the judge's AFINN sentiment clipped to ±3, + plan/2. Level 1: "worse" −3, "alone" −2 → −3;
    // level 2: 0; level 3: "thank" +2, "helped" +1 (a judge extra) → 3; level 4: clipped at 3, plus the firm plan with a time (4) / 2.
    expect(r.levelMeans).toEqual([-3, 0, 3, 5]);
    expect(r).toMatchObject({ simulator: 'responsive', checkpoints: 5, monotone: true, monotonicity: 1 });
    expect(r.spearman).toBeGreaterThan(0.9);
    expect(r.endpointChange).toMatchObject({ mean: 8, lo: 8, hi: 8, nClusters: 5 });
  });

  it('scores an input-insensitive simulator as flat', async () => {
    const r = await doseResponse({ task: 'esconv', seeds, simulator: deaf, resamples: 100 });
    expect(r).toMatchObject({ monotone: false, monotonicity: 0, spearman: 0, levelMeans: [0, 0, 0, 0] });
  });

  it("measures Cog-Sim's template roles (CB responds to the offer level)", async () => {
    const r = await doseResponse({ task: 'cb', seeds: defaultSeeds('cb'), resamples: 200 });
    expect(r.simulator).toBe('cog-sim');
    expect(r.monotone).toBe(true);
    expect(r.monotonicity).toBeGreaterThan(0.9);
    expect(r.endpointChange.lo).toBeGreaterThan(0);
  });

  it('rejects an empty or mismatched seed list', async () => {
    await expect(doseResponse({ task: 'p4g', seeds: [] })).rejects.toThrow(EvalInputError);
    await expect(doseResponse({ task: 'p4g', seeds })).rejects.toThrow(/is for esconv, not p4g/);
  });
});

describe('prompt-only comparators and the LLM scorer', () => {
  it('Persona-Resist answers from the persona prompt, and its replies are scored like any simulator', async () => {
    const levels = [
      'I feel worse and alone.',
      'Okay.',
      'That is fair.',
      'Thanks, I feel better and hopeful.',
    ];
    const script = seeds
      .slice(0, 2)
      .flatMap(() => levels.flatMap((l) => [JSON.stringify({ reply: l }), JSON.stringify({ reply: l })]));
    const backend = new ScriptedBackend(script);
    const r = await doseResponse({
      task: 'esconv',
      seeds: seeds.slice(0, 2),
      simulator: { name: 'persona-resist', roles: () => personaSimRoles({ backend }, 'persona-resist') },
      resamples: 100,
    });
    expect(backend.remaining).toBe(0);
    expect(r).toMatchObject({
      simulator: 'persona-resist',
      monotone: true,
      monotonicity: 1,
      levelMeans: [-3, 0, 2, 3],
    });
    const system = backend.requests[0]!.messages[0]!.content;
    expect(system).toContain(seeds[0]!.profile.persona);
    expect(system).toContain('You are hard to move');
    expect(backend.requests[0]!.messages[1]!.content).toContain('Just get over it.');
  });

  it('the plain Persona prompt has no resistance instruction, and its state does not change', async () => {
    const backend = new ScriptedBackend(['{"reply":"Fine."}']);
    const env = new DialogueEnv('esconv', { roles: personaSimRoles({ backend }) });
    env.reset({ seed: seeds[0]! });
    const before = env.checkpoint().sim.cognitive;
    const step = await env.step({ strategy: 'x', utterance: 'You could try a walk this week.' });
    expect(step.info.sim.userUtterance).toBe('Fine.');
    expect(backend.requests[0]!.messages[0]!.content).not.toContain('hard to move');
    const after = step.info.state.cognitive;
    expect([after.beliefs, after.desires, after.intentions]).toEqual([
      before.beliefs,
      before.desires,
      before.intentions,
    ]);
  });

  it('the LLM scorer returns the validated 1–5 rating, retrying an out-of-range one', async () => {
    const backend = new ScriptedBackend(['{"rating":7}', '{"rating":4}']);
    const env = new DialogueEnv('esconv');
    const { observation } = env.reset({ seed: seeds[0]! });
    const score = await new LlmResponseScorer({ backend }).score(
      { task: 'esconv', before: observation, utterance: 'Hi', reply: 'Thanks', events: [] },
      Rng.fromSeed(1),
    );
    expect(score).toBe(4);
    expect(backend.requests).toHaveLength(2);
    expect(new TemplateResponseScorer().name).toBe('template');
  });
});

describe('dose ladders (issue 9 shape) from one checkpoint per seed, deterministic route', () => {
  const DATA = `${fileURLToPath(new URL('../../../', import.meta.url))}../shared/data/`;
  const read = (f: string) => readFileSync(DATA + f, 'utf8');
  /** Fixed split of the real data by a hash of the dialogue id: 30 % held out, never used to tune the rules. */
  const heldOut = (s: Seed) => hashKey32(`split|${s.id}`) % 10 < 3;
  const real = (task: TaskId): Seed[] => {
    if (task === 'esconv')
      return loadEsconv(read('esconv/esconv-valid.jsonl'), 'esconv-valid.jsonl', { skipInvalid: true }).seeds;
    if (task === 'cb')
      return loadCb(read('cb/craigslistbargain-valid.jsonl'), 'craigslistbargain-valid.jsonl', {
        skipInvalid: true,
      }).seeds;
    const file = (name: string) => ({ name, text: read(`p4g/${name}`) });
    return loadP4g(
      { dialogs: file('p4g-dialogs.csv'), participants: file('p4g-participants.csv') },
      { skipInvalid: true },
    ).seeds;
  };

  it('the default ladders parse with the exported schema; bad ladder files are refused with a path', () => {
    expect(DoseLaddersSchema.parse(JSON.parse(JSON.stringify(DEFAULT_LADDERS)))).toEqual(DEFAULT_LADDERS);
    const noFraction = DoseLaddersSchema.safeParse({
      cb: { levels: [{ utterances: ['{price}?'] }, { utterances: ['{price}!'] }] },
    });
    expect(noFraction.success).toBe(false);
    expect(noFraction.error?.issues[0]?.path).toEqual(['cb', 'levels', 0, 'priceFraction']);
    expect(
      DoseLaddersSchema.safeParse({
        p4g: { levels: [{ utterances: ['a'], priceFraction: 0.5 }, { utterances: ['b'] }] },
      }).success,
    ).toBe(false);
    expect(
      DoseLaddersSchema.safeParse({ esconv: { levels: [{ utterances: ['only one level'] }] } }).success,
    ).toBe(false);
    expect(DoseLaddersSchema.safeParse({ chess: { levels: [] } }).success).toBe(false);
  });

  it('{price} becomes the rounded fraction of the list price, with the sign as written', () => {
    const level = { utterances: [], priceFraction: 0.85 };
    expect(levelUtterance('Would you take ${price}?', level, 999)).toBe('Would you take $849?');
    expect(levelUtterance('I can pay {price} dollars.', level, 1000)).toBe('I can pay 850 dollars.');
  });

  it.each(['esconv', 'p4g', 'cb'] as TaskId[])(
    '%s: monotone on at least 90 percent of the bundled seeds',
    async (task) => {
      const r = await ladderDoseResponse({ task, seeds: defaultSeeds(task) });
      console.log(
        `${task} bundled: ${r.levelMeans.map((m) => m.toFixed(3)).join(' < ')}, monotone ${r.monotoneShare}`,
      );
      expect(r.monotoneShare).toBeGreaterThanOrEqual(0.9);
      expect(isMonotoneRise(r.levelMeans)).toBe(true);
    },
  );

  it.each(['esconv', 'p4g', 'cb'] as TaskId[])(
    '%s: monotone on at least 90 percent of the held-out real seeds',
    async (task) => {
      const seeds = real(task).filter(heldOut).slice(0, 80);
      expect(seeds.length).toBeGreaterThanOrEqual(30);
      const r = await ladderDoseResponse({ task, seeds });
      console.log(
        `${task} held-out (${r.seeds}): ${r.levelMeans.map((m) => m.toFixed(3)).join(' < ')}, monotone ${r.monotoneShare}`,
      );
      expect(r.monotoneShare).toBeGreaterThanOrEqual(0.9);
      expect(isMonotoneRise(r.levelMeans)).toBe(true);
    },
  );

  it('a simulator that ignores its input is not monotone on any seed', async () => {
    const r = await ladderDoseResponse({ task: 'esconv', seeds: seeds.slice(0, 3), simulator: deaf });
    expect(r.monotoneShare).toBe(0);
  });

  it('isMonotoneRise needs no fall and a net rise', () => {
    expect(isMonotoneRise([0, 0, 1])).toBe(true);
    expect(isMonotoneRise([0, 0, 0])).toBe(false);
    expect(isMonotoneRise([0, 2, 1])).toBe(false);
    expect(isMonotoneRise([1])).toBe(false);
  });

  it('distinct-n counts distinct word n-grams over all n-grams', () => {
    expect(distinctN(['a b a b'], 1)).toBe(0.5);
    expect(distinctN(['a b a b'], 2)).toBeCloseTo(2 / 3, 12);
    expect(distinctN([], 2)).toBe(0);
    expect(() => distinctN(['x'], 0)).toThrow(EvalInputError);
  });
});
