/**
 * The Node runtime of the language roles: what `resolveRoles` needs to build backends that only run in Node (the
 * `llamacpp` backend, a GGUF file through node-llama-cpp). Exported from `proactive-dialogue-lab/node`.
 */
import { LlamaCppBackend } from '../llm/llamacpp';
import type { BackendSpec } from './config';
import type { RuntimeOptions } from './resolve';

/** The `llamacpp` backend of a spec (`model` is the GGUF path). Nothing is loaded until the first call. */
export function createLlamaCppBackend(spec: BackendSpec): LlamaCppBackend {
  return new LlamaCppBackend({
    modelPath: spec.model as string,
    ...(spec.contextSize !== undefined ? { contextSize: spec.contextSize } : {}),
    ...(spec.sequences !== undefined ? { sequences: spec.sequences } : {}),
    ...(spec.threads !== undefined ? { threads: spec.threads } : {}),
    ...(spec.timeoutMs !== undefined ? { timeoutMs: spec.timeoutMs } : {}),
    ...(spec.maxAnswerBytes !== undefined ? { maxAnswerBytes: spec.maxAnswerBytes } : {}),
  });
}

/** `RuntimeOptions` for Node: `extra` plus the `llamacpp` backend factory. */
export function nodeRuntime(extra: RuntimeOptions = {}): RuntimeOptions {
  return { createLocalBackend: createLlamaCppBackend, ...extra };
}
