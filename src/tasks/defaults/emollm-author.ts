/**
 * Shorthand for writing the bundled EmoLLM seeds: one call per seed, expanded into the full
 * {@link EmollmSeedSpec} shape that user JSONL files use. Facts are rows `[text, cues, contradictions]` with the
 * lower-case phrases of the last two separated by `|`.
 */
import type { EmollmSeedSpec, EmollmSetting } from '../emollm';
import type { AffectCategory } from '../seed';

/** `[fact text, "cue|cue", "contradiction|contradiction"]`. */
export type FactRow = readonly [text: string, cues: string, contradictions: string];

/** `[GC, CP, FE, responsibility]`: goal congruence, coping potential, future expectancy in [-1, 1]; blame in [0, 1]. */
export type AppraisalRow = readonly [GC: number, CP: number, FE: number, responsibility: number];

/** `[scenario, initial_prompt, persona]`: the paper's two fields and the simulated user's persona. */
export type TextRow = readonly [scenario: string, prompt: string, persona: string];

const phrases = (s: string) => s.split('|').map((p) => p.trim());

/** A seed writer for one setting: ids are `emollm-<setting>:<nn>`. */
export function seedWriter(setting: EmollmSetting) {
  return (
    n: number,
    emotion: AffectCategory,
    intensity: number,
    [GC, CP, FE, responsibility]: AppraisalRow,
    [scenario, prompt, persona]: TextRow,
    needs: readonly string[],
    concerns: readonly string[],
    facts: readonly FactRow[],
  ): EmollmSeedSpec => ({
    id: `emollm-${setting}:${String(n).padStart(2, '0')}`,
    setting,
    scenario,
    initial_prompt: prompt,
    persona,
    emotion,
    intensity,
    needs: [...needs],
    appraisal: { GC, CP, FE, responsibility },
    concerns: [...concerns],
    facts: facts.map(([text, cues, contradictions]) => ({
      text,
      cues: phrases(cues),
      contradictions: phrases(contradictions),
    })),
  });
}
