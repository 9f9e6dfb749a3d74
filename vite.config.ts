import { defineConfig } from 'vite';

/**
 * Vite configuration shared by the demo app and the browser-test pages (tests/browser/globalSetup.ts passes
 * its own `root` and inputs on top of this file).
 *
 * - `worker.format: 'es'`: workers are module workers (`new Worker(new URL(...), { type: 'module' })`), which
 *   WebLLM's worker handler and code-split worker bundles need.
 * - `build.target: 'es2022'`: top-level await and class fields, as in tsconfig.json.
 * - WebLLM's bundle is several MB; the chunk-size warning is raised accordingly.
 */
export default defineConfig({
  root: 'demo',
  base: './',
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    outDir: '../dist/demo',
    emptyOutDir: true,
    chunkSizeWarningLimit: 8_000,
  },
});
