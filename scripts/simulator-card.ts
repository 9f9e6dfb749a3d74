/**
 * `npm run sim-card`: writes the simulator card `results/simulator-card.md` from the
 * validate-sim report (`results/studies/validity/validity.json` by default), the "before" record beside the card
 * (`results/simulator-card.before.json`), the shared dataset files (names, sizes, licences) and a fresh
 * measurement of reply variety (random policy: the bundled seeds, and the first 273 seeds of each dataset, the
 * latter also next to the human users of the same dialogues at an equal number of replies).
 * `--record-before` instead writes the before record from the given report and the current code's replies (run
 * it on the commit whose figures are to be kept). Layout in src/validity/card.ts. Options: {@link HELP}.
 */
import {
  FITTED_PARAMS,
  SIMULATOR_VERSION,
  DEFAULT_SEEDS,
  TASK_IDS,
  type TaskId,
} from '../src/entries/simulator';
import { assertOutputAvailable, loadSeedsFromPath, readJsonFile, writeFileAtomic } from '../src/node';
import { DataFormatError, OutputConflictError, PathError } from '../src/entries/errors';
import { z } from 'zod';
import {
  simulatorCard,
  type CardBefore,
  type CardDataFile,
  type ReplySet,
  replyRow,
  humanRepliesOf,
  replayDialogues,
} from '../src/entries/validity';
import { readFiles } from '../cli/validate-sim';
import {
  bool,
  parseCommandLine,
  refuseOutputOverInputs,
  runCommand,
  str,
  UsageError,
  type Io,
} from '../cli/options';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { format, resolveConfig } from 'prettier';

const ROOT = resolve(import.meta.dirname, '..');
/** Dataset seeds per task played for reply variety. */
const DATASET_EPISODES = 273;
const BUNDLED = 'bundled seeds, 1 episode each';
const DATASET = `dataset seeds (first ${DATASET_EPISODES} per task), 1 episode each`;

/** The shared files (see ../shared/data/README.md): what each holds, where it comes from, its licence. */
const FILES: readonly Omit<CardDataFile, 'bytes' | 'rows'>[] = [
  {
    task: 'esconv',
    file: 'esconv/esconv-valid.jsonl',
    what: 'emotional-support dialogues (lines)',
    source: 'ESConv (Liu et al., 2021), PPDPP split',
    licence: 'CC BY-NC 4.0',
  },
  {
    task: 'p4g',
    file: 'p4g/p4g-dialogs.csv',
    what: 'persuasion dialogues, one sentence a row (rows)',
    source: 'PersuasionForGood (Wang et al., 2019)',
    licence: 'Apache-2.0',
  },
  {
    task: 'p4g',
    file: 'p4g/p4g-participants.csv',
    what: 'donations and traits per dialogue and role (rows)',
    source: 'PersuasionForGood',
    licence: 'Apache-2.0',
  },
  {
    task: 'p4g',
    file: 'p4g/p4g-annotated.csv',
    what: 'sentence-level strategy and reaction labels, 200 dialogues (rows)',
    source: 'PersuasionForGood',
    licence: 'Apache-2.0',
  },
  {
    task: 'p4g',
    file: 'p4g/p4g-annotated-donations.csv',
    what: 'intended and actual donations of the annotated dialogues (rows)',
    source: 'PersuasionForGood',
    licence: 'Apache-2.0',
  },
  {
    task: 'cb',
    file: 'cb/craigslistbargain-valid.jsonl',
    what: 'negotiations with dialogue acts and prices (lines)',
    source: 'CraigslistBargain (He et al., 2018), PPDPP split',
    licence: 'as published by its authors',
  },
];

const DATA_FOLDER: Readonly<Record<TaskId, string>> = { esconv: 'esconv', p4g: 'p4g', cb: 'cb' };

function dataFiles(dir: string): CardDataFile[] {
  return FILES.map((f) => {
    const path = join(dir, f.file);
    if (!existsSync(path)) return { ...f, bytes: null, rows: null };
    const lines = readFileSync(path, 'utf8')
      .split('\n')
      .filter((l) => l.trim()).length;
    return { ...f, bytes: statSync(path).size, rows: f.file.endsWith('.csv') ? lines - 1 : lines };
  });
}

async function replySets(dir: string, io: Io): Promise<ReplySet[]> {
  const bundled: ReplySet = { set: BUNDLED, rows: [] };
  const dataset: ReplySet = { set: DATASET, rows: [] };
  for (const task of TASK_IDS) {
    io.stderr(`reply variety: ${task}\n`);
    bundled.rows.push(await replyRow(task, DEFAULT_SEEDS[task]));
    const folder = join(dir, DATA_FOLDER[task]);
    if (!existsSync(folder)) continue;
    const seeds = (await loadSeedsFromPath(folder, task)).seeds.slice(0, DATASET_EPISODES);
    // The human users of the same dialogues, compared at an equal number of replies.
    const dialogues = replayDialogues(
      await readFiles({ seeds: [{ task, path: folder }], tasks: [task] }, () => undefined),
    );
    dataset.rows.push(await replyRow(task, seeds, { humanReplies: humanRepliesOf(dialogues, seeds) }));
  }
  return dataset.rows.length > 0 ? [bundled, dataset] : [bundled];
}

/**
 * `text` formatted by Prettier as `parser` (Markdown for the card, JSON for the before record, whatever the file's
 * extension: Prettier infers nothing from `card.txt`), with the repository's settings for the file at `path` (so
 * that lint passes).
 */
async function pretty(path: string, text: string, parser: 'markdown' | 'json'): Promise<string> {
  const options = (await resolveConfig(path)) ?? {};
  return format(text, { ...options, parser });
}

/** The first line of every simulator card (src/validity/card.ts `simulatorCard`): how `--out` tells a card. */
export const CARD_HEADING = '# Cog-Sim simulator card';

/** Whether the file at `path` is a simulator card (its first line is {@link CARD_HEADING}): one this command wrote. */
function isCard(path: string): boolean {
  try {
    return readFileSync(path, 'utf8').split('\n', 1)[0]?.trimEnd() === CARD_HEADING;
  } catch {
    return false;
  }
}

/** Whether the file at `path` is a before record that `--record-before` wrote (one {@link readBefore} accepts). */
async function isBeforeRecord(path: string): Promise<boolean> {
  try {
    await readBefore(path, path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Refuses, before any work, an output the command must not write: one of its inputs (`--report`, and for the card
 * `--before`), a folder, or an existing file that is not what it writes (a simulator card, or with `--record-before`
 * a before record) unless `overwrite`; a card or record of this command is replaced, so that the default
 * `npm run sim-card` regenerates its card.
 * @throws UsageError naming the option; OutputConflictError (OUTPUT_CONFLICT) for a folder; PathError
 *   (OUTPUT_PATH_INVALID) for a path that cannot be written.
 */
async function checkOutput(values: Paths, recordBefore: boolean, overwrite: boolean): Promise<void> {
  const option = recordBefore ? 'before' : 'out';
  const path = resolve(ROOT, values[option]);
  await refuseOutputOverInputs({ path, option }, [
    { option: 'report', value: resolve(ROOT, values.report) },
    ...(recordBefore ? [] : [{ option: 'before', value: resolve(ROOT, values.before) }]),
  ]);
  const file = existsSync(path) && statSync(path).isFile();
  const own = file && (recordBefore ? await isBeforeRecord(path) : isCard(path));
  if (file && !own && !overwrite)
    throw new UsageError(
      `--${option} ${path} holds a file that is not ${
        recordBefore
          ? 'a before record of npm run sim-card -- --record-before'
          : `a simulator card (its first line is not "${CARD_HEADING}")`
      }: pass --overwrite to replace it, or choose another --${option}`,
    );
  // A folder is refused (give the path of a file), as is a path under a file or in a folder that cannot be written.
  await assertOutputAvailable(path, { kind: 'file', overwrite: true });
}

/** The options with their defaults (paths relative to the repository root). */
const DEFAULTS = {
  report: 'results/studies/validity/validity.json',
  before: 'results/simulator-card.before.json',
  out: 'results/simulator-card.md',
  data: '../shared/data',
} as const;

/** `npm run sim-card -- --help`. */
export const HELP = `Usage: npm run sim-card -- [options]

Writes the simulator card (Markdown) from a validate-sim report: the report's figures beside the "before"
record, the shared dataset files (names, sizes, licences) and a fresh measurement of reply variety (random
policy on the bundled seeds and on the first ${DATASET_EPISODES} seeds of each dataset, beside the human users of
the same dialogues). With --record-before it writes the before record instead of the card. Paths are relative
to the repository root.

Options:
  --report FILE      the validate-sim report to read (default ${DEFAULTS.report};
                     make one with npm run validate-sim -- --out DIR)
  --before FILE      the before record, read when it exists (default ${DEFAULTS.before})
  --out FILE         the card to write, as Markdown whatever the extension (default ${DEFAULTS.out}); an
                     existing simulator card there (its first line "${CARD_HEADING}") is replaced,
                     another file only with --overwrite, a folder never
  --overwrite        replace an --out (or, with --record-before, --before) file that this command did not write
  --data DIR         the shared datasets folder; a dataset missing there is left out (default ${DEFAULTS.data})
  --record-before    write the before record (--before) from --report and this code's replies, not the card;
                     run it on the commit whose figures are to be kept
  -h, --help         show this help`;

/** What a file given to --report should be, for the messages that refuse another. */
const REPORT_EXPECTED = 'expected the validity.json that `npm run validate-sim -- --out DIR` writes';

/**
 * The fields of a validate-sim report (`ValidityReport`, src/validity/report.ts) that the card lays out: its
 * simulator version, split, replayed datasets, agreement rows and dose–response rows. Other fields pass through
 * (the card shows sections other versions add).
 */
export const CardReportSchema = z.looseObject({
  simulatorVersion: z.string(),
  split: z.string(),
  datasets: z.array(z.looseObject({ task: z.string() })),
  rows: z.array(
    z.looseObject({ task: z.string(), split: z.string(), level: z.string(), measure: z.string() }),
  ),
  dose: z.array(z.looseObject({ task: z.string(), ladder: z.string() })),
});

/** What is wrong with `value` as a validate-sim report, in words (its missing fields first), or null when nothing. */
export function reportProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `it is ${Array.isArray(value) ? 'a JSON array' : `JSON ${value === null ? 'null' : `a ${typeof value}`}`}, not an object`;
  const parsed = CardReportSchema.safeParse(value);
  if (parsed.success) return null;
  const missing = parsed.error.issues.filter((i) => i.path.length === 1 && i.code === 'invalid_type');
  const absent = missing.filter((i) => (value as Record<string, unknown>)[String(i.path[0])] === undefined);
  if (absent.length > 0) {
    const keys = Object.keys(value);
    const has =
      keys.length === 0 ? 'no fields' : `${keys.slice(0, 6).join(', ')}${keys.length > 6 ? ', …' : ''}`;
    return `it has no ${absent.map((i) => i.path[0]).join(', ')} (its fields: ${has})`;
  }
  const first = parsed.error.issues[0];
  const where = first?.path.map(String).join('.') ?? '';
  return `${where}: ${first?.message.replace(/^Invalid input: /, '') ?? 'not as validate-sim writes it'}`;
}

/**
 * Reads the validate-sim report at `path` (named `shown` in messages, as the user gave it) and checks the fields
 * the card lays out ({@link CardReportSchema}).
 * @throws DataFormatError (FILE_DAMAGED) naming `--report`, the file (and the line and column of a JSON error) and
 *   the validity.json it expected, when the file is empty, not JSON or not a validate-sim report; PathError when
 *   it cannot be read.
 */
export async function readValidityReport(path: string, shown: string): Promise<Record<string, unknown>> {
  const value = await readOptionJson(path, '--report', shown, REPORT_EXPECTED);
  const problem = reportProblem(value);
  if (problem !== null) {
    const reason = `not a validate-sim validity report: ${problem}; ${REPORT_EXPECTED}`;
    throw new DataFormatError('FILE_DAMAGED', `--report ${shown}: ${reason}`, { path: shown, reason });
  }
  return value as Record<string, unknown>;
}

/**
 * The JSON of the file an option names.
 * @throws DataFormatError (FILE_DAMAGED) naming `option`, the file as `shown`, the line of a JSON error and what
 *   was `expected`, when the file is empty or not JSON; PathError when it cannot be read.
 */
async function readOptionJson(
  path: string,
  option: string,
  shown: string,
  expected: string,
): Promise<unknown> {
  try {
    return await readJsonFile(path);
  } catch (e) {
    if (!(e instanceof DataFormatError)) throw e;
    const reason = `${e.reason ?? e.message}; ${expected}`;
    throw new DataFormatError(
      'FILE_DAMAGED',
      `${option} ${shown}${e.line !== undefined ? ` line ${e.line}` : ''}: ${reason}`,
      { path: shown, reason, ...(e.line !== undefined ? { line: e.line } : {}), cause: e },
    );
  }
}

/**
 * Reads the before record at `path` (named `shown`), written by `--record-before`.
 * @throws DataFormatError (FILE_DAMAGED) naming `--before` and the file when it is not JSON or not a before record.
 */
async function readBefore(path: string, shown: string): Promise<CardBefore> {
  const expected = 'expected the record that `npm run sim-card -- --record-before` writes, or remove it';
  const value = await readOptionJson(path, '--before', shown, expected);
  const v = value as Partial<Record<keyof CardBefore, unknown>> | null;
  const isObject = (x: unknown) => typeof x === 'object' && x !== null && !Array.isArray(x);
  if (
    !isObject(v) ||
    typeof v?.simulatorVersion !== 'string' ||
    typeof v.commit !== 'string' ||
    !Array.isArray(v.commands) ||
    !isObject(v.report) ||
    !Array.isArray(v.replies)
  ) {
    const reason = `not a before record (simulatorVersion, commit, commands, report, replies); ${expected}`;
    throw new DataFormatError('FILE_DAMAGED', `--before ${shown}: ${reason}`, { path: shown, reason });
  }
  return value as CardBefore;
}

/** The paths of the options (see {@link DEFAULTS}). */
type Paths = Record<keyof typeof DEFAULTS, string>;

/** Writes the card (or, with `recordBefore`, the before record) as the options say. */
async function writeCard(values: Paths, recordBefore: boolean, overwrite: boolean, io: Io): Promise<void> {
  const reportPath = resolve(ROOT, values.report);
  const dataDir = resolve(ROOT, values.data);
  if (!existsSync(reportPath))
    throw new UsageError(
      `--report: no validate-sim report at ${reportPath}; make one with npm run validate-sim -- --out DIR`,
    );
  await checkOutput(values, recordBefore, overwrite);
  // Checked before the reply measurement (minutes): a wrong or malformed file is named at once.
  const report = await readValidityReport(reportPath, values.report);
  const beforePath = resolve(ROOT, values.before);
  const before =
    !recordBefore && existsSync(beforePath) ? await readBefore(beforePath, values.before) : undefined;
  const replies = await replySets(dataDir, io);
  if (recordBefore) {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString().trim();
    const before: CardBefore = {
      simulatorVersion: SIMULATOR_VERSION,
      commit,
      commands: [
        `npm run validate-sim -- --out DIR`,
        `npm run sim-card -- --record-before --report ${values.report}`,
      ],
      report,
      replies,
    };
    const path = resolve(ROOT, values.before);
    await writeFileAtomic(path, await pretty(path, JSON.stringify(before), 'json'));
    io.stderr(`wrote ${values.before}\n`);
    return;
  }
  const card = simulatorCard({
    simulatorVersion: SIMULATOR_VERSION,
    report,
    reportPath: values.report,
    data: dataFiles(dataDir),
    replies,
    ...(before ? { before } : {}),
    fitted: FITTED_PARAMS,
    command: 'npm run sim-card',
  });
  const out = resolve(ROOT, values.out);
  await writeFileAtomic(out, await pretty(out, card, 'markdown'));
  io.stderr(`wrote ${values.out}\n`);
}

/**
 * CLI entry: the exit code (0 done, 1 a failure — a --report that is not a validate-sim report, or not JSON, among
 * them — 2 a usage error: an unknown option, a missing --report).
 */
export async function main(argv: string[], io: Io): Promise<number> {
  return runCommand(io, async () => {
    const values = parseCommandLine(argv, {
      report: { type: 'string' },
      before: { type: 'string' },
      out: { type: 'string' },
      data: { type: 'string' },
      'record-before': { type: 'boolean' },
      overwrite: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
    if (bool(values, 'help')) {
      io.stdout(`${HELP}\n`);
      return;
    }
    const paths = Object.fromEntries(
      Object.entries(DEFAULTS).map(([k, d]) => [k, str(values, k) ?? d]),
    ) as Paths;
    await writeCard(paths, bool(values, 'record-before'), bool(values, 'overwrite'), io);
  }, [
    { class: OutputConflictError, codes: ['OUTPUT_CONFLICT'] },
    { class: PathError, codes: ['OUTPUT_PATH_INVALID'] },
  ]);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await main(process.argv.slice(2), {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    isTTY: Boolean(process.stderr.isTTY),
  });
}
