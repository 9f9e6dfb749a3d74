/**
 * EmoLLM's scenario seeds (EmoLLM paper §4, appendices C.3–C.4 and F) as Cog-Sim seeds.
 *
 * A seed in EmoLLM's form is a short scenario description plus the user's opening utterance
 * (`{scenario, initial_prompt}`). To let Cog-Sim play it, each seed here also carries the simulated user's
 * profile: needs/goals, the appraisal dimensions (goal congruence GC, coping potential CP, future expectancy FE,
 * each in [-1, 1], and self-attributed responsibility in [0, 1]), the initial emotion with its intensity, the
 * concerns the user reveals when asked, and the facts of the situation a reply must get right.
 *
 * **How the four settings become tasks.** Every EmoLLM setting is a help-seeking conversation with an emotional
 * state to improve and a problem to move forward: the user feels something about a situation and wants both to
 * feel better and to take a workable next step. That is the dynamics of the ESConv task family (hopelessness,
 * isolation, self-blame, feeling heard and coping beliefs; relief, being heard and solving desires; a concrete
 * step against withdrawing). So an EmoLLM seed is a seed of the `esconv` task family — the simulator applies
 * exactly the rules it applies to emotional support, with the same record ids its rules key on — and the
 * setting lives in the seed's `scenario` block, with the setting's own record wording. No new simulator rule is
 * invented per setting: the simulator does not judge technical or medical correctness (it could only pretend to),
 * and factual accuracy is measured outside it, by the metrics, against the seed's facts. The runnable task names
 * `emollm-ed`, `emollm-msd`, `emollm-medd`, `emollm-iclr` (and `emollm`, all four) select these seeds.
 */
import { z } from 'zod';
import { AFFECT_CATEGORIES, DEFAULT_TENDENCIES, SEED_SCHEMA_VERSION, SeedSchema, TASK_IDS } from './seed';
import type { AffectCategory, Seed, TaskId } from './seed';
import { appraise } from './appraisal';
import { AFFECT_START, rapportAndCopingBeliefs, rec } from './builders';
import { CB } from './cb';
import { ESCONV } from './esconv';
import { P4G } from './p4g';
import {
  EMOLLM_SETTING_TITLES,
  EMOLLM_SETTINGS,
  EMOLLM_TASK_NAMES,
  EmollmSettingSchema,
  isEmollmTaskName,
  type EmollmSetting,
  type EmollmTaskName,
  type ScenarioFact,
} from './emollm-scenario';

export {
  EMOLLM_HORIZON,
  EMOLLM_SETTING_TITLES,
  EMOLLM_SETTINGS,
  EMOLLM_TASK_NAMES,
  isEmollmTaskName,
  type EmollmSetting,
  type EmollmTaskName,
} from './emollm-scenario';

/** The Cog-Sim task family every EmoLLM seed belongs to (see the module comment). */
export const EMOLLM_FAMILY: TaskId = 'esconv';

/** The assistant's role in each setting (the actor's `actorView.role`). */
export const EMOLLM_ACTOR_ROLES: Readonly<Record<EmollmSetting, string>> = {
  ed: 'empathetic companion',
  msd: 'technical support assistant',
  medd: 'medical consultant',
  iclr: 'research mentor',
};

/** The settings a runnable task name selects. */
export function emollmSettingsOf(name: EmollmTaskName): EmollmSetting[] {
  return name === 'emollm' ? [...EMOLLM_SETTINGS] : [name.slice('emollm-'.length) as EmollmSetting];
}

const unit = z.number().min(-1).max(1);
const phrase = z.string().trim().min(2);
const lowerPhrase = z
  .string()
  .trim()
  .min(1)
  .refine((s) => s === s.toLowerCase(), { message: 'must be lower case' });

/** A fact as written in a seed file (its id is assigned by position: `f1`, `f2`, …). */
export const EmollmFactSpecSchema = z
  .object({
    text: phrase,
    cues: z.array(lowerPhrase).min(1),
    contradictions: z.array(lowerPhrase).min(1),
  })
  .strict();

const NEGATIVE: readonly AffectCategory[] = ['sadness', 'anxiety', 'frustration', 'anger'];
const POSITIVE: readonly AffectCategory[] = ['interest', 'hope', 'relief', 'satisfaction'];

/**
 * One EmoLLM seed as written by hand or in a user's JSONL file (one object a line). Unknown fields are errors
 * (a misspelt field is not silently dropped). `scenario` and `initial_prompt` are the paper's two fields; the
 * rest is the Cog-Sim profile. The initial emotion must agree in sign with the appraisal: a negative emotion
 * needs a mean of GC, CP and FE below 0.1, a positive one above −0.1. CP and FE also shape the records and start
 * the simulator's appraisal; GC is the author's reading of the situation for that check only — the simulator's
 * starting GC is derived from the records (`buildEmollmSeed`).
 */
export const EmollmSeedSpecSchema = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9._:-]+$/, 'letters, digits, ".", "_", ":" or "-" only'),
    setting: EmollmSettingSchema,
    scenario: phrase,
    initial_prompt: phrase,
    persona: phrase,
    emotion: z.enum(AFFECT_CATEGORIES),
    /** Intensity of the initial emotion in [0, 1]. */
    intensity: z.number().min(0).max(1),
    /** Needs and goals, most important first (the first is the user's goal for the conversation). */
    needs: z.array(phrase).min(1).max(3),
    appraisal: z.object({ GC: unit, CP: unit, FE: unit, responsibility: z.number().min(0).max(1) }).strict(),
    /**
     * What the user reveals when asked: bare noun phrases ("printer driver"); the simulator's replies put "the"
     * before them ("It is mostly about the printer driver"), so they carry no article or possessive.
     */
    concerns: z
      .array(
        phrase.refine((c) => !/^(?:the|a|an|my|your|his|her|our|their)\s/i.test(c), {
          message: 'a bare noun phrase, without article or possessive (the simulator adds "the")',
        }),
      )
      .min(1),
    facts: z.array(EmollmFactSpecSchema).min(1).max(6),
    randomSeed: z.number().int().min(0).max(0xffffffff).optional(),
    tendencies: z
      .object({
        eta_R: z.number().min(0).max(1),
        tau_A: z.number().min(0).max(1),
        tau_R: z.number().min(0).max(1),
      })
      .partial()
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((s, ctx) => {
    const mean = (s.appraisal.GC + s.appraisal.CP + s.appraisal.FE) / 3;
    if (NEGATIVE.includes(s.emotion) && mean >= 0.1)
      ctx.addIssue({
        code: 'custom',
        path: ['emotion'],
        message: `a negative emotion (${s.emotion}) needs a negative appraisal (mean of GC, CP, FE ${mean.toFixed(2)} ≥ 0.1)`,
      });
    if (POSITIVE.includes(s.emotion) && mean <= -0.1)
      ctx.addIssue({
        code: 'custom',
        path: ['emotion'],
        message: `a positive emotion (${s.emotion}) needs a positive appraisal (mean of GC, CP, FE ${mean.toFixed(2)} ≤ −0.1)`,
      });
  });
/** One EmoLLM seed description (validate untrusted input with `EmollmSeedSpecSchema`). */
export type EmollmSeedSpec = z.input<typeof EmollmSeedSpecSchema>;

/** Per-setting wording of the family's belief records (content only; ids and topics are the family's). */
const WORDING: Readonly<
  Record<EmollmSetting, { hopeless: string; alone: string; blame: string; problem: string }>
> = {
  ed: {
    hopeless: 'This is not going to get better.',
    alone: 'Nobody understands what I am going through.',
    blame: 'What happened is my own fault.',
    problem: 'everyday situation',
  },
  msd: {
    hopeless: 'This problem is never going to get fixed.',
    alone: 'Nobody is going to help me sort this out.',
    blame: 'I probably broke it myself.',
    problem: 'technical problem',
  },
  medd: {
    hopeless: 'My health is not going to get better.',
    alone: 'Nobody takes what I am going through seriously.',
    blame: 'I brought this on myself.',
    problem: 'health concern',
  },
  iclr: {
    hopeless: 'This paper is going to be rejected whatever I do.',
    alone: 'The reviewers did not even try to understand the work.',
    blame: 'The weaknesses are all my fault.',
    problem: 'paper review',
  },
};

/** A 32-bit FNV-1a hash of `text`: the default random seed of a seed without one. */
function fnv32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The scenario's facts with their ids (`f1`, `f2`, … by position). */
export function factsOf(spec: Pick<z.output<typeof EmollmSeedSpecSchema>, 'facts'>): ScenarioFact[] {
  return spec.facts.map((f, i) => ({ id: `f${i + 1}`, ...f }));
}

/**
 * Build the Cog-Sim seed of an EmoLLM seed description: task family `esconv`, the prefix the user's opening
 * utterance alone, the actor's view the setting's role and the scenario text, the simulator's records worded for
 * the setting and strengthened from the appraisal (low FE → strong hopelessness, low CP → weak coping belief,
 * responsibility → self-blame, intensity → isolation and withdrawal), the affect the initial emotion. The seed's
 * appraisal keeps the description's CP and FE; its GC is the simulator's own `goalCongruence` of these records
 * (the description's GC serves the emotion-sign check only), so the first turn does not move GC by recomputing it.
 * @throws ZodError when the description (or the resulting seed) is invalid.
 */
export function buildEmollmSeed(input: EmollmSeedSpec, source = 'authored'): Seed {
  const spec = EmollmSeedSpecSchema.parse(input);
  const w = WORDING[spec.setting];
  const { CP, FE, responsibility } = spec.appraisal;
  const k = spec.intensity;
  const [goal, ...otherNeeds] = spec.needs as [string, ...string[]];
  const beliefs = [
    rec(
      'belief',
      'b-hopeless',
      'hope',
      w.hopeless,
      1.6 + 2 * Math.max(0, -FE),
      true,
      'against',
      [],
      ['b-cope'],
    ),
    rec('belief', 'b-alone', 'alone', w.alone, 1.2 + 1.6 * k, false, 'against', [], ['b-heard']),
    rec('belief', 'b-blame', 'blame', w.blame, 0.4 + 2.6 * responsibility, false, 'against'),
    ...rapportAndCopingBeliefs(w.problem, 1.6 + 1.2 * CP),
  ];
  const desires = [
    rec(
      'desire',
      'd-relief',
      'hope',
      `Feel less ${spec.emotion === 'neutral' ? 'unsettled' : spec.emotion}.`,
      3.5,
      true,
      'for',
      ['b-cope'],
    ),
    rec('desire', 'd-heard', 'rapport', 'Be listened to without being judged.', 3, false, 'for', ['b-heard']),
    rec('desire', 'd-solve', 'action', goal, 2.5 + 0.5 * k, false, 'for', ['b-cope']),
    ...otherNeeds.map((need, i) =>
      rec('desire', `d-need-${i + 2}`, 'action', need, 2, false, 'for', ['b-cope']),
    ),
  ];
  const intentions = [
    rec(
      'intention',
      'i-step',
      'action',
      `Take one concrete step on the ${w.problem}.`,
      0.6 + 0.4 * Math.max(0, CP),
      false,
      'for',
      ['b-cope', 'd-solve'],
    ),
    rec(
      'intention',
      'i-withdraw',
      'withdraw',
      'Stop talking and keep it to myself.',
      0.8 + 1.2 * k,
      false,
      'against',
      ['b-alone', 'b-hopeless'],
    ),
  ];
  const start = AFFECT_START[spec.emotion];
  const t = { ...DEFAULT_TENDENCIES, ...spec.tendencies };
  const facts = factsOf(spec);
  const seed: Seed = {
    schemaVersion: SEED_SCHEMA_VERSION,
    id: spec.id,
    task: EMOLLM_FAMILY,
    source,
    randomSeed: spec.randomSeed ?? fnv32(spec.id),
    actorView: { role: EMOLLM_ACTOR_ROLES[spec.setting], goal: spec.scenario },
    prefix: [{ speaker: 'user', text: spec.initial_prompt }],
    userPrivate: {
      role: 'help-seeker',
      situation: `${spec.persona} ${facts.map((f) => f.text).join(' ')}`,
      emotionType: spec.emotion,
      problemType: w.problem,
      concerns: spec.concerns,
    },
    profile: { persona: spec.persona, eta_R: t.eta_R, tau_A: t.tau_A, tau_R: t.tau_R },
    cognitive: {
      beliefs,
      desires,
      intentions,
      affect: {
        category: spec.emotion,
        valence: Math.max(-1, Math.min(1, start.valence * (0.8 + 0.4 * k))),
        arousal: start.arousal,
      },
      appraisal: appraise({ beliefs, desires }, { CP, FE }),
    },
    scenario: { setting: spec.setting, description: spec.scenario, facts },
  };
  return SeedSchema.parse(seed);
}

/** Every task name a job runs: the three Cog-Sim tasks and the EmoLLM settings. */
export const TASK_NAMES = [...TASK_IDS, ...EMOLLM_TASK_NAMES] as const;
/** A runnable task name: a {@link TaskId} or an {@link EmollmTaskName}. */
export type TaskName = (typeof TASK_NAMES)[number];

/** Whether `name` is a runnable task name. */
export function isTaskName(name: string): name is TaskName {
  return (TASK_NAMES as readonly string[]).includes(name);
}

/**
 * The Cog-Sim task (rules, labels, judge) a runnable task name plays: itself, or `esconv` for EmoLLM names.
 * @deprecated EmoLLM's settings are seed sets of `esconv`; `legacyTaskName(name)?.task` reads an old name.
 */
export function taskFamily(name: TaskName): TaskId {
  return isEmollmTaskName(name) ? EMOLLM_FAMILY : name;
}

/** The title of a runnable task name (an EmoLLM name with several settings lists them). */
export function taskNameTitle(name: TaskName): string {
  if (!isEmollmTaskName(name)) return { esconv: ESCONV, p4g: P4G, cb: CB }[name].title;
  return emollmSettingsOf(name)
    .map((s) => EMOLLM_SETTING_TITLES[s])
    .join('; ');
}

/** The seed-set name of one EmoLLM setting's bundled seeds in an evaluation (`emollm-ed`, …). */
export function emollmSetName(setting: EmollmSetting): string {
  return `emollm-${setting}`;
}
