#!/usr/bin/env node
/**
 * `pdl`: the package's command-line tool (`"bin"` in package.json, built to `dist/cli/pdl.js`). Runs the
 * subcommand named by the first argument (cli/dispatch.ts) and exits with its code. No guard on
 * `import.meta.url`: npm starts a bin through a link in `node_modules/.bin`, whose path is not the module's.
 * From a checkout: `npx tsx cli/pdl.ts simulate --task esconv`.
 */
import { version } from '../package.json';
import { main } from './dispatch';

process.exitCode = await main(
  process.argv.slice(2),
  {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    isTTY: Boolean(process.stderr.isTTY),
  },
  version,
);
