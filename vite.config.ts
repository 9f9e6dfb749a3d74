import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * Vite configuration shared by the demo app and the browser-test pages (tests/browser/globalSetup.ts passes
 * its own `root` and inputs on top of this file).
 *
 * - `worker.format: 'es'`: workers are module workers (`new Worker(new URL(...), { type: 'module' })`), which
 *   WebLLM's worker handler and code-split worker bundles need.
 * - `build.target: 'es2022'`: top-level await and class fields, as in tsconfig.json.
 * - WebLLM's bundle is several MB; the chunk-size warning is raised accordingly.
 * - `@tensorflow/tfjs` is the core with the CPU and WebGL backends (demo/tfjs-lite.ts): the library uses no
 *   Layers, converter or tf.data code, and the training workers are smaller without them.
 */
export default defineConfig({
  root: 'demo',
  base: './',
  worker: { format: 'es' },
  resolve: {
    alias: [
      {
        find: /^@tensorflow\/tfjs$/,
        replacement: fileURLToPath(new URL('demo/tfjs-lite.ts', import.meta.url)),
      },
    ],
  },
  build: {
    target: 'es2022',
    outDir: '../dist/demo',
    emptyOutDir: true,
    chunkSizeWarningLimit: 8_000,
  },
});
