/**
 * `evaluate --resume` continues an evaluation only with the settings it was started with. The whole command-line
 * configuration (tasks, policies, seed paths, every job option with its default applied, F1 and PPDPP options,
 * language backends) is kept in the output folder as `settings.json`; a resume with any other value is refused
 * before any work, naming each option, the value given and the stored one. (The folder's `manifest.json`
 * additionally checks the episode settings and seed contents.)
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../src/node';
import { UsageError, type FlagSpec } from './options';
import { CheckpointError } from '../src/entries/errors';

/** The settings file's name in an evaluation folder. */
export const SETTINGS_FILE = 'settings.json';

/** What an evaluation was started with: option name (without dashes) → effective value. */
export type EvaluateSettings = Record<string, unknown>;

/** The arguments {@link evaluateSettings} reads (a subset of cli/evaluate.ts `EvaluateArgs`). */
export interface SettingsArgs {
  tasks: readonly string[];
  policies: readonly string[];
  seeds: Record<string, string>;
  fields: Record<string, unknown>;
  f1Data: Record<string, string>;
  ppdppModel: Record<string, string>;
  ppdppTrain: Record<string, string>;
  ppdppSteps: number;
  ppdppEpisodes: number;
  skipInvalid: boolean;
  language: unknown;
  fixtures?: string;
}

/** The effective settings of an evaluation: every option by its command-line name, defaults applied. */
export function evaluateSettings(args: SettingsArgs, flags: readonly FlagSpec[]): EvaluateSettings {
  const out: EvaluateSettings = {
    task: args.tasks,
    policy: args.policies,
    seeds: args.seeds,
  };
  for (const f of flags) out[f.flag] = args.fields[f.key] ?? f.default ?? null;
  Object.assign(out, {
    'f1-data': args.f1Data,
    'ppdpp-model': args.ppdppModel,
    'ppdpp-train': args.ppdppTrain,
    'ppdpp-steps': args.ppdppSteps,
    'ppdpp-episodes': args.ppdppEpisodes,
    'skip-invalid': args.skipInvalid,
    backend: args.language,
    fixtures: args.fixtures ?? null,
  });
  return JSON.parse(JSON.stringify(out)) as EvaluateSettings;
}

/**
 * Checks a resumed evaluation's settings against those stored in `folder` (a folder of an older version
 * without the file is not checked).
 * @throws UsageError naming every option that differs, with the value given and the stored one;
 *   CheckpointError (RUN_FILE_DAMAGED) naming the file when it is not JSON, not an object, or holds a value of
 *   another kind than its option takes.
 */
export async function checkResumeSettings(folder: string, current: EvaluateSettings): Promise<void> {
  let text: string;
  try {
    text = await readFile(join(folder, SETTINGS_FILE), 'utf8');
  } catch (e) {
    if ((e as { code?: string }).code === 'ENOENT') return;
    throw e;
  }
  const file = join(folder, SETTINGS_FILE);
  const damaged = (why: string) =>
    new CheckpointError(
      'RUN_FILE_DAMAGED',
      `--resume: ${file} is damaged (${why}); restore it from a copy, or start again in another --out`,
      { path: file, reason: why },
    );
  let stored: EvaluateSettings;
  try {
    stored = JSON.parse(text) as EvaluateSettings;
  } catch {
    throw damaged('not JSON');
  }
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored))
    throw damaged('not a JSON object of settings');
  // A value of another kind than the option takes (`"task": 5` for a list of tasks) is damage, not another setting.
  const kind = (v: unknown) => (Array.isArray(v) ? 'a list' : v === null ? 'null' : `a ${typeof v}`);
  for (const [k, v] of Object.entries(current)) {
    const s = stored[k];
    if (v !== null && s !== null && s !== undefined && kind(v) !== kind(s))
      throw damaged(`${k}: ${kind(s)} where the option takes ${kind(v)}`);
  }
  const differ = Object.keys({ ...stored, ...current })
    .filter((k) => JSON.stringify(stored[k] ?? null) !== JSON.stringify(current[k] ?? null))
    .map((k) => `--${k} ${shownGiven(current[k])} (${storedSetting(stored, k)})`);
  if (differ.length > 0)
    throw new UsageError(
      `--resume: the evaluation in ${folder} was started with other settings: ${differ.join(', ')}; ` +
        'resume with the same options, or give another --out',
    );
}

/** A setting's value in a message: a string as it is, another value as JSON. */
const shownValue = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** The value a resumed evaluation gives for an option, in a message: one missing was not given (its default applies). */
const shownGiven = (v: unknown): string => (v === null || v === undefined ? '(not given)' : shownValue(v));

/**
 * What the stored evaluation says of option `key`, as the parenthesis after the value given: `the evaluation has
 * 2`; for a key the file lacks (written before the option was recorded) `the stored evaluation does not record
 * it`; for a null one (the option was not given then) `the evaluation was started without it`.
 */
export function storedSetting(stored: EvaluateSettings, key: string): string {
  if (!Object.hasOwn(stored, key) || stored[key] === undefined)
    return 'the stored evaluation does not record it';
  if (stored[key] === null) return 'the evaluation was started without it';
  return `the evaluation has ${shownValue(stored[key])}`;
}

/** Records the settings in `folder` (atomically). */
export function writeSettings(folder: string, settings: EvaluateSettings): Promise<void> {
  return writeFileAtomic(join(folder, SETTINGS_FILE), JSON.stringify(settings, null, 2) + '\n');
}
