/**
 * Module worker holding WebLLM's engine (docs/architecture.md "Language backends", item 1). The page talks to
 * it through `WebLlmBackend` (src/llm/webllm.ts), which wraps WebLLM's `WebWorkerMLCEngine` client.
 * Start it with `new Worker(new URL('../../workers/llm.worker.ts', import.meta.url), { type: 'module' })`.
 */
import { WebWorkerMLCEngineHandler } from '@mlc-ai/web-llm';

const handler = new WebWorkerMLCEngineHandler();
self.onmessage = (event: MessageEvent) => handler.onmessage(event);
