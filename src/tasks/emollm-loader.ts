/**
 * Reading EmoLLM seeds from a user's own JSONL text: one {@link EmollmSeedSpec} object a line (blank lines and
 * lines starting with `//` are skipped), the same shape as the bundled seeds in `src/tasks/defaults/emollm-*.ts`.
 * Works on text, so that the browser (a picked file) and Node (`readFile`) share it.
 */
import { ZodError } from 'zod';
import { buildEmollmSeed, EmollmSeedSpecSchema, type EmollmSeedSpec } from './emollm';
import type { EmollmSetting } from './emollm-scenario';

import { jsonLineReason } from '../io/json';
import type { Seed } from './seed';
import { DataFormatError } from '../errors';

/** What {@link parseEmollmSeeds} returns: the descriptions as read, and the Cog-Sim seeds built from them. */
export interface EmollmSeedFile {
  specs: EmollmSeedSpec[];
  seeds: Seed[];
}

/**
 * Parse JSONL text of EmoLLM seed descriptions and build their seeds. `file` names the source in errors;
 * `settings`, when given, are the settings the seeds may be of (e.g. `['ed']` for `emollm-ed`).
 * @throws DataFormatError (EMOLLM_SEED_INVALID) `file:line: reason` at the first bad line — invalid JSON, a schema violation
 *   (naming the field), a seed of another setting than `settings`, or an id already used on an earlier line
 *   (naming that line) — or when there is no seed.
 */
export function parseEmollmSeeds(
  text: string,
  file: string,
  source = file,
  settings?: readonly EmollmSetting[],
): EmollmSeedFile {
  const specs: EmollmSeedSpec[] = [];
  const seeds: Seed[] = [];
  const firstLine = new Map<string, number>();
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = i + 1;
    const body = raw.trim();
    if (body === '' || body.startsWith('//')) return;
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch (e) {
      throw DataFormatError.record(
        'EMOLLM_SEED_INVALID',
        file,
        line,
        // Only a last line without a line break after it is what a cut write leaves.
        `invalid JSON${jsonLineReason(body, e, i === lines.length - 1)}`,
      );
    }
    const parsed = EmollmSeedSpecSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
      throw DataFormatError.record(
        'EMOLLM_SEED_INVALID',
        file,
        line,
        `${where}${issue?.message ?? 'invalid seed'}`,
      );
    }
    const spec = value as EmollmSeedSpec;
    if (settings && !settings.includes(spec.setting))
      throw DataFormatError.record(
        'EMOLLM_SEED_INVALID',
        file,
        line,
        `setting: seed "${spec.id}" is of setting ${spec.setting}, not ${settings.join(' or ')}`,
      );
    const earlier = firstLine.get(spec.id);
    if (earlier !== undefined)
      throw DataFormatError.record(
        'EMOLLM_SEED_INVALID',
        file,
        line,
        `seed id "${spec.id}" already used on line ${earlier}`,
      );
    firstLine.set(spec.id, line);
    let seed: Seed;
    try {
      seed = buildEmollmSeed(spec, source);
    } catch (e) {
      // The built seed breaks a rule of the seed schema (e.g. tendencies with tau_A ≥ tau_R).
      const issue = e instanceof ZodError ? e.issues[0] : undefined;
      if (!issue) throw e;
      throw DataFormatError.record(
        'EMOLLM_SEED_INVALID',
        file,
        line,
        `${issue.path.join('.') || 'seed'}: ${issue.message}`,
      );
    }
    specs.push(spec);
    seeds.push(seed);
  });
  if (seeds.length === 0)
    throw DataFormatError.record('EMOLLM_SEED_INVALID', file, lines.length, 'no seed in the file');
  return { specs, seeds };
}

/** One JSONL line per description (the inverse of {@link parseEmollmSeeds}). */
export function emollmSeedsToJsonl(specs: readonly EmollmSeedSpec[]): string {
  return specs.map((s) => JSON.stringify(s)).join('\n') + '\n';
}
