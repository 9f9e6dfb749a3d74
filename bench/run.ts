/**
 * `npm run bench` entry point (`tsx bench/run.ts [options]`; `--help` lists the options).
 */
import { main } from './cli';
import { BENCHMARKS } from './registry';

process.exitCode = await main(process.argv.slice(2), BENCHMARKS, {
  stdout: process.stdout,
  stderr: process.stderr,
});
