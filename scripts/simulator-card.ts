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
import { loadSeedsFromPath, writeFileAtomic } from '../src/node';
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
import { bool, parseCommandLine, runCommand, str, UsageError, type Io } from '../cli/options';
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

/** `text` formatted as the repository's Prettier settings format the file at `path` (so that lint passes). */
async function pretty(path: string, text: string): Promise<string> {
  const options = (await resolveConfig(path)) ?? {};
  return format(text, { ...options, filepath: path });
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
  --out FILE         the card to write, replaced (default ${DEFAULTS.out})
  --data DIR         the shared datasets folder; a dataset missing there is left out (default ${DEFAULTS.data})
  --record-before    write the before record (--before) from --report and this code's replies, not the card;
                     run it on the commit whose figures are to be kept
  -h, --help         show this help`;

function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

/** The paths of the options (see {@link DEFAULTS}). */
type Paths = Record<keyof typeof DEFAULTS, string>;

/** Writes the card (or, with `recordBefore`, the before record) as the options say. */
async function writeCard(values: Paths, recordBefore: boolean, io: Io): Promise<void> {
  const reportPath = resolve(ROOT, values.report);
  const dataDir = resolve(ROOT, values.data);
  if (!existsSync(reportPath))
    throw new UsageError(
      `--report: no validate-sim report at ${reportPath}; make one with npm run validate-sim -- --out DIR`,
    );
  const report = readJson(reportPath);
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
    await writeFileAtomic(path, await pretty(path, JSON.stringify(before)));
    io.stderr(`wrote ${values.before}\n`);
    return;
  }
  const beforePath = resolve(ROOT, values.before);
  const before = existsSync(beforePath) ? (readJson(beforePath) as unknown as CardBefore) : undefined;
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
  await writeFileAtomic(out, await pretty(out, card));
  io.stderr(`wrote ${values.out}\n`);
}

/** CLI entry: the exit code (0 done, 1 a failure, 2 a usage error: an unknown option, a missing --report). */
export async function main(argv: string[], io: Io): Promise<number> {
  return runCommand(io, async () => {
    const values = parseCommandLine(argv, {
      report: { type: 'string' },
      before: { type: 'string' },
      out: { type: 'string' },
      data: { type: 'string' },
      'record-before': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
    if (bool(values, 'help')) {
      io.stdout(`${HELP}\n`);
      return;
    }
    const paths = Object.fromEntries(
      Object.entries(DEFAULTS).map(([k, d]) => [k, str(values, k) ?? d]),
    ) as Paths;
    await writeCard(paths, bool(values, 'record-before'), io);
  }, []);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await main(process.argv.slice(2), {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    isTTY: Boolean(process.stderr.isTTY),
  });
}
