/**
 * The EmoLLM scenario block of a seed (EmoLLM paper §4 and appendix C.3): which of the paper's four settings the
 * seed belongs to, the scenario text (the assistant's role and the user's situation, as the paper's `scenario`
 * field), and the facts of the situation that a reply must get right (appendix F, Factual Accuracy).
 *
 * Visibility: the scenario text is also the actor's `actorView.goal` (the paper gives it to the assistant); the
 * facts are public ground truth for evaluation — metric scorers and judges read them — but they are not in the
 * actor's observation (the actor learns them as the user tells them) and the simulator never reads them.
 */
import { z } from 'zod';

/**
 * The four settings of EmoLLM's evaluation: `ed` emotional support in everyday situations (EmpatheticDialogues-
 * like), `msd` technical assistance (MSDialog-like), `medd` medical consultation (MedDialog-like), `iclr`
 * academic peer review (ICLR-review-like).
 */
export const EMOLLM_SETTINGS = ['ed', 'msd', 'medd', 'iclr'] as const;
export type EmollmSetting = (typeof EMOLLM_SETTINGS)[number];
export const EmollmSettingSchema = z.enum(EMOLLM_SETTINGS);

/**
 * Runnable task names of the EmoLLM settings, and `emollm` for all four (here, beside the settings, so that the
 * task registry can recognise them without reaching the seed builders).
 */
export const EMOLLM_TASK_NAMES = ['emollm', 'emollm-ed', 'emollm-msd', 'emollm-medd', 'emollm-iclr'] as const;
export type EmollmTaskName = (typeof EMOLLM_TASK_NAMES)[number];

/** Whether `name` is an EmoLLM task name. */
export function isEmollmTaskName(name: string): name is EmollmTaskName {
  return (EMOLLM_TASK_NAMES as readonly string[]).includes(name);
}

/**
 * EmoLLM's turn cap, in actor turns: the paper's role-play conversations run "up to 8 turns" (appendix D.2),
 * and it uses "the same scenario-based multi-turn environment for both training and evaluation" (the
 * interaction-environment appendix), evaluating "with a fixed maximum number of turns" (appendix F) — so its
 * evaluations stop at 8 assistant turns too (the paper gives no other number). The EmoLLM seed sets of `esconv` (src/tasks/esconv/seed-sets.ts)
 * play to this horizon unless `--horizon` says otherwise; at Cog-Sim's own 30 turns nearly every dialogue meets a
 * resolving reply sooner or later and the Success Rate stops telling policies apart.
 */
export const EMOLLM_HORIZON = 8;

/** Human-readable title of each setting (the dataset it is modelled on). */
export const EMOLLM_SETTING_TITLES: Readonly<Record<EmollmSetting, string>> = {
  ed: 'EmoLLM emotional support in everyday situations (EmpatheticDialogues-like)',
  msd: 'EmoLLM technical assistance (MSDialog-like)',
  medd: 'EmoLLM medical consultation (MedDialog-like)',
  iclr: 'EmoLLM academic peer review (ICLR-review-like)',
};

const lowerPhrase = z
  .string()
  .min(1)
  .refine((s) => s === s.toLowerCase().trim(), { message: 'must be lower case without outer spaces' });

/**
 * One fact of the situation. `cues`: lower-case words or phrases whose mention makes a reply speak about this
 * fact (a fact-sensitive reply); `contradictions`: lower-case phrases that, asserted (not negated) in a reply,
 * state something this fact rules out — e.g. fact "the laptop runs Windows 11", contradictions "macos",
 * "on your mac".
 */
export const ScenarioFactSchema = z
  .object({
    id: z.string().min(1),
    text: z.string().min(1),
    cues: z.array(lowerPhrase).min(1),
    contradictions: z.array(lowerPhrase).min(1),
  })
  .refine((f) => !f.contradictions.some((c) => f.cues.includes(c)), {
    message: 'a phrase cannot be both a cue and a contradiction of the same fact',
  });
export type ScenarioFact = z.infer<typeof ScenarioFactSchema>;

/** The scenario block of an EmoLLM seed (see the module comment). */
export const ScenarioSchema = z
  .object({
    setting: EmollmSettingSchema,
    description: z.string().min(1),
    facts: z.array(ScenarioFactSchema).min(1),
  })
  .refine((s) => new Set(s.facts.map((f) => f.id)).size === s.facts.length, {
    message: 'fact ids must be unique within a scenario',
  });
export type Scenario = z.infer<typeof ScenarioSchema>;
