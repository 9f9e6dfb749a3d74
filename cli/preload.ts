/**
 * Loaded before a command's modules (`node --import tsx --import ./cli/preload.ts cli/<command>.ts`, the npm
 * scripts): from the first moment, an interrupt is told in words and exits with 130 (cli/interrupt.ts), even while
 * the command's modules are still loading.
 */
import { basename } from 'node:path';
import { exitOnStrayInterrupt } from './interrupt';

exitOnStrayInterrupt(basename(process.argv[1] ?? 'command').replace(/\.ts$/, ''), (s) =>
  process.stderr.write(s),
);
