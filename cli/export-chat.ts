/**
 * `npm run export-chat`: a trajectory file of `simulate --out` as JSONL rows in the chat format trainers read
 * (src/server/export.ts; fields in docs/trainer-export.md). Written atomically; the input is read line by line.
 */
import { boundHeapGrowth } from './heap';
import {
  SEEDS_HELP,
  UsageError,
  bool,
  parseCommandLine,
  refuseOutputOverInputs,
  runCommand,
  seedsValues,
  str,
  strs,
  seedSourceName,
  taskAndSeedSet,
  type Io,
} from './options';
import { DATASET_HINTS, loadSeedsArg } from './seeds';
import { assertOutputAvailable, readJsonlLines, writeFileAtomic } from '../src/node';
import { chatTrajectory } from '../src/entries/server';
import { countOf, LabError, OutputConflictError, PathError } from '../src/entries/errors';
import {
  SIMULATOR_VERSION,
  defaultSeeds,
  getSeedSet,
  type TrajectoryLine,
  type Seed,
  type TaskId,
} from '../src/entries/simulator';

export const HELP = `Usage: npm run export-chat -- --in FILE --out FILE [options]

Convert trajectories written by simulate --out (one episode a line) into JSONL rows in the chat format trainers
read: messages (system = the actor's view, assistant = the actor, user = the simulated user), the seed's
prefix length, strategies, per-turn rewards and the return. Fields: docs/trainer-export.md.

Options:
  --in FILE            trajectory JSONL of simulate --out
  --out FILE           chat JSONL to write (atomically)
  --task NAME          task whose seeds the episodes played (default: the trajectories' task)
  --seed-set NAME      the task's named seed set the episodes played (esconv's EmoLLM settings emollm-ed, …,
                       emollm); default: the seed set each line records (settings.seed-set, written by
                       simulate --out) when neither --seed-set nor --seeds is given; the old --task emollm-ed
                       still works, with a notice
${SEEDS_HELP}
  --no-labels          assistant messages without the leading [Strategy] label
  --overwrite          replace an existing --out file
  -h, --help           show this help
`;

const OPTIONS = {
  in: { type: 'string' },
  out: { type: 'string' },
  task: { type: 'string' },
  'seed-set': { type: 'string' },
  seeds: { type: 'string', multiple: true },
  'no-labels': { type: 'boolean' },
  overwrite: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * Why a parsed line is not an episode of `simulate --out` (an object with `task`, `seedId` and `turns`), naming
 * what it looks like (a dataset record, another file format); null when it is one.
 */
function notTrajectory(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const v = value as Record<string, unknown>;
  if (typeof v.task === 'string' && typeof v.seedId === 'string' && Array.isArray(v.turns)) return null;
  if (typeof v.format === 'string') return `a ${v.format} file`;
  if ('emotion_type' in v || 'dialog' in v) return 'an ESConv dialogue of a dataset file: give it as --seeds';
  if ('seller_price' in v || 'scenario' in v)
    return 'a CraigslistBargain dialogue of a dataset file: give it as --seeds';
  const fields = { task: 'a string', seedId: 'a string', turns: 'an array' } as const;
  // A field that is there with the wrong type is named as such, not as missing.
  for (const [name, expected] of Object.entries(fields)) {
    const got = v[name];
    const ok = name === 'turns' ? Array.isArray(got) : typeof got === 'string';
    if (got !== undefined && !ok) return `${name} is ${jsonType(got)}, expected ${expected}`;
  }
  const missing = Object.keys(fields).filter((name) => v[name] === undefined);
  return `an object without ${missing.join(', ')} (keys: ${Object.keys(v).slice(0, 6).join(', ')})`;
}

/** A JSON value's type in words, with its article ("a string", "an array", "null"). */
function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Whether text that is not JSON starts as simulate writes an episode line: part of a damaged trajectory file. */
const startsLikeEpisode = (text: string): boolean => text.trimStart().startsWith('{"task":');

/**
 * What a file that holds no complete trajectory line looks like, for the message: one JSON document (with its
 * `format` when it has one, e.g. a Principles memory file) or not JSON at all. `cutEpisode`: the file is one
 * episode of simulate whose line was cut short (JSON that is an episode, or not JSON but starting like one), so it
 * is a damaged trajectory file, not another kind of file. Reads the whole file (only on this error path).
 */
async function fileKind(path: string): Promise<{ text: string; cutEpisode: boolean }> {
  const { readFile } = await import('node:fs/promises');
  const text = (await readFile(path, 'utf8')).replace(/^\uFEFF/, '');
  if (text.trim() === '') return { text: 'it is empty', cutEpisode: false };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return startsLikeEpisode(text)
      ? { text: 'its one line is an episode cut short', cutEpisode: true }
      : { text: 'its first line is not JSON; give a file of simulate --out', cutEpisode: false };
  }
  const problem = notTrajectory(value);
  return problem === null
    ? { text: 'its one line is an episode without its line break', cutEpisode: true }
    : { text: `it is one JSON document, ${problem}; give a file of simulate --out`, cutEpisode: false };
}

/**
 * The notice for trajectories written by another simulator version than this one (their `simulatorVersion`): they
 * are still exported (converting an old run is legitimate), but its episodes are not what this version plays.
 * Null when every line is of this version.
 */
function versionNotice(input: string, lines: readonly TrajectoryLine[]): string | null {
  const versions = [...new Set(lines.map((l) => String(l.simulatorVersion ?? '(none recorded)')))];
  const others = versions.filter((v) => v !== SIMULATOR_VERSION);
  if (others.length === 0) return null;
  const count = lines.filter((l) => l.simulatorVersion !== SIMULATOR_VERSION).length;
  return (
    `notice: ${input}: ${count === lines.length ? 'its episodes were' : `${count} of its ${lines.length} episodes were`} ` +
    `played by simulator ${others.join(', ')}, not this one (${SIMULATOR_VERSION}); exported as they are\n`
  );
}

/**
 * The named seed set (`--seed-set` of simulate) that the lines of `task` record in their `settings`, or undefined
 * when they record none (a run on the task's own seeds, or an earlier version's file).
 * @throws UsageError naming `input` when its lines record several seed sets, or one this version does not know:
 *   `--seed-set` (or `--seeds`) then says which seeds to use.
 */
export function recordedSeedSet(
  input: string,
  lines: readonly TrajectoryLine[],
  task: TaskId,
): string | undefined {
  const recorded = new Set<string>();
  for (const line of lines) {
    if (line.task !== task) continue;
    const settings = (line as { settings?: unknown }).settings;
    const value =
      typeof settings === 'object' && settings !== null
        ? (settings as Record<string, unknown>)['seed-set']
        : undefined;
    if (typeof value === 'string') recorded.add(value);
  }
  const sets = [...recorded];
  if (sets.length > 1)
    throw new UsageError(
      `--in ${input}: its episodes record several seed sets (${sets.join(', ')}); pass --seed-set NAME (or --seeds) ` +
        'to say which seeds they played',
    );
  const [seedSet] = sets;
  if (seedSet === undefined) return undefined;
  try {
    getSeedSet(task, seedSet);
  } catch (e) {
    throw new UsageError(
      `--in ${input}: its episodes record the seed set ${seedSet}, which is not one of ${task}'s here ` +
        `(${(e as Error).message}); pass --seed-set NAME or --seeds with the seeds they played`,
      { cause: e },
    );
  }
  return seedSet;
}

/** Runs the conversion; returns the number of rows written. */
async function exportChat(argv: string[], io: Io): Promise<number | 'help'> {
  const values = parseCommandLine(argv, OPTIONS);
  if (bool(values, 'help')) return 'help';
  const input = str(values, 'in');
  const out = str(values, 'out');
  if (input === undefined || out === undefined) throw new UsageError('give --in FILE and --out FILE');
  const { existsSync, statSync } = await import('node:fs');
  if (!existsSync(input)) throw new UsageError(`--in: no such file: ${input}`);
  if (statSync(input).isDirectory())
    throw new UsageError(`--in ${input} is a folder, not a file: give the trajectory file of simulate --out`);
  // Before any work: never over an input (whatever --overwrite says), never a folder, a file only with --overwrite.
  await refuseOutputOverInputs({ path: out }, [
    { option: 'in', value: input },
    ...strs(values, 'seeds').map((value) => ({ option: 'seeds', value })),
  ]);
  await assertOutputAvailable(out, { kind: 'file', overwrite: bool(values, 'overwrite') });
  const lines: TrajectoryLine[] = [];
  let torn: { line: number; bytes: number } | undefined;
  for await (const { text, line } of readJsonlLines(input, {
    onTornLine: (info) => (torn = info),
    keepTornLine: true,
  })) {
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (line === 1 && !startsLikeEpisode(text))
        throw new UsageError(`--in ${input} is not a trajectory file (${(await fileKind(input)).text})`);
      throw new TrajectoryLineError(`${input}:${line}: not JSON; the file is damaged (nothing was exported)`);
    }
    const problem = notTrajectory(value);
    if (problem !== null && line === 1)
      throw new UsageError(`--in ${input} is not a trajectory file (line ${line}: ${problem})`);
    if (problem !== null)
      throw new TrajectoryLineError(
        `${input}:${line}: not an episode (${problem}); the file is damaged (nothing was exported)`,
      );
    lines.push(value as TrajectoryLine);
  }
  if (lines.length === 0) {
    const kind = await fileKind(input);
    // A run stopped while it wrote its first episode: a damaged trajectory file (exit 1), not another kind of file.
    if (torn !== undefined && kind.cutEpisode)
      throw new TrajectoryLineError(
        `${input}:${torn.line}: the file's only episode is cut short (${torn.bytes} bytes, no line break: its ` +
          'write was interrupted), so there is nothing to export; run simulate again, or continue an interrupted ' +
          'run with --resume, and export its file',
      );
    throw new UsageError(`--in ${input} holds no trajectory (${kind.text})`);
  }
  if (torn !== undefined)
    io.stderr(
      `notice: ${input}:${torn.line}: dropped an episode cut short (${torn.bytes} bytes, no line break); ` +
        'it is not exported\n',
    );
  const notice = versionNotice(input, lines);
  if (notice !== null) io.stderr(notice);
  const rawTask = str(values, 'task') ?? lines[0]?.task ?? '';
  // The normalising edge: `--task emollm-ed` is `--task esconv --seed-set emollm-ed` (with a notice).
  const play = taskAndSeedSet(rawTask, str(values, 'seed-set'), io);
  const { task } = play;
  // Without --seed-set or --seeds, the seed set the run recorded in its lines (an option given still wins).
  const seedSet =
    play.seedSet ?? (strs(values, 'seeds').length === 0 ? recordedSeedSet(input, lines, task) : undefined);
  const source = seedSourceName(task, seedSet);
  const path = seedsValues(strs(values, 'seeds'), [source])[source];
  const seeds: Seed[] =
    path === 'bundled'
      ? seedSet !== undefined
        ? getSeedSet(task, seedSet).seeds()
        : defaultSeeds(task)
      : (await loadSeedsArg('seeds', path, source, { skipInvalid: false, notice: io.stderr })).seeds;
  const byId = new Map(seeds.map((s) => [s.id, s]));
  const rows = lines.map((line, i) => {
    const seed = byId.get(line.seedId);
    if (seed === undefined)
      throw new UsageError(
        `--in ${input}:${i + 1}: seed ${line.seedId} is not among the ${task}${seedSet !== undefined ? ` ${seedSet}` : ''} seeds given (${path === 'bundled' ? 'the bundled ones' : path}): ` +
          'pass the same --seeds (and --task, --seed-set) as the run that wrote the file',
      );
    return JSON.stringify(chatTrajectory(line, seed, !bool(values, 'no-labels')));
  });
  await writeFileAtomic(out, rows.join('\n') + '\n');
  return rows.length;
}

/** CLI entry: returns the exit code (0 ok, 1 failure, 2 usage error). */
export async function main(argv: string[], io: Io): Promise<number> {
  return runCommand(
    io,
    async () => {
      const n = await exportChat(argv, io);
      if (n === 'help') io.stdout(HELP);
      else
        io.stdout(
          `${countOf(n, 'chat row')} written to ${str(parseCommandLine(argv, OPTIONS), 'out') ?? ''}\n`,
        );
    },
    [
      { class: OutputConflictError, codes: ['OUTPUT_CONFLICT'] },
      { class: PathError, codes: ['OUTPUT_PATH_INVALID'] },
    ],
    DATASET_HINTS,
  );
}

/**
 * A line after the first of the `--in` trajectory file that is not an episode (not JSON, or not the shape simulate
 * writes), or a file whose only episode was cut short: the file is damaged, a data error (exit 1) naming the file
 * and line. A first line that is not an episode means another kind of file was given: a usage error (exit 2).
 * Code `TRAJECTORY_LINE_INVALID`.
 */
export class TrajectoryLineError extends LabError {
  override name = 'TrajectoryLineError';
  override readonly code = 'TRAJECTORY_LINE_INVALID';
}

if (import.meta.url === `file://${process.argv[1]}`) {
  boundHeapGrowth();
  process.exitCode = await main(process.argv.slice(2), {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    isTTY: Boolean(process.stderr.isTTY),
  });
}
