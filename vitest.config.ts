import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          // Drops tfjs's "install the node backend" banner, nothing else (see the file).
          setupFiles: ['tests/unit/setup.ts'],
          testTimeout: 60_000,
          // One worker per core (Vitest's default leaves one core to its main process, which is idle here): on a
          // 2-core machine the unit files took 233 s instead of 316 s. The projects run one after another.
          maxWorkers: availableParallelism(),
        },
      },
      {
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/browser/globalSetup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          pool: 'forks',
        },
      },
      {
        // npm pack → install into a fresh Node and Vite consumer → run the README example (tests/package).
        test: {
          name: 'package',
          include: ['tests/package/**/*.test.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 300_000,
          fileParallelism: false,
          pool: 'forks',
        },
      },
    ],
  },
});
