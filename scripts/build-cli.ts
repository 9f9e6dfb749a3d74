/**
 * Builds the `pdl` command-line tool (cli/pdl.ts, the package's `bin`) into `dist/cli/` with esbuild: ES modules
 * for Node, split at each dynamic `import()` so that every subcommand of cli/dispatch.ts is its own chunk, loaded
 * only when that subcommand runs (`pdl --help` loads one small file). Only the code of `cli/` is bundled:
 *
 * - an import of the library (`../src/…`, `../workers/…`) is left as an import of its built module in `dist/lib/`
 *   (`../lib/src/….js`, which scripts/build-lib.ts writes first), so the bin and the library share one copy, and
 *   the library's worker entries, found relative to their own module (`new URL('./x.ts', import.meta.url)`), are
 *   where the built library has them;
 * - packages stay imports (`packages: 'external'`), resolved from the installing project's `node_modules` like
 *   the library's own.
 *
 * Then each command's `--help` text is stored in `dist/cli/help/NAME.txt`, printed by the built bin's
 * `pdl NAME --help` without loading the command (cli/dispatch.ts): the built bin itself is run once per command
 * to write it, so the stored text is what the command prints.
 *
 * Run by `npm run build` after scripts/build-lib.ts. Exits non-zero on a build error or when `dist/lib` lacks a
 * module the CLI imports.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { build, type Plugin } from 'esbuild';
import { COMMANDS, HELP_FOLDER } from '../cli/dispatch';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'dist', 'cli');
const LIB = join(ROOT, 'dist', 'lib');

function posix(path: string): string {
  return path.split(sep).join('/');
}

/** The built module (`dist/lib/…/x.js`) of a source file or folder under src/ or workers/, or undefined. */
function builtModule(target: string): string | undefined {
  const rel = relative(ROOT, target);
  for (const candidate of [`${rel.replace(/\.ts$/, '')}.js`, join(rel, 'index.js')]) {
    if (existsSync(join(LIB, candidate))) return candidate;
  }
  return undefined;
}

/** Imports of the library from cli/ become imports of the built library, relative to dist/cli/. */
const libraryExternal: Plugin = {
  name: 'library-external',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      const target = resolve(args.resolveDir, args.path);
      const rel = posix(relative(ROOT, target));
      if (!rel.startsWith('src/') && !rel.startsWith('workers/')) return undefined;
      const built = builtModule(target);
      if (built === undefined) {
        return {
          errors: [
            {
              text: `"${args.path}" (${rel}) has no built module in dist/lib: run scripts/build-lib.ts first`,
            },
          ],
        };
      }
      return { path: posix(relative(OUT, join(LIB, built))).replace(/^(?!\.)/, './'), external: true };
    });
  },
};

async function main(): Promise<number> {
  rmSync(OUT, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: { pdl: 'cli/pdl.ts' },
    outdir: OUT,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    chunkNames: '[name]-[hash]',
    plugins: [libraryExternal],
    logLevel: 'warning',
    legalComments: 'none',
    charset: 'utf8',
  });
  if (result.errors.length > 0) return 1;
  const bin = join(OUT, 'pdl.js');
  const helpFolder = join(OUT, HELP_FOLDER);
  const texts = await Promise.all(
    Object.keys(COMMANDS).map(async (name) => {
      const { stdout } = await promisify(execFile)(process.execPath, [bin, name, '--help'], { cwd: ROOT });
      return [name, stdout] as const;
    }),
  );
  mkdirSync(helpFolder);
  for (const [name, text] of texts) writeFileSync(join(helpFolder, `${name}.txt`), text);
  return 0;
}

process.exitCode = await main().catch((e: unknown) => {
  process.stderr.write(`build-cli: ${e instanceof Error ? e.message : String(e)}\n`);
  return 1;
});
