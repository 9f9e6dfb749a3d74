import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hashKey32, loadCb, loadEsconv, loadP4g } from '../../../src/data';
import type { Seed, TaskId } from '../../../src/tasks/seed';
import { NoChangeProposer, personaSimRoles } from '../../../src/baselines';
import {
  DEFAULT_LADDERS,
  DoseLaddersSchema,
  distinctN,
  evaluate,
  isMonotoneRise,
  ladderDoseResponse,
  levelUtterance,
  planEvaluation,
  reportToJson,
  reportToMarkdown,
  type SimulatorUnderTest,
} from '../../../src/eval';
import { DialogueEnv } from '../../../src/env/env';
import { ScriptedBackend } from '../../../src/llm';
import type { Responder } from '../../../src/sim/roles';
import { TemplateModeClassifier } from '../../../src/sim/template';
import { defaultSeeds } from '../../../src/tasks/defaults';
import { doseRow } from '../../../src/eval/dose';

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

const deaf = ruleSimulator('deaf', () => 'Okay.');
const seeds = defaultSeeds('esconv').slice(0, 5);

describe('evaluate --validate: the one dose–response check (the ladders validate-sim runs)', () => {
  it('reports every task monotone, on at least 90 percent of the bundled seeds, in JSON and Markdown', async () => {
    const tasks: TaskId[] = ['esconv', 'p4g', 'cb'];
    const plan = planEvaluation({
      tasks,
      policies: ['random'],
      seedSets: tasks.map((task) => ({ task, name: 'bundled', seeds: defaultSeeds(task) })),
      repeats: 1,
      resamples: 50,
      validate: true,
    });
    const { report } = await evaluate(plan);
    expect(report.validation.map((v) => v.task)).toEqual(tasks);
    for (const task of tasks) {
      const row = report.validation.find((v) => v.task === task)!;
      // The same row validate-sim reports for these seeds.
      expect(row).toEqual(await doseRow(task, defaultSeeds(task)));
      expect(row).toMatchObject({ ladder: 'default', seeds: defaultSeeds(task).length, monotone: true });
      expect(row.monotoneShare).toBeGreaterThanOrEqual(0.9);
    }
    const md = reportToMarkdown(report);
    expect(md).toContain('## Simulator validation (dose–response)');
    expect(md).not.toMatch(/\| no \|/);
    expect(JSON.parse(reportToJson(report)).validation).toHaveLength(3);
  });
});

describe('prompt-only comparators', () => {
  it('Persona-Resist answers from the persona prompt with a resistance instruction', async () => {
    const backend = new ScriptedBackend(['{"reply":"I feel worse and alone."}']);
    const env = new DialogueEnv('esconv', { roles: personaSimRoles({ backend }, 'persona-resist') });
    env.reset({ seed: seeds[0]! });
    const step = await env.step({ strategy: '', utterance: 'Just get over it.' });
    expect(step.info.sim.userUtterance).toBe('I feel worse and alone.');
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
    const step = await env.step({ strategy: '', utterance: 'You could try a walk this week.' });
    expect(step.info.sim.userUtterance).toBe('Fine.');
    expect(backend.requests[0]!.messages[0]!.content).not.toContain('hard to move');
    const after = step.info.state.cognitive;
    expect([after.beliefs, after.desires, after.intentions]).toEqual([
      before.beliefs,
      before.desires,
      before.intentions,
    ]);
  });
});

describe('dose ladders from one checkpoint per seed, deterministic route', () => {
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

  it('cb: a ladder whose offers never carry a currency sign is monotone on its own', async () => {
    const ladder = {
      levels: [0.55, 0.7, 0.85, 1].map((priceFraction) => ({
        utterances: ['Would you take {price} for it?', 'I can pay {price} for it.', '{price} is my offer.'],
        priceFraction,
      })),
    };
    const r = await ladderDoseResponse({ task: 'cb', seeds: defaultSeeds('cb'), ladder });
    console.log(
      `cb no sign: ${r.levelMeans.map((m) => m.toFixed(3)).join(' < ')}, monotone ${r.monotoneShare}`,
    );
    expect(r.monotoneShare).toBeGreaterThanOrEqual(0.9);
    expect(isMonotoneRise(r.levelMeans)).toBe(true);
  });

  it('esconv: warm support raises valence above a bare acknowledgement (neutral → warm step)', async () => {
    const [, neutral, warm] = DEFAULT_LADDERS.esconv.levels;
    const r = await ladderDoseResponse({
      task: 'esconv',
      seeds: defaultSeeds('esconv'),
      ladder: { levels: [neutral!, warm!] },
    });
    const rises = Object.values(r.perSeed).filter(([a, b]) => b! > a! + 1e-9).length / r.seeds;
    console.log(
      `esconv neutral → warm: ${r.levelMeans.map((m) => m.toFixed(3)).join(' → ')}, strict rise ${rises}`,
    );
    expect(rises).toBeGreaterThanOrEqual(0.9);
    expect(r.levelMeans[1]!).toBeGreaterThan(r.levelMeans[0]!);
  });

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
    expect(() => distinctN(['x'], 0)).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'EVAL_INPUT_INVALID' }),
    );
  });
});
