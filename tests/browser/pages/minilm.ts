/**
 * Page for tests/browser/minilm.test.ts: all-MiniLM-L6-v2 in the memory Web Worker (onnxruntime-web on the CPU),
 * from a model folder this page's server serves. Actions: `embed` (on the page itself: vectors for texts, the
 * embedder id), `build` / `query` / `export` / `import` (the memory worker, with the embedder given).
 */
import * as Comlink from 'comlink';
import { loadMiniLmEmbedderFromUrl } from '../../../src/embed/browser';
import type { BuildJob, EmbedderSpec, MemoryWorkerApi } from '../../../workers/memory.worker';
import { expose } from './expose';

const worker = new Worker(new URL('../../../workers/memory.worker.ts', import.meta.url), { type: 'module' });
const api = Comlink.wrap<MemoryWorkerApi>(worker);

type Args =
  | { action: 'embed'; modelDir: string; texts: string[] }
  | { action: 'build'; job: BuildJob }
  | { action: 'query'; name: string; text: string; embedder?: EmbedderSpec }
  | { action: 'export'; name: string; embedder?: EmbedderSpec }
  | { action: 'import'; text: string; name: string; embedder?: EmbedderSpec };

expose(async (args: Args) => {
  const t0 = performance.now();
  switch (args.action) {
    case 'embed': {
      const embedder = await loadMiniLmEmbedderFromUrl(args.modelDir);
      const loadMs = performance.now() - t0;
      const vectors = await embedder.embed(args.texts);
      return { id: embedder.id, loadMs, vectors: vectors.map((v) => Array.from(v)) };
    }
    case 'build':
      return api.build(args.job);
    case 'query':
      return api.query(args.name, args.text, 3, undefined, args.embedder);
    case 'export':
      return api.exportFile(args.name, undefined, args.embedder);
    case 'import':
      return api.importFile(args.text, {
        name: args.name,
        ...(args.embedder !== undefined ? { embedder: args.embedder } : {}),
      });
  }
});
