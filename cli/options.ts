/**
 * What the command-line jobs share: options generated from a job's zod schema (each field's `.describe()` is its
 * `--help` line, its checks its documented range), the options every command spells the same way (`--seeds
 * [TASK=]PATH|bundled`, `--policy`, `--rng-seed`, `--backend` and its companions), old spellings kept with a
 * notice, output checks made before any work, and the exit codes (0 ok, 1 failure, 2 usage error).
 */
import { closest, distance } from 'fastest-levenshtein';
import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname, extname, join, sep } from 'node:path';
import { datasetFilesIn, readJsonFile } from '../src/node';
import {
  MAX_UTTERANCE_CHARS,
  EMOLLM_SUCCESS_TEXT,
  SUCCESS_TEXT,
  isTaskName,
  type TaskName,
  getSeedSet,
  P4G_FILE_NAMES,
  legacyTaskName,
  legacyTaskNotice,
  TASK_IDS,
  type TaskId,
} from '../src/entries/simulator';
import {
  BACKEND_KINDS,
  ROLE_KEYS,
  RolesConfigSchema,
  type BackendSpec,
  type RoleKey,
  type RolesConfig,
  type ReplayFixture,
} from '../src/entries/models';
import { POLICY_CATALOGUE, type PolicyEntry } from '../src/entries/policies';
import { cpus } from 'node:os';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { z } from 'zod';
import { INTERRUPTED_EXIT_CODE, isInterrupted } from './interrupt';
import { CheckpointError, DataFormatError, hasCode, LabError, PathError } from '../src/entries/errors';

/** A command-line mistake: printed with the usage hint, exit code 2. */
export class UsageError extends LabError {
  override name = 'UsageError';
  override readonly code = 'USAGE';
}

/**
 * A train run's resume conflict as a usage error naming the options given, e.g. `--eval-repeats 2 (the run has
 * 4)`; `flags` maps the run's setting keys to their option names (a key without one is shown as it is).
 */
export function resumeConflictUsage(e: CheckpointError, flags: Record<string, string>): UsageError {
  const show = (v: unknown) =>
    v === undefined || v === null ? '(not recorded)' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return new UsageError(
    `--resume: the run in ${e.path} was made with other settings: ` +
      e.conflicts
        .map((c) => `--${flags[c.key] ?? c.key} ${show(c.given)} (the run has ${show(c.stored)})`)
        .join(', ') +
      '; leave these options out to resume (the run keeps its settings), or start a new run with --out',
  );
}

/** Where a command writes its text. */
export interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  isTTY: boolean;
}

/** One command-line option generated from a schema field. */
export interface FlagSpec {
  /** The schema key (`rngSeed`). */
  key: string;
  /** The flag without dashes (`rng-seed`). */
  flag: string;
  kind: 'string' | 'integer' | 'number' | 'boolean' | 'enum';
  help: string;
  /** Documented range, e.g. `1 to 16`, or the enum's values. */
  range: string | null;
  default: unknown;
  min?: number;
  max?: number;
  /** The bounds themselves are outside the range (`> min`, `< max`). */
  minExclusive?: boolean;
  maxExclusive?: boolean;
  /** A boolean whose default is true: the flag (`no-…`) turns it off. */
  negated?: boolean;
}

const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

interface ZodIntrospect {
  description?: string;
  shape?: Record<string, unknown>;
  def: {
    type: string;
    innerType?: ZodIntrospect;
    defaultValue?: unknown;
    checks?: { _zod: { def: { check: string; inclusive?: boolean } } }[];
  };
  minValue?: number | null;
  maxValue?: number | null;
  isInt?: boolean;
  options?: readonly string[];
}

/**
 * The options of a job's schema fields `keys`, in that order (each needs a description).
 * @throws Error when a field has no description or a type the command line cannot carry (a programming error).
 */
export function flagsFromSchema(shape: Record<string, unknown>, keys: readonly string[]): FlagSpec[] {
  return keys.map((key) => flagOf(shape[key] as ZodIntrospect | undefined, key, kebab(key)));
}

/** The field under its `optional` / `default` / `prefault` wrappers, and its default (if any). */
function unwrap(field: ZodIntrospect): { field: ZodIntrospect; def: unknown } {
  let def: unknown;
  while (['optional', 'default', 'prefault'].includes(field.def.type)) {
    if (field.def.type === 'default') def = field.def.defaultValue;
    field = field.def.innerType as ZodIntrospect;
  }
  return { field, def };
}

/**
 * One option for every setting of a trainer's configuration schema `shape` (e.g. src/rl/config.ts
 * `TrainSettingsSchema.shape`), nested in the job's field `nested`: key `<nested>.<field>` (a nested object's
 * fields `<nested>.<field>.<sub>`), flag the kebab-case field name (`<field>-<sub>`) or `names[field]`; the
 * fields in `skip` are left out (the caller spells them its own way). A boolean that defaults to true is a
 * `--no-…` flag. So that no hyperparameter is unreachable from the command line, every other field is an option.
 * @throws Error when a field has no description or a type the command line cannot carry (a programming error).
 */
export function flagsFromSettings(
  shape: Record<string, unknown>,
  nested: string,
  options: { names?: Readonly<Record<string, string>>; skip?: readonly string[] } = {},
): FlagSpec[] {
  return Object.keys(shape)
    .filter((k) => !(options.skip ?? []).includes(k))
    .flatMap((k) => {
      const field = shape[k] as ZodIntrospect;
      const inner = unwrap(field).field;
      if (inner.def.type === 'object' && inner.shape)
        return Object.keys(inner.shape).map((sub) =>
          flagOf(
            (inner.shape as Record<string, unknown>)[sub] as ZodIntrospect,
            `${nested}.${k}.${sub}`,
            options.names?.[`${k}.${sub}`] ?? `${kebab(k)}-${kebab(sub)}`,
            true,
          ),
        );
      return [flagOf(field, `${nested}.${k}`, options.names?.[k] ?? kebab(k), true)];
    });
}

/** The option of one schema field (`negate`: a boolean defaulting to true becomes `--no-…`). */
function flagOf(outer: ZodIntrospect | undefined, key: string, flag: string, negate = false): FlagSpec {
  if (!outer) throw new Error(`schema has no field "${key}"`);
  const help = outer.description ?? outer.def.innerType?.description;
  if (!help) throw new Error(`schema field "${key}" has no description`);
  const { field, def } = unwrap(outer);
  const base = { key, flag, help, default: def };
  switch (field.def.type) {
    case 'boolean':
      return negate && def === true
        ? {
            ...base,
            flag: `no-${flag}`,
            // The field's description says what it does when on (its default); the flag turns that off.
            help: `turn off what is on by default: ${help}`,
            kind: 'boolean',
            negated: true,
            range: null,
          }
        : { ...base, kind: 'boolean', range: null };
    case 'enum':
      return { ...base, kind: 'enum', range: (field.options ?? []).join(' | ') };
    case 'string':
      return { ...base, kind: 'string', range: null };
    case 'number': {
      const min = field.minValue ?? undefined;
      const max = field.maxValue ?? undefined;
      const exclusive = (check: string) =>
        (field as ZodIntrospect).def.checks?.some(
          (c) => c._zod.def.check === check && c._zod.def.inclusive === false,
        ) ?? false;
      const bounds = {
        ...(min !== undefined ? { min, minExclusive: exclusive('greater_than') } : {}),
        ...(max !== undefined && max < Number.MAX_SAFE_INTEGER
          ? { max, maxExclusive: exclusive('less_than') }
          : {}),
      };
      return {
        ...base,
        kind: field.isInt ? 'integer' : 'number',
        range: rangeText(bounds),
        ...bounds,
      };
    }
    default:
      throw new Error(`schema field "${key}" (${field.def.type}) cannot be a command-line option`);
  }
}

/** A range as written in `--help` and in messages: `1 to 16`, `≥ 0`, `> 0 and < 1`. */
export function rangeText(b: {
  min?: number;
  max?: number;
  minExclusive?: boolean;
  maxExclusive?: boolean;
}): string | null {
  const fmt = (n: number) => n.toLocaleString('en');
  if (b.min !== undefined && b.max !== undefined) {
    if (!b.minExclusive && !b.maxExclusive) return `${fmt(b.min)} to ${fmt(b.max)}`;
    return `${b.minExclusive ? '>' : '≥'} ${fmt(b.min)} and ${b.maxExclusive ? '<' : '≤'} ${fmt(b.max)}`;
  }
  if (b.min !== undefined) return `${b.minExclusive ? '>' : '≥'} ${fmt(b.min)}`;
  if (b.max !== undefined) return `${b.maxExclusive ? '<' : '≤'} ${fmt(b.max)}`;
  return null;
}

/** How {@link parseNumber} reads a value. */
export interface NumberSpec {
  integer: boolean;
  min?: number;
  max?: number;
  minExclusive?: boolean;
  maxExclusive?: boolean;
}

/**
 * The one number parser of every command-line option. Integers are written in plain decimal digits (an optional
 * sign): `1.5`, `1e3`, `0x10`, `1_000` and the empty string are refused, so a value never means something other
 * than it reads. Other numbers are plain decimals (`0.25`, `.5`, `-1`; no exponent). The value must lie in the
 * option's documented range.
 * @throws UsageError naming the option, the expected form and range, and the value given.
 */
export function parseNumber(flag: string, raw: string, spec: NumberSpec): number {
  const form = spec.integer ? /^[+-]?\d+$/ : /^[+-]?(\d+\.?\d*|\.\d+)$/;
  const n = Number(raw);
  const range = rangeText(spec);
  const bad =
    !form.test(raw.trim()) ||
    !Number.isFinite(n) ||
    (spec.integer && !Number.isSafeInteger(n)) ||
    (spec.min !== undefined && (spec.minExclusive ? n <= spec.min : n < spec.min)) ||
    (spec.max !== undefined && (spec.maxExclusive ? n >= spec.max : n > spec.max));
  if (bad)
    throw new UsageError(
      `--${flag} must be ${spec.integer ? 'an integer' : 'a number'}${range ? (/^[\d-]/.test(range) ? ` in ${range}` : ` ${range}`) : ''}, got "${raw}"`,
    );
  return n;
}

/** `--help` lines of generated options: flag, value name, description, range and default. */
export function flagHelp(flags: readonly FlagSpec[], valueNames: Record<string, string> = {}): string {
  return flags
    .map((f) => {
      const value = f.kind === 'boolean' ? '' : ` ${valueNames[f.key] ?? (f.kind === 'enum' ? 'X' : 'N')}`;
      const head = `  --${f.flag}${value}`;
      const notes = [
        f.range && f.kind !== 'enum'
          ? `range ${f.range}`
          : // An enum's values, unless its description lists them already.
            f.kind === 'enum' && !f.help.includes(f.range ?? '')
            ? f.range
            : null,
        f.default !== undefined && f.kind !== 'boolean' ? `default ${String(f.default)}` : null,
      ].filter(Boolean);
      const text = f.help + (notes.length ? ` (${notes.join('; ')})` : '');
      return head.length < 22 ? `${head.padEnd(23)}${text}` : `${head}\n${' '.repeat(23)}${text}`;
    })
    .join('\n');
}

/** node:util parseArgs options of generated flags. */
export function parseArgsOptions(flags: readonly FlagSpec[]): NonNullable<ParseArgsConfig['options']> {
  return Object.fromEntries(
    flags.map((f) => [f.flag, { type: f.kind === 'boolean' ? ('boolean' as const) : ('string' as const) }]),
  );
}

/**
 * The values of generated flags as schema input: numbers read by {@link parseNumber} (documented range
 * checked), enums within their values. Absent flags are left out (the schema's defaults apply).
 * @throws UsageError naming the flag, its range and the value given.
 */
export function flagValues(flags: readonly FlagSpec[], values: Values): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of flags) {
    const raw = values[f.flag];
    if (raw === undefined || Array.isArray(raw)) continue;
    setPath(out, f.key, flagValue(f, raw));
  }
  return out;
}

/** Sets `out`'s field at the dotted `path` (`cstpo.seed`), making the objects on the way. */
function setPath(out: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let at = out;
  for (const part of parts.slice(0, -1)) {
    at[part] ??= {};
    at = at[part] as Record<string, unknown>;
  }
  at[parts.at(-1) as string] = value;
}

/** One flag's value as schema input. @throws UsageError (see {@link flagValues}). */
function flagValue(f: FlagSpec, raw: string | boolean): unknown {
  if (f.kind === 'boolean') return f.negated ? !raw : raw;
  const text = String(raw);
  if (f.kind === 'enum') {
    if (!(f.range ?? '').split(' | ').includes(text))
      throw new UsageError(`--${f.flag} must be one of ${f.range}, got "${text}"`);
    return text;
  }
  if (f.kind === 'string') return text;
  return parseNumber(f.flag, text, {
    integer: f.kind === 'integer',
    ...(f.min !== undefined ? { min: f.min, minExclusive: f.minExclusive ?? false } : {}),
    ...(f.max !== undefined ? { max: f.max, maxExclusive: f.maxExclusive ?? false } : {}),
  });
}

/** Maps a schema validation message's `field: …` parts to `--flag: …`. */
export function usageFromSchema(error: z.ZodError, flags: readonly FlagSpec[]): UsageError {
  return new UsageError(
    error.issues
      .map((i) => {
        // A nested setting's flag by its whole path (`cstpo.epochs`), else the top-level field's.
        const key = i.path.map(String).join('.');
        const top = String(i.path[0] ?? '');
        const flag =
          flags.find((f) => f.key === key)?.flag ?? flags.find((f) => f.key === top)?.flag ?? kebab(top);
        return `--${flag}: ${i.message}`;
      })
      .join('; '),
  );
}

/** Splits repeatable, comma-separated values: `['a,b', 'c']` → `['a', 'b', 'c']`. */
export function listValues(raw: readonly string[] | string | undefined): string[] {
  const items = raw === undefined ? [] : typeof raw === 'string' ? [raw] : raw;
  return items
    .flatMap((r) => r.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * The names of a comma-separated option, each one of `valid`, in the order given.
 * @throws UsageError naming the option, the unknown name and the valid ones; or when no name is given.
 */
export function choiceValues<T extends string>(flag: string, raw: string, valid: readonly T[]): T[] {
  const names = listValues(raw);
  if (names.length === 0) throw new UsageError(`--${flag} needs at least one of ${valid.join(', ')}`);
  const bad = names.find((n) => !(valid as readonly string[]).includes(n));
  if (bad !== undefined) throw new UsageError(`--${flag}: unknown name "${bad}"; use ${valid.join(', ')}`);
  return names as T[];
}

/**
 * The policy names of `--policy` (repeatable or a comma list) and of the old `--policies`, which still works
 * with a notice on stderr. `fixed:<label>` labels may contain no comma.
 */
export function policyValues(values: Values, io: Io): string[] {
  const old = str(values, 'policies');
  if (old !== undefined)
    io.stderr('notice: --policies is now --policy (repeatable or a comma list); --policies still works\n');
  return [...listValues(strs(values, 'policy')), ...listValues(old)];
}

/** The integer of `--rng-seed`, or of the old `--seed` with a notice. @throws UsageError when both are given. */
export function rngSeedValue(values: Values, io: Io): string | undefined {
  const old = str(values, 'seed');
  if (old !== undefined) {
    if (str(values, 'rng-seed') !== undefined)
      throw new UsageError('give --rng-seed only (--seed is its old name)');
    io.stderr(
      'notice: --seed is now --rng-seed (the integer seeding random streams, not a dialogue seed); --seed still works\n',
    );
    return old;
  }
  return str(values, 'rng-seed');
}

/**
 * Old spellings of options, still read with a notice on stderr: `old` maps each old flag to its current one
 * (`warmup` → `critic-warmup-steps`). Returns `values` with each old flag's value under its current flag.
 * @throws UsageError when an old flag and its current one are both given.
 */
export function renamedFlags(values: Values, old: Readonly<Record<string, string>>, io: Io): Values {
  const out: Values = { ...values };
  for (const [was, now] of Object.entries(old)) {
    const v = values[was];
    if (v === undefined) continue;
    if (values[now] !== undefined) throw new UsageError(`give --${now} only (--${was} is its old name)`);
    io.stderr(`notice: --${was} is now --${now}; --${was} still works\n`);
    out[now] = v;
    delete out[was];
  }
  return out;
}

/**
 * What success means for each task — the one definition of `src/tasks/success.ts`, as the README states it — for
 * every `--help` that prints a success rate (docs/architecture.md "Tasks, judges and rewards").
 */
export const SUCCESS_HELP = `What success means (one definition per task, used by the judges and every report):
  esconv     ${SUCCESS_TEXT.esconv}
  p4g        ${SUCCESS_TEXT.p4g}
  cb         ${SUCCESS_TEXT.cb}
  emollm-*   ${EMOLLM_SUCCESS_TEXT}`;

/** The `--seeds` help line. */
export const SEEDS_HELP =
  '  --seeds [TASK=]PATH|bundled\n' +
  '                       dataset file, P4G folder/CSV or seed JSONL file, or bundled (the authored seeds, the\n' +
  '                       default); for an EmoLLM setting (emollm-ed, …), a JSONL file of EmoLLM scenarios\n' +
  '                       (their shape: README, "EmoLLM: scenarios, metrics and Stage II training"; a bad line\n' +
  '                       stops the run, naming file:line); TASK= when the command has several tasks; repeatable\n' +
  '                       or comma-separated';

/**
 * The items of `--seeds` (or `--eval-seeds`), repeatable or comma-separated as {@link listValues}.
 * @throws UsageError for an empty value (`--seeds ""`), which would otherwise leave the bundled seeds in place.
 */
export function seedsItems(raw: readonly string[] | undefined, option = 'seeds'): string[] {
  if ((raw ?? []).some((r) => listValues(r).length === 0))
    throw new UsageError(`--${option} is empty: give [TASK=]PATH or bundled`);
  return listValues(raw);
}

/**
 * `--seeds [TASK=]PATH|bundled` per task name (a task or an EmoLLM setting): a bare value applies when there is
 * one.
 * @returns per task name, a path or `bundled`; names not given get `bundled`.
 * @throws UsageError for an empty value, an unknown task, a task given twice, a bare value with several tasks, a
 *   missing path, or a path for `emollm` (all four settings: a file of scenarios goes with its setting's name).
 */
export function seedsValues<T extends TaskName>(
  raw: readonly string[] | undefined,
  tasks: readonly T[],
  option = 'seeds',
): Record<T, string> {
  const out = Object.fromEntries(tasks.map((t) => [t, 'bundled'])) as Record<T, string>;
  const given = new Set<string>();
  for (const item of seedsItems(raw, option)) {
    const eq = item.indexOf('=');
    const prefix = item.slice(0, eq);
    const named = eq > 0 && isTaskName(prefix);
    let task: T;
    let path: string;
    if (named) {
      if (!(tasks as readonly string[]).includes(prefix))
        throw new UsageError(`--${option} ${item}: ${prefix} is not among the tasks (${tasks.join(', ')})`);
      task = prefix as T;
      path = item.slice(eq + 1);
    } else {
      if (tasks.length !== 1)
        throw new UsageError(
          `--${option} ${item}: with several tasks, say which: TASK=PATH (${tasks.join(', ')})`,
        );
      task = tasks[0] as T;
      path = item;
    }
    if (task === 'emollm' && path !== 'bundled')
      throw new UsageError(
        `--${option} ${item}: emollm plays the bundled scenarios of all four settings; for your own, name the ` +
          'setting: --task esconv --seed-set emollm-ed --seeds FILE (or emollm-msd, emollm-medd, emollm-iclr)',
      );
    if (given.has(task)) throw new UsageError(`--${option} gives ${task} twice`);
    given.add(task);
    if (path !== 'bundled' && !existsSync(path))
      throw new UsageError(`--${option}: no such file or folder: ${path}`);
    out[task] = path;
  }
  return out;
}

/**
 * The task and seed set a command plays, from `--task` and `--seed-set`: the normalising edge of the old task
 * names (`--task emollm-ed` is `--task esconv --seed-set emollm-ed`, with a one-line notice on stderr).
 * @throws UsageError for an unknown task, an unknown seed set of the task (listing the valid names), or an old
 *   task name with another `--seed-set`.
 */
export function taskAndSeedSet(
  rawTask: string,
  rawSeedSet: string | undefined,
  io: Io,
): { task: TaskId; seedSet: string | undefined } {
  const old = legacyTaskName(rawTask);
  if (old) {
    if (rawSeedSet !== undefined && rawSeedSet !== old.seedSet)
      throw new UsageError(
        `--task ${rawTask} is the seed set ${old.seedSet} of ${old.task}; give --task ${old.task} --seed-set NAME instead`,
      );
    io.stderr(legacyTaskNotice(old, 'cli'));
    return { task: old.task, seedSet: old.seedSet };
  }
  if (!(TASK_IDS as readonly string[]).includes(rawTask))
    throw new UsageError(`unknown task "${rawTask}"; use ${TASK_IDS.join(', ')}`);
  const task = rawTask as TaskId;
  if (rawSeedSet !== undefined)
    try {
      getSeedSet(task, rawSeedSet);
    } catch (e) {
      throw new UsageError(`--seed-set: ${(e as Error).message}`, { cause: e });
    }
  return { task, seedSet: rawSeedSet };
}

/**
 * The name the seed loaders (`loadSeedsArg`, `--seeds [NAME=]PATH`) key a file's format on: a named seed set
 * (`emollm-ed`: EmoLLM scenario JSONL), else the task.
 */
export function seedSourceName(task: TaskId, seedSet: string | undefined): TaskName {
  return (seedSet ?? task) as TaskName;
}

/** The `--backend` family's help lines. */
export const BACKEND_HELP = `Language backends (any mix per role):
  --backend SPEC       KIND for every role, or ROLE=KIND for one role or group; repeatable, the most specific
                       wins. KIND: template | webllm | openai | replay | llamacpp (default template). ROLE: strategy,
                       realizer, mode, proposer, responder, judge, arg, predictor, or the groups actor
                       (strategy, realizer, arg, predictor) and sim (mode, proposer, responder). The prompting
                       baselines call the strategy role's backend. webllm runs only in a browser (WebGPU in a
                       Web Worker); use llamacpp, openai or replay here.
  --model NAME         model of the webllm / openai backend (e.g. qwen2.5:0.5b for Ollama), or the GGUF file of
                       llamacpp (a local model run by llama.cpp in Node through the optional node-llama-cpp)
  --base-url URL       OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1 (loopback only by default)
  --allow-remote       allow a non-loopback --base-url (dialogue text then leaves this machine)
  --fixtures FILE      replay fixture JSON (request key -> answers), or a recorded episode file
                       ({ job, fixture }: an episode recorded with its answers); required by replay
  --timeout SECONDS    per LLM call, openai and llamacpp (default 120); a slower call fails with LLM_TIMEOUT
  --max-answer-bytes N cut off an answer (response body) past N bytes with LLM_ANSWER_TOO_LARGE, not retried
                       (default 4194304)
  --context-size N     llamacpp context window per episode in flight, in tokens (default 4096)
  --threads N          llamacpp CPU threads (default: the engine's choice)
  --concurrency N      episodes in flight at once against the language backends (default 1; llamacpp gets
                       one sequence of its context per episode); results and output order do not depend on it`;

/** parseArgs options of the `--backend` family. */
export const BACKEND_OPTIONS: NonNullable<ParseArgsConfig['options']> = {
  backend: { type: 'string', multiple: true },
  model: { type: 'string' },
  'base-url': { type: 'string' },
  'allow-remote': { type: 'boolean' },
  fixtures: { type: 'string' },
  timeout: { type: 'string' },
  'max-answer-bytes': { type: 'string' },
  'context-size': { type: 'string' },
  threads: { type: 'string' },
  concurrency: { type: 'string' },
};

/** The option values {@link languageConfig} reads. */
export interface LanguageValues {
  backend: string[];
  model?: string;
  'base-url'?: string;
  'allow-remote': boolean;
  fixtures?: string;
  timeout?: string;
  'max-answer-bytes'?: string;
  'context-size'?: string;
  threads?: string;
  concurrency?: string;
}

/** A positive integer option (`--flag N`), or undefined when absent. @throws UsageError otherwise. */
function positiveInt(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1)
    throw new UsageError(`--${flag} must be a positive integer, got "${value}"`);
  return n;
}

/** `--concurrency N` (default 1). @throws UsageError for a value that is not a positive integer ≤ 64. */
export function concurrencyValue(values: LanguageValues): number {
  const n = positiveInt('concurrency', values.concurrency) ?? 1;
  if (n > 64) throw new UsageError(`--concurrency is at most 64, got ${n}`);
  return n;
}

function usesReplay(config: RolesConfig): boolean {
  return [config.default, ...Object.values(config.roles ?? {})].some((s) => s?.kind === 'replay');
}

/** Backends that run only in a browser (src/roles/resolve.ts refuses them in Node); the CLI names them as such. */
const BROWSER_ONLY_BACKENDS: readonly string[] = ['webllm', 'wllama'];

/**
 * `--backend` and its companions as a roles config (fixtures not loaded: see {@link readFixtures}).
 * @throws UsageError for an unknown backend or role, a missing model / URL / fixtures, options no backend reads.
 */
export function languageConfig(values: LanguageValues): RolesConfig {
  const timeout = positiveInt('timeout', values.timeout);
  const maxAnswerBytes = positiveInt('max-answer-bytes', values['max-answer-bytes']);
  const contextSize = positiveInt('context-size', values['context-size']);
  const threads = positiveInt('threads', values.threads);
  const concurrency = concurrencyValue(values);
  const spec = (kind: string): BackendSpec => {
    if (!(BACKEND_KINDS as readonly string[]).includes(kind))
      throw new UsageError(
        `unknown backend "${kind}"; use ${BACKEND_KINDS.filter((k) => !BROWSER_ONLY_BACKENDS.includes(k)).join(', ')} ` +
          `(${BROWSER_ONLY_BACKENDS.join(' and ')}: browser only)`,
      );
    const out: BackendSpec = {
      kind: kind as BackendSpec['kind'],
      ...(values.model !== undefined ? { model: values.model } : {}),
      ...(values['base-url'] !== undefined && kind !== 'llamacpp' ? { baseUrl: values['base-url'] } : {}),
      ...(values['allow-remote'] ? { allowRemote: true } : {}),
    };
    if (kind === 'openai' || kind === 'llamacpp') {
      if (timeout !== undefined) out.timeoutMs = timeout * 1000;
      if (maxAnswerBytes !== undefined) out.maxAnswerBytes = maxAnswerBytes;
    }
    if (kind === 'llamacpp') {
      if (contextSize !== undefined) out.contextSize = contextSize;
      if (threads !== undefined) out.threads = threads;
      if (concurrency > 1) out.sequences = concurrency;
    }
    return out;
  };
  const config: RolesConfig = {};
  const roles: Partial<Record<RoleKey, BackendSpec>> = {};
  for (const entry of values.backend) {
    const eq = entry.indexOf('=');
    if (eq < 0) {
      config.default = spec(entry);
      continue;
    }
    const role = entry.slice(0, eq);
    if (!(ROLE_KEYS as readonly string[]).includes(role))
      throw new UsageError(`unknown role "${role}" in --backend ${entry}; use ${ROLE_KEYS.join(', ')}`);
    roles[role as RoleKey] = spec(entry.slice(eq + 1));
  }
  if (Object.keys(roles).length > 0) config.roles = roles;
  const replay = usesReplay(config);
  if (values.fixtures !== undefined && !replay)
    throw new UsageError(
      '--fixtures is only read by the replay backend; add --backend replay (or ROLE=replay)',
    );
  if (values.fixtures === undefined && replay) throw new UsageError('--backend replay needs --fixtures FILE');
  const kinds = new Set([config.default, ...Object.values(roles)].map((s) => s?.kind));
  const llm = kinds.has('openai') || kinds.has('webllm') || kinds.has('llamacpp');
  if (!llm && (values.model !== undefined || values['base-url'] !== undefined))
    throw new UsageError('--model and --base-url are only used with --backend webllm, openai or llamacpp');
  if (values['base-url'] !== undefined && !kinds.has('openai'))
    throw new UsageError('--base-url is only used with --backend openai');
  if (!kinds.has('openai') && !kinds.has('llamacpp') && (timeout ?? maxAnswerBytes) !== undefined)
    throw new UsageError('--timeout and --max-answer-bytes are only used with --backend openai or llamacpp');
  if (!kinds.has('llamacpp') && (contextSize ?? threads) !== undefined)
    throw new UsageError('--context-size and --threads are only used with --backend llamacpp');
  const checked = RolesConfigSchema.safeParse(replay ? { ...config, fixtures: {} } : config);
  if (!checked.success)
    throw new UsageError(
      checked.error.issues
        .map((i) => `${cliSetting(i.path.join('.')) || 'backend'}: ${i.message}`)
        .join('; '),
    );
  return config;
}

/** A `--fixtures` file that cannot be read or is not JSON: a data error (exit 1), naming the file and line. */
export class FixturesFileError extends LabError {
  override name = 'FixturesFileError';
  override readonly code = 'FIXTURES_FILE_INVALID';
}

/**
 * Reads a replay fixture: a JSON object of request key → answers, or a recorded episode file whose `fixture`
 * member is one. @throws UsageError when the file does not exist; FixturesFileError naming the file (and the line
 * and column of the damage) when it cannot be read or is not JSON, in words ({@link readJsonFile}), never the
 * parser's text.
 */
export async function readFixtures(path: string): Promise<ReplayFixture> {
  let json: unknown;
  try {
    json = await readJsonFile(path);
  } catch (err) {
    if (hasCode(err, PathError, 'FILE_UNREADABLE', 'PATH_KIND_MISMATCH') && !existsSync(path))
      throw new UsageError(`--fixtures: ${err.message}`);
    if (
      hasCode(err, PathError, 'FILE_UNREADABLE', 'PATH_KIND_MISMATCH') ||
      hasCode(err, DataFormatError, 'FILE_DAMAGED')
    )
      throw new FixturesFileError(`--fixtures: ${err.message}`, { cause: err });
    throw err;
  }
  const inner = (json as { fixture?: unknown; job?: unknown }) ?? {};
  return (inner.job !== undefined && inner.fixture !== undefined ? inner.fixture : json) as ReplayFixture;
}

/**
 * The stderr line that says how many actor utterances (`count` ≥ 1) the environment cut to its length limit
 * (`MAX_UTTERANCE_CHARS`, src/env/env.ts).
 */
export function cutUtterancesNotice(count: number): string {
  const were = count === 1 ? 'utterance was' : 'utterances were';
  return `warning: ${count} ${were} cut to ${MAX_UTTERANCE_CHARS} characters (MAX_UTTERANCE_CHARS)\n`;
}

/** The number of worker threads a machine can use: its cores. */
export function maxWorkers(): number {
  return Math.max(1, cpus().length);
}

/**
 * The command line's words for each library setting that an error can name ({@link LabError.settings}): the
 * option that sets it, or words for the options that do. A setting not listed keeps the library's key.
 */
const CLI_SETTINGS: Readonly<Record<string, string>> = {
  resume: '--resume',
  overwrite: '--overwrite',
  replace: '--overwrite',
  allowRemote: '--allow-remote',
  // A principles build checkpoint's header fields (src/memory/construct.ts).
  maxAttempts: '--max-attempts',
  baseSeed: '--rng-seed',
  episodes: '--episodes',
  task: '--task',
  seedIds: 'the seed list (--seeds, --split)',
  // A resumed training run's new total (src/jobs/errors.ts).
  steps: '--steps',
};

/** A backend spec's fields (`default.model`, `language.roles.judge.baseUrl`) and the options that set them. */
const BACKEND_FIELD_OPTIONS: Readonly<Record<string, string>> = {
  model: '--model',
  baseUrl: '--base-url',
  kind: '--backend',
  allowRemote: '--allow-remote',
};

/** How the command line names a library setting (a configuration key, dotted when nested) in a message. */
export function cliSetting(setting: string): string {
  const path = setting.split('.');
  const field = path[path.length - 1] ?? '';
  const inBackend = path.length > 1 && (path.includes('default') || path.includes('roles'));
  if (inBackend && Object.hasOwn(BACKEND_FIELD_OPTIONS, field)) return BACKEND_FIELD_OPTIONS[field] as string;
  return Object.hasOwn(CLI_SETTINGS, setting) ? (CLI_SETTINGS[setting] as string) : setting;
}

/**
 * An error's message in the command line's words: a {@link LabError} rendered with {@link cliSetting} for each
 * setting it names (no text is rewritten), any other error's message as it is.
 */
export function cliMessage(error: unknown): string {
  if (error instanceof LabError) return error.render(cliSetting);
  return error instanceof Error ? error.message : String(error);
}

/**
 * A kind of error a command treats specially: an error class (any of its codes), or some codes of a
 * {@link LabError} class (`{ class: PathError, codes: ['OUTPUT_PATH_INVALID'] }`).
 */
export type ErrorKind =
  | (abstract new (...args: never[]) => Error)
  | { class: abstract new (...args: never[]) => LabError; codes: readonly string[] };

function isKind(err: unknown, kind: ErrorKind): boolean {
  return typeof kind === 'function'
    ? err instanceof kind
    : err instanceof kind.class && kind.codes.includes(err.code);
}

/**
 * Runs a command's body and maps its errors to exit codes: 130 for an interrupted job ({@link isInterrupted}), 2
 * for usage errors, 1 otherwise. Messages are printed
 * in the command line's words ({@link cliMessage}), each followed by the hint of its error class (first match).
 */
export async function runCommand(
  io: Io,
  body: () => Promise<void>,
  usageErrors: readonly ErrorKind[],
  hints: { error: ErrorKind; hint: string }[] = [],
): Promise<number> {
  try {
    await body();
    return 0;
  } catch (err) {
    const hint = hints.find((h) => isKind(err, h.error))?.hint;
    if (isInterrupted(err)) {
      io.stderr(`${cliMessage(err)}\n`);
      return INTERRUPTED_EXIT_CODE;
    }
    if (err instanceof UsageError || usageErrors.some((kind) => isKind(err, kind))) {
      io.stderr(`error: ${cliMessage(err)}\n${hint ? `${hint}\n` : ''}Run with --help for the options.\n`);
      return 2;
    }
    io.stderr(`error: ${cliMessage(err)}\n${hint ? `${hint}\n` : ''}`);
    return 1;
  }
}

/** Parsed option values (strings, booleans and lists of strings). */
export type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

/**
 * `argv` with a negative number after a string option (`--episodes -1`) joined to it (`--episodes=-1`), so the
 * option's own range check names the option and its range (parseArgs alone calls the value "ambiguous").
 */
export function joinNegativeValues(
  argv: readonly string[],
  options: NonNullable<ParseArgsConfig['options']>,
): string[] {
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const next = argv[i + 1];
    const isStringOption = /^--[^=]+$/.test(a) && options[a.slice(2)]?.type === 'string';
    if (isStringOption && next !== undefined && /^-[\d.]/.test(next)) {
      args.push(`${a}=${next}`);
      i++;
    } else args.push(a);
  }
  return args;
}

/** The options of every command that name a file or folder (`--seeds` is checked by {@link seedsItems}). */
const PATH_OPTIONS = [
  'out',
  'fixtures',
  'ladder',
  'memory',
  'f1-data',
  'ppdpp-model',
  'ppdpp-train',
] as const;

/**
 * Refuses an empty file or folder option (`--out ''`), which would otherwise read as not given.
 * @throws UsageError naming the option.
 */
export function checkPathValues(values: Values): void {
  for (const flag of PATH_OPTIONS)
    if (strs(values, flag).some((v) => v.trim() === ''))
      throw new UsageError(`--${flag} is empty: give a path`);
}

/** An input a command reads: the option that names it and its value (`[TASK=]PATH`, `bundled` or absent). */
export interface InputOption {
  option: string;
  value: string | undefined;
}

/** The path of an input option's value: `PATH` of `TASK=PATH`; undefined for `bundled`, no value, or nothing there. */
function inputPath(value: string | undefined): string | undefined {
  if (value === undefined || value === 'bundled') return undefined;
  if (existsSync(value)) return value;
  const named = /^([a-z0-9-]+)=(.+)$/.exec(value);
  return named && isTaskName(named[1] as string) && existsSync(named[2] as string) ? named[2] : undefined;
}

/**
 * The real paths (links resolved) of what an input path is read as: the path itself; for a folder, also its dataset
 * files (`datasetFilesIn`, the loaders' one reading of a folder); for a P4G CSV, also the standard-named companions
 * beside it, which the loader reads with it.
 */
async function inputFiles(path: string): Promise<Set<string>> {
  const files = new Set([realpathSync(path)]);
  const more = statSync(path).isDirectory()
    ? await datasetFilesIn(path).catch(() => [])
    : extname(path).toLowerCase() === '.csv'
      ? Object.values(P4G_FILE_NAMES)
          .map((name) => join(dirname(path), name))
          .filter((f) => existsSync(f))
      : [];
  for (const f of more) files.add(realpathSync(f));
  return files;
}

/**
 * Refuses, before any work, an output that would write over one of the command's inputs (the one check of every
 * command that reads files and writes `--out`): an output file that exists and is an input file (compared as real
 * paths, so a link to it, `./F` and `F` are the same file), one of the dataset files of an input folder, or a P4G
 * companion read with an input CSV; and, for an output folder, one that holds an input at a place the command
 * replaces (`replaced`). Nothing else is checked (see `assertOutputAvailable` for what is there).
 * @param out the output: its path as given (undefined: none), its option (default `out`), and for a folder the
 *   places in it the command replaces or rewrites (`replaced`, given a path relative to the folder, `/`-separated;
 *   e.g. everything for a run folder that `--overwrite` replaces; absent: none).
 * @param inputs the input options, each `[TASK=]PATH` (undefined or `bundled`: none).
 * @throws UsageError naming both options: `--out F is the --seeds file: give another --out, the input is never
 *   overwritten`.
 */
export async function refuseOutputOverInputs(
  out: { path: string | undefined; option?: string; replaced?: (inside: string) => boolean },
  inputs: readonly InputOption[],
): Promise<void> {
  if (out.path === undefined || !existsSync(out.path)) return;
  const option = out.option ?? 'out';
  const target = realpathSync(out.path);
  const refuse = (what: string) =>
    new UsageError(
      `--${option} ${out.path} ${what}: give another --${option}, the input is never overwritten`,
    );
  const under = target.endsWith(sep) ? target : `${target}${sep}`;
  const replaced = (file: string) =>
    file.startsWith(under) && out.replaced?.(file.slice(under.length).split(sep).join('/')) === true;
  for (const input of inputs) {
    const path = inputPath(input.value);
    if (path === undefined) continue;
    const kind = statSync(path).isDirectory() ? 'folder' : 'file';
    const files = await inputFiles(path);
    if (realpathSync(path) === target) throw refuse(`is the --${input.option} ${kind}`);
    if (files.has(target)) throw refuse(`is one of the files that --${input.option} ${path} reads`);
    if ([...files].some(replaced))
      throw refuse(`holds the --${input.option} ${kind} ${path}, where this command writes`);
  }
}

/**
 * Parses argv with node:util parseArgs (negative values joined: {@link joinNegativeValues}).
 * @throws UsageError for an unknown option, a missing value, a single-value option given twice or an empty path
 *   ({@link checkPathValues}).
 */
export function parseCommandLine(argv: string[], options: NonNullable<ParseArgsConfig['options']>): Values {
  const args = joinNegativeValues(argv, options);
  let values: Values;
  let tokens: { kind: string; name?: string; rawName?: string }[];
  try {
    ({ values, tokens } = parseArgs({ args, options, strict: true, allowPositionals: false, tokens: true }));
  } catch (err) {
    throw new UsageError(parseArgsMessage(err, options));
  }
  refuseRepeats(tokens, options);
  checkPathValues(values);
  return values;
}

/**
 * node:util parseArgs's error in the commands' words: an unknown option gets the known option nearest to it
 * (Levenshtein distance at most 2, `fastest-levenshtein`) as "did you mean"; a missing value reads "--x needs a
 * value". Other errors keep parseArgs's message.
 * @param options the command's option table (the names suggested from).
 */
export function parseArgsMessage(err: unknown, options: NonNullable<ParseArgsConfig['options']>): string {
  const { code } = err as { code?: string };
  // Node adds advice on positionals after the first sentence ("To specify a positional argument starting with a
  // '-', …"), which is about its own syntax, not this command's, and quotes unevenly: the first sentence is kept.
  const message = (err as { message: string }).message.split('. To specify a positional')[0] as string;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const given = /'([^']+)'/.exec(message)?.[1] ?? '';
    const name = given.replace(/^-+/, '');
    const names = Object.keys(options);
    const near = names.length > 0 && name.length > 2 ? closest(name, names) : '';
    return near !== '' && distance(name, near) <= 2 ? `${message} (did you mean --${near}?)` : message;
  }
  const missing = /^Option '(?:-\w, )?(--[^ ']+) <value>' argument missing/.exec(message);
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && missing) return `${missing[1]} needs a value`;
  return message;
}

/**
 * Refuses a single-value option given twice: node:util parseArgs keeps the last one, and a run must not silently
 * drop the other (`--task esconv --task p4g`). `tokens` are parseArgs's (`tokens: true`).
 * @throws UsageError naming the option.
 */
export function refuseRepeats(
  tokens: readonly { kind: string; name?: string; rawName?: string }[],
  options: NonNullable<ParseArgsConfig['options']>,
): void {
  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== 'option' || token.name === undefined) continue;
    if (options[token.name]?.multiple === true) continue;
    if (seen.has(token.name))
      throw new UsageError(`${token.rawName ?? `--${token.name}`} is given twice; give it once`);
    seen.add(token.name);
  }
}

/** A string option's value. */
export function str(values: Values, flag: string): string | undefined {
  const v = values[flag];
  return typeof v === 'string' ? v : undefined;
}

/** A boolean option's value (false when absent). */
export function bool(values: Values, flag: string): boolean {
  return values[flag] === true;
}

/** A repeatable option's values. */
export function strs(values: Values, flag: string): string[] {
  const v = values[flag];
  return Array.isArray(v)
    ? v.filter((x): x is string => typeof x === 'string')
    : typeof v === 'string'
      ? [v]
      : [];
}

/** The `--backend` family's values. */
export function languageValues(values: Values): LanguageValues {
  const model = str(values, 'model');
  const baseUrl = str(values, 'base-url');
  const fixtures = str(values, 'fixtures');
  const out: LanguageValues = {
    backend: strs(values, 'backend'),
    ...(model !== undefined ? { model } : {}),
    ...(baseUrl !== undefined ? { 'base-url': baseUrl } : {}),
    'allow-remote': bool(values, 'allow-remote'),
    ...(fixtures !== undefined ? { fixtures } : {}),
  };
  for (const flag of ['timeout', 'max-answer-bytes', 'context-size', 'threads', 'concurrency'] as const) {
    const v = str(values, flag);
    if (v !== undefined) out[flag] = v;
  }
  return out;
}

/** What the command line adds to a catalogue entry's help: how to give it what its form or need asks for. */
function policyNote(entry: PolicyEntry): string | null {
  if (!entry.forms.template) return 'LLM form only: --backend strategy=KIND';
  if (entry.family === 'baseline' && entry.forms.llm)
    return 'template form, or LLM form with --backend strategy=KIND';
  if (entry.needs === 'ppdpp-planner') return 'evaluate trains one or loads it: --ppdpp-model TASK=PATH';
  return null;
}

/** The policy catalogue for `--help`: one line per entry (src/policies), generated. */
export const POLICIES_HELP = `Policies (--policy NAME; every command takes the same names):
${POLICY_CATALOGUE.map((e) => {
  const note = policyNote(e);
  const line = `  ${e.pattern.padEnd(20)} ${e.help}`;
  if (note === null) return line;
  return line.length + note.length + 3 > 118 ? `${line}\n${' '.repeat(23)}(${note})` : `${line} (${note})`;
}).join('\n')}`;
