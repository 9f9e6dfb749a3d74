/**
 * The bundled EmoLLM scenario seeds: 40 per setting, written for this project (no dataset text), in the same
 * {@link EmollmSeedSpec} shape as a user's JSONL file.
 */
import {
  buildEmollmSeed,
  EMOLLM_FAMILY,
  emollmSetName,
  emollmSettingsOf,
  type EmollmSeedSpec,
  type EmollmSetting,
  type EmollmTaskName,
} from '../emollm';
import type { Seed, TaskId } from '../seed';
import { EMOLLM_ED_SEEDS_1 } from './emollm-ed-1';
import { EMOLLM_ED_SEEDS_2 } from './emollm-ed-2';
import { EMOLLM_ICLR_SEEDS_1 } from './emollm-iclr-1';
import { EMOLLM_ICLR_SEEDS_2 } from './emollm-iclr-2';
import { EMOLLM_MEDD_SEEDS_1 } from './emollm-medd-1';
import { EMOLLM_MEDD_SEEDS_2 } from './emollm-medd-2';
import { EMOLLM_MSD_SEEDS_1 } from './emollm-msd-1';
import { EMOLLM_MSD_SEEDS_2 } from './emollm-msd-2';

/** The bundled seed descriptions of each setting (shared arrays: do not modify). */
export const EMOLLM_SEED_SPECS: Readonly<Record<EmollmSetting, readonly EmollmSeedSpec[]>> = {
  ed: [...EMOLLM_ED_SEEDS_1, ...EMOLLM_ED_SEEDS_2],
  msd: [...EMOLLM_MSD_SEEDS_1, ...EMOLLM_MSD_SEEDS_2],
  medd: [...EMOLLM_MEDD_SEEDS_1, ...EMOLLM_MEDD_SEEDS_2],
  iclr: [...EMOLLM_ICLR_SEEDS_1, ...EMOLLM_ICLR_SEEDS_2],
};

/**
 * Fresh Cog-Sim seeds (task family `esconv`) of the settings a task name selects, setting by setting in the
 * order ed, msd, medd, iclr (safe to mutate). @throws ZodError if a bundled description were invalid.
 * @deprecated use the seed set: `getSeedSet('esconv', name).seeds()` (src/tasks/seed-sets.ts).
 */
export function emollmDefaultSeeds(name: EmollmTaskName): Seed[] {
  return emollmSettingsOf(name).flatMap((setting) =>
    EMOLLM_SEED_SPECS[setting].map((spec) => buildEmollmSeed(spec)),
  );
}

/**
 * The bundled seed sets of an EmoLLM task name for an evaluation: one set per setting, named `emollm-<setting>`.
 * @deprecated use `seedSetParts('esconv', name)` (src/tasks/seed-sets.ts).
 */
export function emollmSeedSets(name: EmollmTaskName): { task: TaskId; name: string; seeds: Seed[] }[] {
  return emollmSettingsOf(name).map((setting) => ({
    task: EMOLLM_FAMILY,
    name: emollmSetName(setting),
    seeds: EMOLLM_SEED_SPECS[setting].map((spec) => buildEmollmSeed(spec)),
  }));
}
