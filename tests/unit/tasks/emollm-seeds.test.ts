/**
 * The bundled EmoLLM scenario seeds: at least 40 per setting, each valid under the seed schema and the
 * EmoLLM description schema, each genuinely different, and each playable by Cog-Sim with the rules of its task
 * family. The description schema refuses what it should.
 */
import { describe, expect, it } from 'vitest';
import { readData } from '../data/paths';
import { TASK_RULES } from '../../../src/sim/rules';
import {
  buildEmollmSeed,
  EMOLLM_SETTINGS,
  EmollmSeedSpecSchema,
  SeedSchema,
  taskFamily,
  type EmollmSeedSpec,
} from '../../../src/tasks';
import { EMOLLM_SEED_SPECS, defaultSeedsOf, emollmSeedSets } from '../../../src/tasks/defaults';

const ALL = EMOLLM_SETTINGS.flatMap((s) => EMOLLM_SEED_SPECS[s]);
const words = (t: string) => new Set(t.toLowerCase().match(/[a-z']+/g) ?? []);
function jaccard(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}

describe('bundled EmoLLM seeds', () => {
  it.each(EMOLLM_SETTINGS)('setting %s has at least 40 valid seeds of that setting', (setting) => {
    const specs = EMOLLM_SEED_SPECS[setting];
    expect(specs.length).toBeGreaterThanOrEqual(40);
    for (const spec of specs) {
      expect(EmollmSeedSpecSchema.safeParse(spec).success, spec.id).toBe(true);
      const seed = buildEmollmSeed(spec);
      expect(SeedSchema.safeParse(seed).success).toBe(true);
      expect(seed.scenario?.setting).toBe(setting);
      expect(seed.task).toBe('esconv');
      expect(seed.prefix).toEqual([{ speaker: 'user', text: spec.initial_prompt }]);
      expect(seed.actorView.goal).toBe(spec.scenario);
      expect(seed.scenario?.facts.length).toBe(spec.facts.length);
    }
  });

  it('ids, scenarios and opening utterances are unique across all 160', () => {
    expect(ALL.length).toBeGreaterThanOrEqual(160);
    for (const key of ['id', 'scenario', 'initial_prompt', 'persona'] as const)
      expect(new Set(ALL.map((s) => s[key])).size, key).toBe(ALL.length);
  });

  it('no two seeds of a setting share most of their words (opening, persona, facts: not templated)', () => {
    const text = (s: EmollmSeedSpec) =>
      [s.initial_prompt, s.persona, ...s.facts.map((f) => f.text)].join(' ');
    let worstPrompt = 0;
    let worstSeed = 0;
    for (const setting of EMOLLM_SETTINGS) {
      const specs = EMOLLM_SEED_SPECS[setting];
      for (let i = 0; i < specs.length; i++)
        for (let j = i + 1; j < specs.length; j++) {
          const a = specs[i] as EmollmSeedSpec;
          const b = specs[j] as EmollmSeedSpec;
          worstPrompt = Math.max(worstPrompt, jaccard(words(a.initial_prompt), words(b.initial_prompt)));
          worstSeed = Math.max(worstSeed, jaccard(words(text(a)), words(text(b))));
        }
    }
    expect(worstPrompt).toBeLessThan(0.4);
    expect(worstSeed).toBeLessThan(0.35);
  });

  it('every seed carries the records its task family’s rules key on, and an affect of its emotion', () => {
    const rules = TASK_RULES[taskFamily('emollm')];
    for (const seed of defaultSeedsOf('emollm')) {
      const ids = [...seed.cognitive.beliefs, ...seed.cognitive.desires, ...seed.cognitive.intentions].map(
        (r) => r.id,
      );
      for (const id of [rules.goalIntention, rules.againstIntention, rules.rapportBelief])
        expect(ids).toContain(id);
      expect(seed.cognitive.affect.category).toBe(seed.userPrivate.emotionType);
      expect(seed.cognitive.affect.valence).toBeLessThan(0);
    }
  });

  it('the appraisal sets the records: lower future expectancy, stronger hopelessness; more blame, stronger self-blame', () => {
    const base = EMOLLM_SEED_SPECS.ed[0] as EmollmSeedSpec;
    const strength = (spec: EmollmSeedSpec, id: string) =>
      buildEmollmSeed(spec).cognitive.beliefs.find((b) => b.id === id)?.strength ?? NaN;
    const darker = { ...base, appraisal: { ...base.appraisal, FE: -0.9 } };
    const lighter = { ...base, appraisal: { ...base.appraisal, FE: -0.1 } };
    expect(strength(darker, 'b-hopeless')).toBeGreaterThan(strength(lighter, 'b-hopeless'));
    const blamed = { ...base, appraisal: { ...base.appraisal, responsibility: 0.9 } };
    expect(strength(blamed, 'b-blame')).toBeGreaterThan(strength(base, 'b-blame'));
  });

  it('contain no sentence of the datasets available here (openings, scenarios, personas)', () => {
    const corpus = ['esconv/esconv-valid.jsonl', 'cb/craigslistbargain-valid.jsonl', 'p4g/p4g-dialogs.csv']
      .map((f) => readData(f).toLowerCase())
      .join('\n');
    for (const spec of ALL)
      for (const text of [spec.initial_prompt, spec.scenario, spec.persona])
        for (const sentence of text.toLowerCase().split(/(?<=[.!?])\s+/))
          if (sentence.length > 30) expect(corpus, spec.id).not.toContain(sentence);
  });

  it('emollm task names select the settings, and evaluation sets are named by setting', () => {
    expect(defaultSeedsOf('emollm-msd').every((s) => s.scenario?.setting === 'msd')).toBe(true);
    expect(defaultSeedsOf('emollm')).toHaveLength(ALL.length);
    expect(emollmSeedSets('emollm').map((s) => s.name)).toEqual([
      'emollm-ed',
      'emollm-msd',
      'emollm-medd',
      'emollm-iclr',
    ]);
  });
});

describe('EmoLLM seed description schema', () => {
  const good = EMOLLM_SEED_SPECS.medd[0] as EmollmSeedSpec;
  const issue = (spec: unknown) => {
    const r = EmollmSeedSpecSchema.safeParse(spec);
    return r.success ? null : `${r.error.issues[0]?.path.join('.')}: ${r.error.issues[0]?.message}`;
  };

  it('accepts a bundled seed', () => {
    expect(issue(good)).toBeNull();
  });

  it('refuses a negative emotion with a positive appraisal', () => {
    expect(issue({ ...good, appraisal: { GC: 0.5, CP: 0.4, FE: 0.3, responsibility: 0 } })).toMatch(
      /^emotion: a negative emotion \(anxiety\) needs a negative appraisal/,
    );
  });

  it('refuses unknown fields, a missing opening utterance, upper-case cues and an unknown setting', () => {
    expect(issue({ ...good, scenaro: 'x' })).toMatch(/scenaro/);
    const { initial_prompt: _, ...noPrompt } = good;
    expect(issue(noPrompt)).toMatch(/^initial_prompt:/);
    expect(
      issue({ ...good, facts: [{ text: 'A fact.', cues: ['Monday'], contradictions: ['friday'] }] }),
    ).toMatch(/^facts\.0\.cues\.0: must be lower case/);
    expect(issue({ ...good, setting: 'esconv' })).toMatch(/^setting:/);
  });

  it('refuses a fact whose cue is also its contradiction, in the built seed', () => {
    const spec = { ...good, facts: [{ text: 'A fact.', cues: ['monday'], contradictions: ['monday'] }] };
    expect(() => buildEmollmSeed(spec)).toThrow(/both a cue and a contradiction/);
  });
});
