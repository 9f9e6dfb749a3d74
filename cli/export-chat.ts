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
  runCommand,
  seedsValues,
  str,
  strs,
  type Io,
} from './options';
import { DATASET_HINTS, loadSeedsArg } from './seeds';
import { readJsonlLines, writeFileAtomic } from '../src/io/node';
import type { TrajectoryLine } from '../src/jobs/simulate';
import { chatTrajectory } from '../src/server/export';
import type { Seed } from '../src/tasks/seed';
import { defaultSeedsOf } from '../src/tasks/defaults';
import { isTaskName, type TaskName } from '../src/tasks/emollm';

export const HELP = `Usage: npm run export-chat -- --in FILE --out FILE [options]

Convert trajectories written by simulate --out (one episode a line) into JSONL rows in the chat format trainers
read: messages (system = the actor's view, assistant = the actor, user = the simulated user), the seed's
prefix length, strategies, per-turn rewards and the return. Fields: docs/trainer-export.md.

Options:
  --in FILE            trajectory JSONL of simulate --out
  --out FILE           chat JSONL to write (atomically)
  --task NAME          task name whose seeds the episodes played (default: the trajectories' task); an EmoLLM
                       setting (emollm-ed, …) for EmoLLM scenario seeds
${SEEDS_HELP}
  --no-labels          assistant messages without the leading [Strategy] label
  --overwrite          replace an existing --out file
  -h, --help           show this help
`;

const OPTIONS = {
  in: { type: 'string' },
  out: { type: 'string' },
  task: { type: 'string' },
  seeds: { type: 'string', multiple: true },
  'no-labels': { type: 'boolean' },
  overwrite: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Runs the conversion; returns the number of rows written. */
async function exportChat(argv: string[], io: Io): Promise<number | 'help'> {
  const values = parseCommandLine(argv, OPTIONS);
  if (bool(values, 'help')) return 'help';
  const input = str(values, 'in');
  const out = str(values, 'out');
  if (input === undefined || out === undefined) throw new UsageError('give --in FILE and --out FILE');
  const { existsSync } = await import('node:fs');
  if (!existsSync(input)) throw new UsageError(`--in: no such file: ${input}`);
  if (existsSync(out) && !bool(values, 'overwrite'))
    throw new UsageError(`--out ${out} exists: add --overwrite to replace it`);
  const lines: TrajectoryLine[] = [];
  for await (const { text, line } of readJsonlLines(input)) {
    if (text.trim() === '') continue;
    try {
      lines.push(JSON.parse(text) as TrajectoryLine);
    } catch {
      throw new UsageError(`--in ${input}:${line} is not JSON`);
    }
  }
  if (lines.length === 0) throw new UsageError(`--in ${input} holds no trajectory`);
  const task = str(values, 'task') ?? lines[0]?.task ?? '';
  if (!isTaskName(task)) throw new UsageError(`--task ${task}: unknown task`);
  const path = seedsValues(strs(values, 'seeds'), [task as TaskName])[task as TaskName];
  const seeds: Seed[] =
    path === 'bundled'
      ? defaultSeedsOf(task as TaskName)
      : (await loadSeedsArg('seeds', path, task as TaskName, { skipInvalid: false, notice: io.stderr }))
          .seeds;
  const byId = new Map(seeds.map((s) => [s.id, s]));
  const rows = lines.map((line, i) => {
    const seed = byId.get(line.seedId);
    if (seed === undefined)
      throw new UsageError(
        `--in ${input}:${i + 1}: seed ${line.seedId} is not among the ${task} seeds given (--task / --seeds)`,
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
      else io.stdout(`${n} chat rows written to ${str(parseCommandLine(argv, OPTIONS), 'out') ?? ''}\n`);
    },
    [],
    DATASET_HINTS,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  boundHeapGrowth();
  process.exitCode = await main(process.argv.slice(2), {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    isTTY: Boolean(process.stderr.isTTY),
  });
}
