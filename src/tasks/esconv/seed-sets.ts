/**
 * The named seed sets of the ESConv task: EmoLLM's four evaluation settings (EmoLLM paper §4 and appendix C.3)
 * and `emollm`, their union. Each setting is a help-seeking conversation played with ESConv's rules and judge
 * (src/tasks/emollm.ts says why), under EmoLLM's own protocol: the paper's 8-turn cap and its "resolved" turn.
 *
 * The seed builders are called lazily (inside `seeds()`): this module is part of the task registry's import graph,
 * and the builders import the task definitions in turn.
 */
import type { Seed } from '../seed';
import type { SeedSetDefinition } from '../types';
import {
  EMOLLM_HORIZON,
  EMOLLM_SETTING_TITLES,
  EMOLLM_SETTINGS,
  type EmollmSetting,
} from '../emollm-scenario';
import { EMOLLM_SUCCESS_TEXT, isEmollmResolved } from '../emollm-success';
import { buildEmollmSeed } from '../emollm';
import { EMOLLM_SEED_SPECS } from '../defaults/emollm';
import { parseEmollmSeeds } from '../emollm-loader';

/** EmoLLM's protocol, shared by the four settings and their union. */
const EMOLLM_PROTOCOL = {
  horizon: EMOLLM_HORIZON,
  success: { text: EMOLLM_SUCCESS_TEXT, isResolved: isEmollmResolved },
} as const;

/** The seed set of one setting: its 40 bundled scenario seeds, fresh. */
function settingSet(setting: EmollmSetting): SeedSetDefinition {
  return {
    name: `emollm-${setting}`,
    title: EMOLLM_SETTING_TITLES[setting],
    seeds: (): Seed[] => EMOLLM_SEED_SPECS[setting].map((spec) => buildEmollmSeed(spec)),
    // A user's scenarios of this setting only (a seed of another setting is an error naming its line).
    parseFile: (text: string, file: string): Seed[] => parseEmollmSeeds(text, file, file, [setting]).seeds,
    ...EMOLLM_PROTOCOL,
  };
}

const SETTINGS = EMOLLM_SETTINGS.map(settingSet);

/** `esconv`'s named seed sets: `emollm-ed`, `emollm-msd`, `emollm-medd`, `emollm-iclr`, and `emollm` (all four). */
export const ESCONV_SEED_SETS: Readonly<Record<string, SeedSetDefinition>> = {
  ...Object.fromEntries(SETTINGS.map((s) => [s.name, s])),
  emollm: {
    name: 'emollm',
    title: SETTINGS.map((s) => s.title).join('; '),
    members: SETTINGS.map((s) => s.name),
    seeds: (): Seed[] => SETTINGS.flatMap((s) => s.seeds()),
    parseFile: (text: string, file: string): Seed[] =>
      parseEmollmSeeds(text, file, file, EMOLLM_SETTINGS).seeds,
    ...EMOLLM_PROTOCOL,
  },
};
