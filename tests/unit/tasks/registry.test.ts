/**
 * The task registry (docs/architecture.md "Tasks as folders"): every registered task definition is complete and
 * consistent with itself (labels, rules, prompts, validity hooks, default seeds agree), the registry lists exactly
 * the task folders of src/tasks (so adding a task is its folder and one registry line), and a task folder imports
 * nothing above src/tasks.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getTask, registeredTasks } from '../../../src/tasks/registry';
import { normalizeLabel } from '../../../src/tasks/labels';
import { SeedSchema, TASK_IDS } from '../../../src/tasks/seed';
import { SUCCESS_TEXT } from '../../../src/tasks/success';
import { DEFAULT_SEEDS } from '../../../src/tasks/defaults';
import { TASK_RULES } from '../../../src/sim/rules';
import type { TaskDefinition } from '../../../src/tasks/types';

const TASKS_DIR = resolve(__dirname, '../../../src/tasks');
const IMPORT = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** The folders of src/tasks that hold a task (an `index.ts`), sorted. */
function taskFolders(): string[] {
  return readdirSync(TASKS_DIR)
    .filter((name) => statSync(join(TASKS_DIR, name)).isDirectory())
    .filter((name) => readdirSync(join(TASKS_DIR, name)).includes('index.ts'))
    .filter((name) => name !== 'defaults')
    .sort();
}

/** Every problem of one definition, in words (empty when it is complete and consistent). */
function problems(t: TaskDefinition): string[] {
  const out: string[] = [];
  const strategies = new Set(t.strategies);
  const check = (ok: boolean, what: string) => {
    if (!ok) out.push(what);
  };
  check(strategies.size === t.strategies.length && t.strategies.length > 0, 'strategies empty or repeated');
  for (const merged of t.rawLabelMap.values())
    check(strategies.has(merged), `rawLabelMap → "${merged}" unknown`);
  for (const s of t.strategies)
    check(t.rawLabelMap.get(normalizeLabel(s)) === s, `strategy "${s}" not in rawLabelMap`);
  check(strategies.has(t.otherStrategy), 'otherStrategy not a strategy');
  check(strategies.has(t.goalStrategy), 'goalStrategy not a strategy');
  check(t.title.length > 0 && t.actorRole.length > 0 && t.userRole.length > 0, 'title or roles empty');
  check(Number.isInteger(t.horizon) && t.horizon > 0, 'horizon');
  check(Number.isInteger(t.ppdppHorizon) && t.ppdppHorizon > 0, 'ppdppHorizon');
  check(Number.isInteger(t.checkpoints) && t.checkpoints > 0, 'checkpoints');
  const topics = new Set(Object.keys(t.topics));
  for (const [topic, phrases] of Object.entries(t.topics))
    check(phrases.length > 0 && phrases.every((p) => p === p.toLowerCase()), `topic ${topic} phrases`);
  for (const topic of [...t.rules.callToAction, ...t.rules.inquiryTopics])
    check(topics.has(topic), `rules topic "${topic}" not in the lexicon`);
  check(t.dynamics.affectScale >= 0 && t.dynamics.moodScale >= 0, 'dynamics scales negative');
  check(t.success.text.length > 0, 'success text empty');
  check(new Set(t.judge.turnLabels).size === 4, 'judge turnLabels not four distinct answers');
  check(t.judge.terminalQuestion.length > 0 && t.judge.turnQuestion.length > 0, 'judge questions empty');
  check(
    t.prompts.setting.length > 0 && t.prompts.userQuit.length > 0 && t.prompts.userEnd.length > 0,
    'prompts',
  );
  check(
    [...Object.keys(t.prompts.miInstructions)].sort().join('|') === [...t.strategies].sort().join('|'),
    'miInstructions do not cover exactly the strategies',
  );
  for (const s of Object.values(t.prompts.argStrategy))
    check(strategies.has(s), `argStrategy "${s}" unknown`);
  check(t.prompts.argNeeds('topic').length === 2, 'argNeeds not two needs');
  const v = t.validity;
  check(new Set(v.reactions).size === v.reactions.length && v.reactions.length > 1, 'reactions');
  check(
    v.reactions.includes(v.positive) && v.reactions.includes(v.negative),
    'positive/negative not reactions',
  );
  check(v.positive !== v.negative, 'positive = negative');
  check((v.lean === undefined) === (v.refuse === undefined), 'lean without refuse or the reverse');
  check(
    (v.manyPrices === undefined) === t.capabilities.prices,
    'manyPrices present iff the task has no prices',
  );
  check(v.stuffing.length > 0 && v.wordSalad.length > 0 && v.reactionName.length > 0, 'validity texts');
  check(v.doseOutcome.length > 0, 'doseOutcome');
  check(v.doseLadder.levels.length >= 2, 'dose ladder under two levels');
  for (const level of v.doseLadder.levels) {
    check(level.utterances.length > 0, 'dose level without utterances');
    const priced = level.priceFraction !== undefined && level.utterances.every((u) => u.includes('{price}'));
    const unpriced =
      level.priceFraction === undefined && level.utterances.every((u) => !u.includes('{price}'));
    check(t.capabilities.prices ? priced : unpriced, 'dose level prices disagree with capabilities.prices');
  }
  check(t.prompts.expert.length > 0, 'expert');
  check(t.defaultSeeds.length >= 14, 'fewer than 14 default seeds');
  for (const seed of t.defaultSeeds) {
    check(seed.task === t.id, `seed ${seed.id} of task ${seed.task}`);
    check(SeedSchema.safeParse(seed).success, `seed ${seed.id} fails SeedSchema`);
    const ids = (records: readonly { id: string }[]) => new Set(records.map((r) => r.id));
    const intentions = ids(seed.cognitive.intentions);
    check(intentions.has(t.rules.goalIntention), `seed ${seed.id} lacks ${t.rules.goalIntention}`);
    check(intentions.has(t.rules.againstIntention), `seed ${seed.id} lacks ${t.rules.againstIntention}`);
    check(
      ids(seed.cognitive.beliefs).has(t.rules.rapportBelief),
      `seed ${seed.id} lacks ${t.rules.rapportBelief}`,
    );
    // A task with prices gives the buyer a list and a target price, and the seller a reservation price.
    const priced =
      seed.actorView.listPrice !== undefined &&
      seed.actorView.targetPrice !== undefined &&
      seed.userPrivate.reservationPrice !== undefined;
    check(priced === t.capabilities.prices, `seed ${seed.id} prices disagree with capabilities.prices`);
  }
  return out;
}

describe('task registry', () => {
  it('lists exactly the task folders of src/tasks, each under its folder name, in TASK_IDS order', () => {
    const ids = registeredTasks().map((t) => t.id);
    expect(ids).toEqual([...TASK_IDS]);
    expect([...ids].sort()).toEqual(taskFolders());
    for (const id of ids) expect(getTask(id).id).toBe(id);
  });

  it.each(TASK_IDS)('%s: the definition is complete and consistent', (id) => {
    expect(problems(getTask(id))).toEqual([]);
  });

  it('the consistency check can fail (a broken definition is reported)', () => {
    const good = getTask('p4g');
    const broken: TaskDefinition = {
      ...good,
      otherStrategy: 'Nothing',
      prompts: { ...good.prompts, miInstructions: { Greeting: 'Hello.' } },
      validity: { ...good.validity, positive: 'glad' },
      rules: { ...good.rules, goalIntention: 'i-fly' },
    };
    const found = problems(broken);
    expect(found).toContain('otherStrategy not a strategy');
    expect(found).toContain('miInstructions do not cover exactly the strategies');
    expect(found).toContain('positive/negative not reactions');
    expect(found.some((p) => p.endsWith('lacks i-fly'))).toBe(true);
  });

  it('the by-id views read the definitions (no second copy)', () => {
    for (const t of registeredTasks()) {
      expect(SUCCESS_TEXT[t.id]).toBe(t.success.text);
      expect(TASK_RULES[t.id]).toBe(t.rules);
      expect(DEFAULT_SEEDS[t.id]).toBe(t.defaultSeeds);
    }
  });

  it('success rules read their own scores and say which one is missing', () => {
    expect(getTask('esconv').success.isSuccess({ E: 3, A: 2 })).toBe(true);
    expect(getTask('esconv').success.isSuccess({ E: 3, A: 1 })).toBe(false);
    expect(getTask('p4g').success.isSuccess({ committed: true, withdrawn: false })).toBe(true);
    expect(getTask('cb').success.isSuccess({ deal: true, utility: 0 })).toBe(false);
    for (const t of registeredTasks())
      expect(() => t.success.isSuccess({})).toThrow(
        expect.objectContaining({ name: 'InputError', code: 'SUCCESS_INPUT' }),
      );
  });

  it('a task folder imports only src/tasks and src/errors (it stays at the low layer)', () => {
    const outside: string[] = [];
    for (const folder of taskFolders()) {
      const dir = join(TASKS_DIR, folder);
      for (const name of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
        const file = join(dir, name);
        for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
          const target = relative(resolve(TASKS_DIR, '..'), resolve(dirname(file), m[1] ?? ''));
          const top = target.split(sep)[0];
          if (top !== 'tasks' && top !== 'errors') outside.push(`${folder}/${name} → ${m[1]}`);
        }
      }
    }
    expect(outside).toEqual([]);
  });
});
