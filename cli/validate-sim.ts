/**
 * `npm run validate-sim`: how well Cog-Sim matches real people (docs/architecture.md "Simulator validation").
 * Replays human dialogues teacher-forced and compares the simulator's decisions with the humans' reactions
 * and outcomes (dev and held-out, with intervals and baselines), runs dose–response per task, and compares
 * replaying the human actors' strategies with random. Logic in src/validity; this file parses options and
 * prints.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitOnStrayInterrupt, INTERRUPTED_EXIT_CODE, isInterrupted, listenForInterrupt } from './interrupt';
import { formatSeconds, startProgress } from './progress';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { p4gFileKind, type TextFile, TASK_IDS, type TaskId, type P4gFiles } from '../src/entries/simulator';
import { describeErrno } from '../src/entries/storage';
import {
  assertOutputAvailable,
  datasetFilesIn,
  readDatasetText,
  writeFileAtomic,
  nodeRuntime,
} from '../src/node';
import { checkRoles, buildRoles, usesLlm, type RolesConfig } from '../src/entries/models';
import {
  parseLadderFile,
  type LadderFile,
  buildValidityReport,
  reportMarkdown,
  type ValidityReport,
  type ValidityFiles,
} from '../src/entries/validity';
import {
  BACKEND_HELP,
  BACKEND_OPTIONS,
  checkPathValues,
  refuseRepeats,
  cliMessage,
  joinNegativeValues,
  languageConfig,
  languageValues,
  parseNumber,
  rangeText,
  readFixtures,
  refuseOutputOverInputs,
  SUCCESS_HELP,
  UsageError as OptionUsageError,
  parseArgsMessage,
} from './options';
import {
  DataFormatError,
  hasCode,
  InputError,
  LabError,
  OutputConflictError,
  PathError,
  withArticle,
} from '../src/entries/errors';

/**
 * The integer options' documented ranges, checked by {@link parseNumber} and shown in `--help`: resamples as in
 * `evaluate` (fewer than 100 cannot draw a 95% interval's tails), seed counts up to 1,000 per task.
 */
const RANGES = {
  doseSeeds: { min: 1, max: 1000 },
  checkSeeds: { min: 0, max: 1000 },
  exploitSeeds: { min: 0, max: 1000 },
  resamples: { min: 100, max: 100_000 },
  sample: { min: 1, max: 100_000 },
  maxTurns: { min: 1, max: 1000 },
} as const;

/**
 * The roles `--backend ROLE=KIND` may name here: the simulator's. The teacher-forced replay calls the mode
 * classifier and the change proposer; the responder's reply is discarded (the human's goes into the history), so
 * it stays template whatever is given.
 */
const SIM_ROLE_KEYS: readonly string[] = ['mode', 'proposer', 'sim'];

/** What the report says ran on the language roles (its `language.scope`). */
const LANGUAGE_SCOPE =
  'teacher-forced replay: mode classifier and change proposer on the backends below; the responder stays ' +
  'template (its reply is discarded, never scored); dose–response, reply variety, the replay-vs-random check and ' +
  'the exploit table use the template roles';

export const HELP = `Usage: npm run validate-sim -- [options]

Replays real human dialogues through Cog-Sim teacher-forced (the human actor's turns drive the simulator; the
human user's replies stay in the history as they were and are never read to decide) and compares what the
simulator decides with what the people did:
  P4G   turn level: the persuadee's annotated reaction (positive / negative / neutral-or-other) — Cohen's kappa
        and macro-F1; dialogue level: AUC of the final donation intention and of a commitment for
        actual_donation > 0, against a traits-only logistic regression
  CB    turn level: the seller's act (agree / counter / disagree / other), and its counter-offers: Spearman's
        rho of the simulated seller's price with the human seller's counter (fractions of the list price)
        against "split the difference"; dialogue level: deal reached
  ESConv turn level: the sentiment of the seeker's next turn against the simulator's valence change
with 95% bootstrap intervals clustered by dialogue, against a majority-class and a text-sentiment baseline, for
the dev part and a held-out part (20% of dialogues, chosen by a hash of the dialogue id). Also prints the
dose–response of each task (mean outcome per level and the share of seeds on which it is monotone), the variety
of the simulated user's replies (distinct-1 / distinct-2 over one random-policy episode per dose seed, and how
many replies repeat the previous one word for word), how replaying the human actors' strategy labels
compares with random, and the exploit table: each exploit against an adaptive script on held-out seeds.

Options:
  --seeds [TASK=]PATH   a dataset file or folder; repeatable. TASK is esconv, p4g or cb (guessed from the file
                        when left out: P4G CSVs or a folder of them, ESConv / CraigslistBargain JSONL).
                        Default: the shared datasets folder beside the repository
                        (../shared/data/{esconv,p4g,cb} from the repository root, or PDL_DATA_DIR)
  --task LIST           only these tasks (comma-separated; default: every task with files)
  --ladder FILE         dose ladders, {"<task>": {"levels": [{"utterances": ["…"], "priceFraction": 0.85}, …]}}
                        (levels ordered so that the outcome should rise; priceFraction and {price} for cb only)
  --dose-seeds N        dev seeds per task for dose–response and reply variety (range ${rangeText(RANGES.doseSeeds)};
                        default 20)
  --check-seeds N       dev seeds per task for replay vs random (range ${rangeText(RANGES.checkSeeds)}; default 20; 0
                        skips it)
  --exploit-seeds N     held-out seeds per task for the exploit table (range ${rangeText(RANGES.exploitSeeds)};
                        default 20, about 4 CPU-seconds; 0 skips it): each exploit (keyword stuffing, word
                        salad, a shuffled keyword list, several prices, repetition, one fixed strategy, very long
                        and near-empty turns, echoing) against the adaptive script, paired 95% interval of the
                        return difference clustered by seed; and how often word salad is an accepted Influence
                        turn. Tasks whose files hold no held-out dialogue play their bundled seeds (said so)
  --no-exploits         skip the exploit table (same as --exploit-seeds 0)
  --resamples N         bootstrap resamples (range ${rangeText(RANGES.resamples)}; default 2000)
  --sample N            replay only the first N dialogues of each task, purpose and split (dev, held-out), in
                        file order (range ${rangeText(RANGES.sample)}; default: all) — a small run for a slow model
  --max-turns N         replay only the first N actor turns of each dialogue (range ${rangeText(RANGES.maxTurns)};
                        default: all); dialogue-level rows then read the simulator's state at the cut
  --all-held-out        score the whole of the given files as held-out (an outside test file: no internal
                        split; majority baselines from its own labels, P4G traits cross-validated in it)
  --out DIR             also write validity.json and validity.md there (checked before any work: a new or empty
                        folder, or an earlier validate-sim output with --overwrite)
  --overwrite           replace the validity.json and validity.md of an earlier run in --out
  --json                print the report as JSON on stdout (instead of Markdown)
  -h, --help            show this help

${BACKEND_HELP.replace(/\n {2}--concurrency[^]*$/, '')}
  Here --backend names the simulator's roles only (KIND, or mode=KIND, proposer=KIND, sim=KIND): the replay
  calls the mode classifier and the change proposer; the responder stays template (its reply is discarded).
  The report records which backend played each role, its calls and tokens, and the model file and its hash.

${SUCCESS_HELP}
(the replay-vs-random check counts successes this way)

Examples:
  npm run validate-sim
  npm run validate-sim -- --seeds p4g=../shared/data/p4g --ladder my-ladders.json --json
                                          (my-ladders.json: your own ladder file, shaped as under --ladder)
  npm run validate-sim -- --seeds my-esconv.jsonl --out reports/validity
  npm run validate-sim -- --task esconv --backend llamacpp --model gemma-3-270m-q4_k_m.gguf --threads 1 \\
      --sample 2 --max-turns 3 --dose-seeds 2 --check-seeds 0 --resamples 100
`;

/** A mistake on the command line. */
export class UsageError extends InputError {
  override name = 'UsageError';
  constructor(message: string, options?: ErrorOptions) {
    super('VALIDITY_INPUT', message, options);
  }
}

export interface ValidateArgs {
  seeds: { task: TaskId | null; path: string }[];
  tasks: TaskId[] | null;
  ladder: string | null;
  doseSeeds: number;
  checkSeeds: number;
  /** Held-out seeds per task for the exploit table; 0 skips it. */
  exploitSeeds: number;
  resamples: number;
  out: string | null;
  overwrite: boolean;
  json: boolean;
  allHeldOut: boolean;
  /** Dialogues replayed per task, purpose and split (`--sample`), or null for all. */
  sample: number | null;
  /** Actor turns replayed per dialogue (`--max-turns`), or null for all. */
  maxTurns: number | null;
  /** Backends of the simulator roles (template unless `--backend` says otherwise; fixtures not yet loaded). */
  language: RolesConfig;
  /** The replay fixture file (`--fixtures`). */
  fixtures: string | null;
}

/** An integer option's value within `range`, or `fallback` when it is absent. @throws UsageError (cli/options). */
function integer(
  raw: string | undefined,
  name: string,
  fallback: number,
  range: { min: number; max: number },
): number {
  return raw === undefined ? fallback : parseNumber(name, raw, { integer: true, ...range });
}

/** `--exploit-seeds N`, or 0 for `--no-exploits`. @throws UsageError when both ask for different things. */
function exploitSeeds(values: Record<string, string | boolean | string[] | undefined>): number {
  const raw = values['exploit-seeds'] as string | undefined;
  const n = integer(raw, 'exploit-seeds', 20, RANGES.exploitSeeds);
  if (values['no-exploits'] && raw !== undefined && n > 0)
    throw new UsageError(`--no-exploits and --exploit-seeds ${raw} contradict each other; give one`);
  return values['no-exploits'] ? 0 : n;
}

function isTask(t: string): t is TaskId {
  return (TASK_IDS as readonly string[]).includes(t);
}

const OPTIONS = {
  seeds: { type: 'string', multiple: true },
  task: { type: 'string' },
  ladder: { type: 'string' },
  'dose-seeds': { type: 'string' },
  'check-seeds': { type: 'string' },
  'exploit-seeds': { type: 'string' },
  'no-exploits': { type: 'boolean' },
  resamples: { type: 'string' },
  out: { type: 'string' },
  overwrite: { type: 'boolean' },
  json: { type: 'boolean' },
  'all-held-out': { type: 'boolean' },
  sample: { type: 'string' },
  'max-turns': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  // The --backend family, without --concurrency: the replay runs one dialogue at a time.
  ...(({ concurrency: _, ...rest }) => rest)(BACKEND_OPTIONS),
} as const satisfies NonNullable<ParseArgsConfig['options']>;

/**
 * The dataset paths of `--seeds [TASK=]PATH` values (task null: guessed from the file). Also read by `npm run
 * fit-sim` (scripts/fit-sim.ts).
 * @throws UsageError for `NAME=PATH` with an unknown task NAME.
 */
export function seedSpecs(raw: readonly string[]): { task: TaskId | null; path: string }[] {
  return raw.map((spec) => {
    const m = /^([a-z0-9]+)=(.+)$/.exec(spec);
    if (m && isTask(m[1] as string)) return { task: m[1] as TaskId, path: m[2] as string };
    if (m && !/[\\/.]/.test(m[1] as string))
      throw new UsageError(`--seeds: unknown task "${m[1]}"; use ${TASK_IDS.join(', ')}`);
    return { task: null, path: spec };
  });
}

/** Parse the command line. @throws UsageError (this file's or cli/options's). */
export function parseValidateArgs(argv: string[]): ValidateArgs | 'help' {
  let values: Record<string, string | boolean | string[] | undefined>;
  let tokens: { kind: string; name?: string; rawName?: string }[];
  try {
    ({ values, tokens } = parseArgs({
      args: joinNegativeValues(argv, OPTIONS),
      options: OPTIONS,
      strict: true,
      allowPositionals: false,
      tokens: true,
    }));
  } catch (err) {
    throw new UsageError(parseArgsMessage(err, OPTIONS));
  }
  refuseRepeats(tokens, OPTIONS);
  if (values.help) return 'help';
  checkPathValues(values);
  if (values.overwrite && values.out === undefined) throw new UsageError('--overwrite needs --out DIR');
  const seeds = seedSpecs((values.seeds as string[] | undefined) ?? []);
  let tasks: TaskId[] | null = null;
  if (typeof values.task === 'string') {
    tasks = values.task.split(',').map((t) => t.trim()) as TaskId[];
    const bad = tasks.find((t) => !isTask(t));
    if (bad !== undefined) throw new UsageError(`--task: unknown task "${bad}"; use ${TASK_IDS.join(', ')}`);
  }
  const lv = languageValues(values);
  for (const entry of lv.backend) {
    const role = entry.includes('=') ? entry.slice(0, entry.indexOf('=')) : null;
    if (role !== null && !SIM_ROLE_KEYS.includes(role))
      throw new UsageError(
        `--backend ${entry}: validate-sim runs only the simulator's roles; use KIND, mode=KIND, proposer=KIND or ` +
          `sim=KIND${role === 'responder' ? " (the responder's reply is discarded by the replay: it stays template)" : ''}`,
      );
  }
  const language = languageConfig(lv);
  try {
    // Checks every role's backend without building it (the run builds them once).
    checkRoles(language, nodeRuntime());
  } catch (err) {
    throw new OptionUsageError(cliMessage(err), { cause: err });
  }
  const optional = (flag: 'sample' | 'max-turns', range: { min: number; max: number }) => {
    const raw = values[flag] as string | undefined;
    return raw === undefined ? null : parseNumber(flag, raw, { integer: true, ...range });
  };
  return {
    seeds,
    tasks,
    ladder: (values.ladder as string | undefined) ?? null,
    doseSeeds: integer(values['dose-seeds'] as string | undefined, 'dose-seeds', 20, RANGES.doseSeeds),
    checkSeeds: integer(values['check-seeds'] as string | undefined, 'check-seeds', 20, RANGES.checkSeeds),
    exploitSeeds: exploitSeeds(values),
    resamples: integer(values.resamples as string | undefined, 'resamples', 2000, RANGES.resamples),
    out: (values.out as string | undefined) ?? null,
    overwrite: Boolean(values.overwrite),
    json: Boolean(values.json),
    allHeldOut: Boolean(values['all-held-out']),
    sample: optional('sample', RANGES.sample),
    maxTurns: optional('max-turns', RANGES.maxTurns),
    language,
    fixtures: lv.fixtures ?? null,
  };
}

/**
 * A dataset file as text, read as every command reads a dataset (`readDatasetText`): UTF-16 text is refused with
 * the `iconv` that converts it, a binary file as not text, naming the file.
 * @throws DataFormatError (DATASET_INVALID) naming the file.
 */
async function readText(path: string): Promise<TextFile> {
  return readDatasetText(path);
}

/**
 * The task of a dataset file or folder, from its kind. @throws UsageError when it cannot be told; DataFormatError
 * (DATASET_INVALID) for a UTF-16 or binary file.
 */
async function guessTask(path: string): Promise<TaskId> {
  const task = await heldTask(path);
  if (task === null) throw new UsageError(`--seeds ${path}: cannot tell the task; write it as TASK=${path}`);
  return task;
}

/**
 * The task whose dataset `path` holds, told from its form: a CSV, or a folder of them (or of nothing), is P4G; a
 * JSONL file is ESConv or CraigslistBargain by a field of its first record, a folder of JSONL files as its first
 * file. Null when it cannot be told.
 * @throws DataFormatError (DATASET_INVALID) naming the file when it is UTF-16 text or not text at all.
 */
async function heldTask(path: string): Promise<TaskId | null> {
  if ((await stat(path)).isDirectory()) {
    // A folder of P4G CSVs is P4G; one of ESConv or CB JSONL files is what its first file holds.
    const files = await datasetFilesIn(path);
    if (files.some((f) => extname(f).toLowerCase() === '.csv')) return 'p4g';
    return files[0] === undefined ? 'p4g' : heldTask(files[0]);
  }
  if (extname(path).toLowerCase() === '.csv') return 'p4g';
  // Read as a dataset (UTF-16 or binary refused, naming the file), not guessed from undecoded bytes.
  const first = (await readText(path)).text.split('\n', 1)[0] ?? '';
  if (first.includes('"emotion_type"')) return 'esconv';
  if (first.includes('"seller_price"')) return 'cb';
  return null;
}

/**
 * The folder of the default datasets: `PDL_DATA_DIR` when set, else the shared datasets folder beside the
 * repository (`../shared/data` from the repository root, whatever the working folder). The repository root is
 * found from this module ({@link dataFolderBeside}), so the source (`cli/`) and the built bin (`dist/cli/`) agree.
 */
export function defaultDataFolder(): string {
  const env = process.env.PDL_DATA_DIR?.trim();
  if (env) return env;
  return dataFolderBeside(dirname(fileURLToPath(import.meta.url)));
}

/**
 * `../shared/data` from the package root above `moduleDir`: the nearest folder at or above it holding a
 * `package.json` (cli/ of the source and dist/cli/ of the built bin both lie under it). Without one, from the
 * folder above `moduleDir`.
 */
export function dataFolderBeside(moduleDir: string): string {
  for (let dir = moduleDir; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return resolve(dir, '..', 'shared', 'data');
    if (dirname(dir) === dir) return resolve(moduleDir, '..', '..', 'shared', 'data');
  }
}

/** The default dataset of each task, under {@link defaultDataFolder}. */
const DEFAULT_DATA: readonly { task: TaskId; path: string }[] = [
  { task: 'esconv', path: 'esconv/esconv-valid.jsonl' },
  { task: 'p4g', path: 'p4g' },
  { task: 'cb', path: 'cb/craigslistbargain-valid.jsonl' },
];

/**
 * The datasets to read when no `--seeds` is given: those of the default folder that exist (a notice names any
 * missing one).
 * @throws NoDataError when none exists, saying where they were looked for and how to point at a dataset.
 */
async function defaultSpecs(
  tasks: readonly TaskId[] | null,
  stderr: (s: string) => void,
): Promise<{ task: TaskId; path: string }[]> {
  const folder = defaultDataFolder();
  const wanted = DEFAULT_DATA.filter((d) => !tasks || tasks.includes(d.task)).map((d) => ({
    task: d.task,
    path: join(folder, d.path),
  }));
  const found: { task: TaskId; path: string }[] = [];
  for (const spec of wanted) {
    if (existsSync(spec.path)) found.push(spec);
    else if (existsSync(folder))
      stderr(`notice: no ${spec.task} data at ${spec.path}; ${spec.task} is left out\n`);
  }
  if (found.length === 0)
    throw new NoDataError(
      `no dataset to validate against: without --seeds, validate-sim reads ${process.env.PDL_DATA_DIR?.trim() ? 'the folder of PDL_DATA_DIR' : 'the shared datasets folder beside the repository'} ` +
        `(${folder}${existsSync(folder) ? `, which holds none of ${wanted.map((w) => w.path.slice(folder.length + 1)).join(', ')}` : ', which does not exist'}); ` +
        'point at a dataset with --seeds TASK=PATH (e.g. --seeds esconv=my/esconv.jsonl, --seeds p4g=my/p4g-folder), ' +
        'or set PDL_DATA_DIR to a folder laid out like it',
    );
  return found;
}

/** No dataset given and none found where the defaults live. Code `VALIDITY_NO_DATA`. */
export class NoDataError extends LabError {
  override name = 'NoDataError';
  override readonly code = 'VALIDITY_NO_DATA';
}

/**
 * Read the dataset files of every --seeds option (or the shared defaults), of the tasks in `args.tasks` (all when
 * null). Also used by `npm run fit-sim` (scripts/fit-sim.ts).
 * @throws UsageError for a missing path, a file whose task cannot be told, or a second P4G file of one kind.
 * @throws DataFormatError (DATASET_INVALID) naming a file that is UTF-16 text (with the `iconv` that converts it),
 *   not text, or empty.
 * @throws NoDataError when no --seeds is given and no default dataset exists.
 */
export async function readFiles(
  args: Pick<ValidateArgs, 'seeds' | 'tasks'>,
  stderr: (s: string) => void = (s) => process.stderr.write(s),
): Promise<ValidityFiles> {
  const specs = args.seeds.length > 0 ? args.seeds : await defaultSpecs(args.tasks, stderr);
  const files: ValidityFiles = {};
  for (const spec of specs) {
    try {
      await stat(spec.path);
    } catch {
      throw new UsageError(`--seeds: no such file or folder "${spec.path}"`);
    }
    const task = spec.task ?? (await guessTask(spec.path));
    if (args.tasks && !args.tasks.includes(task)) continue;
    const held = spec.task === null ? task : await heldTask(spec.path);
    if (held !== null && held !== task)
      throw new UsageError(
        `--seeds ${task}=${spec.path} holds ${held} dialogues, not ${task}: give ${withArticle(task)} dataset`,
      );
    if (task === 'p4g') {
      const paths = (await stat(spec.path)).isDirectory()
        ? (await readdir(spec.path))
            .filter((n) => n.toLowerCase().endsWith('.csv'))
            .sort()
            .map((n) => join(spec.path, n))
        : [spec.path];
      if (paths.length === 0)
        throw new UsageError(
          `--seeds ${spec.path}: a folder with no dataset file (a P4G folder holds p4g-dialogs.csv or p4g-annotated.csv; give ESConv or CraigslistBargain as their .jsonl file)`,
        );
      const p4g: Partial<P4gFiles> = files.p4g ?? {};
      for (const path of paths) {
        const file = await readText(path);
        const kind = p4gFileKind(file.text);
        if (!kind) throw new UsageError(`--seeds ${path}: not a PersuasionForGood CSV (unknown header)`);
        if (p4g[kind])
          throw new UsageError(
            `--seeds ${path}: a second P4G ${kind} file (the first is ${p4g[kind]?.name})`,
          );
        p4g[kind] = file;
      }
      files.p4g = p4g;
    } else {
      // A folder stands for its JSONL files, as for simulate's --seeds (datasetFilesIn).
      const paths = (await stat(spec.path)).isDirectory() ? await datasetFilesIn(spec.path) : [spec.path];
      if (paths.length === 0)
        throw new UsageError(`--seeds ${spec.path}: a folder with no ${task} dataset file (.jsonl) in it`);
      for (const path of paths) {
        const held = await heldTask(path);
        if (held !== null && held !== task)
          throw new UsageError(
            `--seeds ${task}=${spec.path}: ${path} holds ${held} dialogues, not ${task}: give ${withArticle(task)} dataset`,
          );
        const file = await readText(path);
        // A file without one dialogue would replay nothing and print empty tables: a data error, like simulate's.
        if (file.text.trim() === '')
          throw new DataFormatError('DATASET_INVALID', `${path}:1: no ${task} dialogues in the file`, {
            path,
            line: 1,
            reason: `no ${task} dialogues in the file`,
          });
        files[task] = [...(files[task] ?? []), file];
      }
    }
  }
  // A task asked for with --task but given no dataset among --seeds would be replayed on nothing.
  const missing = (args.tasks ?? []).filter((t) =>
    t === 'p4g' ? files.p4g === undefined : (files[t] ?? []).length === 0,
  );
  if (args.seeds.length > 0 && missing.length > 0)
    throw new UsageError(
      `--task ${missing.join(',')}: no ${missing.join(' or ')} dataset among --seeds ` +
        `(${args.seeds.map((s) => s.path).join(', ')}); give one as --seeds ${missing[0]}=PATH`,
    );
  return files;
}

/**
 * Run the validation and return what to print.
 * @throws OutputConflictError (OUTPUT_CONFLICT) / PathError (OUTPUT_PATH_INVALID) before any work when --out cannot take the report.
 */
export async function runValidateCli(
  args: ValidateArgs,
  stderr: (s: string) => void,
  isTTY = false,
): Promise<string> {
  if (args.out !== null) {
    // Never over an input: the folder itself, or its validity.json or validity.md (what the report writes there).
    await refuseOutputOverInputs(
      { path: args.out, replaced: (inside) => /^validity\.(json|md)$/.test(inside) },
      [
        ...args.seeds.map((s) => ({ option: 'seeds', value: s.path })),
        { option: 'ladder', value: args.ladder ?? undefined },
        { option: 'fixtures', value: args.fixtures ?? undefined },
      ],
    );
    await assertOutputAvailable(args.out, {
      kind: 'dir',
      ownerMarker: 'validity.json',
      overwrite: args.overwrite,
      resumable: false,
    });
  }
  const files = await readFiles(args, stderr);
  let ladder: LadderFile | undefined;
  if (args.ladder !== null) {
    let text: string;
    try {
      text = await readFile(args.ladder, 'utf8');
    } catch (e) {
      throw new UsageError(`--ladder: cannot read "${args.ladder}" (${describeErrno(e)})`);
    }
    try {
      ladder = parseLadderFile(text, args.ladder);
    } catch (e) {
      if (hasCode(e, InputError, 'VALIDITY_INPUT')) throw new LadderFileError(e.message, { cause: e });
      throw e;
    }
  }
  // Built once, with the responder on template (its reply is discarded); null in template mode.
  const roles = usesLlm(args.language)
    ? buildRoles(
        {
          ...args.language,
          roles: { ...args.language.roles, responder: { kind: 'template' } },
          ...(args.fixtures !== null ? { fixtures: await readFixtures(args.fixtures) } : {}),
        },
        nodeRuntime(),
      )
    : null;
  const started = Date.now();
  let replayed = false;
  const replay = startProgress({ stdout: () => {}, stderr, isTTY }, false, 'dialogues replayed');
  const table = startProgress({ stdout: () => {}, stderr, isTTY }, false, 'table rows bootstrapped');
  let tabling = false;
  const interrupt = listenForInterrupt();
  const built = await buildValidityReport({
    signal: interrupt.signal,
    files,
    ...(roles ? { roles: roles.simRoles } : {}),
    ...(args.sample !== null ? { sample: args.sample } : {}),
    ...(args.maxTurns !== null ? { maxTurns: args.maxTurns } : {}),
    ...(ladder ? { ladder } : {}),
    doseSeeds: args.doseSeeds,
    checkSeeds: args.checkSeeds,
    exploitSeeds: args.exploitSeeds,
    resamples: args.resamples,
    ...(args.allHeldOut ? { allHeldOut: true } : {}),
    onProgress: (m) => {
      if (replayed) replay.stop();
      if (tabling) table.stop();
      stderr(`${m} (${formatSeconds((Date.now() - started) / 1000)} so far)\n`);
    },
    onReplayed: (done, total) => {
      replayed = true;
      replay.update(done, total);
    },
    onRow: (done, total) => {
      tabling = true;
      table.update(done, total);
    },
  }).finally(() => {
    replay.stop();
    table.stop();
    interrupt.dispose();
  });
  const report: ValidityReport = roles
    ? {
        ...built,
        language: {
          scope: LANGUAGE_SCOPE,
          roles: roles
            .usage()
            .filter((u) => u.role === 'mode' || u.role === 'proposer' || u.role === 'responder')
            .map((u) => ({
              role: u.role,
              backend: u.backend,
              calls: u.calls,
              promptTokens: u.promptTokens,
              completionTokens: u.completionTokens,
            })),
          models: await roles.backendInfo(),
        },
      }
    : built;
  const markdown = reportMarkdown(report);
  const json = `${JSON.stringify(report, null, 2)}\n`;
  if (args.out !== null) {
    await writeFileAtomic(join(args.out, 'validity.md'), markdown);
    await writeFileAtomic(join(args.out, 'validity.json'), json);
  }
  return args.json ? json : markdown;
}

/** A `--ladder` file that is not JSON or not a ladder: a data error (exit 1) naming the file and the place. */
export class LadderFileError extends LabError {
  override name = 'LadderFileError';
  override readonly code = 'LADDER_FILE_INVALID';
}

/**
 * CLI entry: the exit code (0 ok, 1 failure or a malformed --ladder file, 2 usage error, bad input file or an
 * --out that cannot be used, 130 interrupted: Ctrl-C stops the report at its next safe point, writing nothing).
 */
export async function main(
  argv: string[],
  io: { stdout: (s: string) => void; stderr: (s: string) => void; isTTY?: boolean },
): Promise<number> {
  try {
    const args = parseValidateArgs(argv);
    if (args === 'help') {
      io.stdout(HELP);
      return 0;
    }
    io.stdout(await runValidateCli(args, io.stderr, io.isTTY ?? false));
    return 0;
  } catch (err) {
    if (isInterrupted(err)) {
      io.stderr(
        `validate-sim: interrupted: stopped before the report was complete; nothing was written (exit code ${INTERRUPTED_EXIT_CODE})\n`,
      );
      return INTERRUPTED_EXIT_CODE;
    }
    if (hasCode(err, InputError, 'VALIDITY_INPUT') || err instanceof OptionUsageError) {
      io.stderr(`error: ${err.message}\nRun with --help for the options.\n`);
      return 2;
    }
    if (
      hasCode(err, OutputConflictError, 'OUTPUT_CONFLICT') ||
      hasCode(err, PathError, 'OUTPUT_PATH_INVALID')
    ) {
      io.stderr(`error: ${cliMessage(err)}\n`);
      return 2;
    }
    if (hasCode(err, DataFormatError, 'DATASET_INVALID')) {
      io.stderr(`error: ${err.message}\n`);
      return 1;
    }
    io.stderr(`error: ${(err as Error).message}\n`);
    return 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  exitOnStrayInterrupt('validate-sim', (s) => process.stderr.write(s));
  process.exitCode = await main(process.argv.slice(2), {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    isTTY: Boolean(process.stderr.isTTY),
  });
}
