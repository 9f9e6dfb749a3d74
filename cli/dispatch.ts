/**
 * The subcommands of `pdl` (cli/pdl.ts), the package's one command-line tool, with a subcommand per job (`pdl simulate …`, `pdl evaluate …`).
 * Each subcommand is a module of this folder exporting `main(argv, io)` (its exit code: 0 ok, 1 failure, 2 usage
 * error); this dispatcher picks the subcommand and imports only that module, so `pdl --help` loads nothing of the
 * library and `pdl simulate --help` loads only what `simulate` needs. Compiled with esbuild into `dist/cli/` by
 * `npm run build` (scripts/build-cli.ts): the package's `bin`. From a checkout, `npx tsx cli/pdl.ts …` and the
 * `npm run simulate` etc. scripts run the same modules through tsx.
 */
import { readFileSync } from 'node:fs';
import { boundHeapGrowth } from './heap';

/** Where a command writes its text (the same shape as cli/options.ts's `Io`, kept here so help loads nothing). */
export interface CommandIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  isTTY: boolean;
}

/** A subcommand's module: what each cli/*.ts entry exports. */
export interface CommandModule {
  main: (argv: string[], io: CommandIo) => Promise<number>;
}

/** One subcommand of `pdl`. */
export interface Command {
  /** One line for `pdl --help`. */
  summary: string;
  /** Imports the subcommand's module (only when the subcommand is chosen). */
  load: () => Promise<CommandModule>;
  /** Long-running jobs bound V8's heap growth before loading (cli/heap.ts). */
  boundHeap?: boolean;
}

/** The subcommands, in `--help` order. Adding one is one line here (and, in the built bin, one esbuild entry). */
export const COMMANDS: Readonly<Record<string, Command>> = {
  simulate: {
    summary: 'play a policy against the Cog-Sim user simulator; success rate, turns, return',
    load: () => import('./simulate'),
    boundHeap: true,
  },
  evaluate: {
    summary: 'policies × tasks × seeds with intervals and paired differences; JSON/CSV/Markdown',
    load: () => import('./evaluate'),
    boundHeap: true,
  },
  train: {
    summary: 'CSTPO (SFT then RL) or, with --algo grpo-emollm, EmoLLM Stage II GRPO',
    load: () => import('./train'),
  },
  principles: {
    summary: 'build, query and evaluate a Principles memory (build | query | eval)',
    load: () => import('./principles'),
  },
  'validate-sim': {
    summary: 'check the simulator against human dialogues (teacher-forced replay, dose–response)',
    load: () => import('./validate-sim'),
  },
  'export-chat': {
    summary: 'turn simulate trajectories into chat-format JSONL rows for trainers',
    load: () => import('./export-chat'),
  },
  serve: {
    summary: "serve the environment to trainers (OpenEnv's WebSocket and HTTP protocol, fork/restore)",
    load: () => import('./serve'),
  },
};

/** `pdl --help`. */
export function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  const rows = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return [
    'Usage: pdl <command> [options]',
    '',
    'Proactive dialogue lab: train and test proactive dialogue policies against the Cog-Sim user simulator.',
    '',
    'Commands:',
    ...rows,
    '',
    "Run `pdl <command> --help` for a command's options. `pdl --version` prints the version.",
    '',
  ].join('\n');
}

/**
 * A command's help text as `pdl` spells it: the repository's `npm run simulate -- --task …` becomes
 * `pdl simulate --task …` for every command of {@link COMMANDS} (other scripts, e.g. `npm run bench`, stay).
 */
export function pdlSpelling(text: string): string {
  return text.replace(/npm run ([a-z][a-z-]*)(?: --(?= |$))?/gm, (whole, name: string) =>
    Object.hasOwn(COMMANDS, name) ? `pdl ${name}` : whole,
  );
}

/** Whether `argv` (after the command's name) asks only for the command's help. */
export function isHelpRequest(argv: readonly string[]): boolean {
  return argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h');
}

/** Where the build stores each command's `--help` text, relative to the built dispatcher (dist/cli/pdl.js). */
export const HELP_FOLDER = 'help';

/**
 * The `--help` text of `name` stored by the build (`dist/cli/help/NAME.txt`, scripts/build-cli.ts), or undefined
 * when there is none (running from the sources: the command's module computes it). A command's help is generated
 * from its job's schema, whose module loads the whole library (about 0.7 s); the stored copy prints at once. The
 * same idea as oclif's command manifest, written at pack time so that `--help` loads no command.
 */
function storedHelp(name: string): string | undefined {
  if (!import.meta.url.endsWith('.js')) return undefined;
  try {
    return readFileSync(new URL(`./${HELP_FOLDER}/${name}.txt`, import.meta.url), 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Runs `pdl` with `argv` (the arguments after `pdl`): the exit code (0 ok, 1 failure, 2 usage error).
 * `version` is printed by `--version`.
 */
export async function main(argv: string[], io: CommandIo, version = 'unknown'): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.stderr(usage());
    return 2;
  }
  if (name === '--help' || name === '-h' || (name === 'help' && rest.length === 0)) {
    io.stdout(usage());
    return 0;
  }
  if (name === 'help') return main([...rest.slice(0, 1), '--help'], io, version);
  if (name === '--version' || name === '-v') {
    io.stdout(`${version}\n`);
    return 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    io.stderr(`error: unknown command '${name}'; the commands: ${Object.keys(COMMANDS).join(', ')}\n`);
    io.stderr('Run `pdl --help` for the list.\n');
    return 2;
  }
  const stored = isHelpRequest(rest) ? storedHelp(name) : undefined;
  if (stored !== undefined) {
    io.stdout(stored);
    return 0;
  }
  if (command.boundHeap) boundHeapGrowth();
  const module = await command.load();
  const asksHelp = rest.includes('--help') || rest.includes('-h');
  // Messages (a usage text printed for a mistake, hints) speak of `pdl NAME`, as the help does.
  const stderr = (s: string): void => io.stderr(pdlSpelling(s));
  return module.main(
    rest,
    asksHelp ? { ...io, stdout: (s) => io.stdout(pdlSpelling(s)), stderr } : { ...io, stderr },
  );
}
