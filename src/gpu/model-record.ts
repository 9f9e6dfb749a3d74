/**
 * The part of a WebLLM model record (`ModelRecord` of `@mlc-ai/web-llm`) that choosing a model needs: the
 * GPU probe's recommendation (probe.ts) and the Models page's list read only these fields, so they can work from
 * a summary (webllm-models.ts) without loading the WebLLM library.
 */
import type { ModelRecord } from '@mlc-ai/web-llm';

/**
 * A model record's id, weights URL (`model`: the folder WebLLM downloads from, on the model host), type (0 or absent: a chat LLM; 1 embedding; 2 vision), required WebGPU features, largest
 * buffer in bytes, GPU memory in MB and context window in tokens, as WebLLM gives them (absent when it does not).
 */
export type ModelSummary = Pick<
  ModelRecord,
  | 'model_id'
  | 'model'
  | 'model_type'
  | 'required_features'
  | 'buffer_size_required_bytes'
  | 'vram_required_MB'
> & { overrides?: { context_window_size?: number } };

/** The summary of a WebLLM model record (fields WebLLM leaves out stay out). */
export function summarizeModelRecord(r: ModelRecord): ModelSummary {
  const context = r.overrides?.context_window_size;
  return {
    model_id: r.model_id,
    model: r.model,
    ...(r.model_type !== undefined ? { model_type: r.model_type } : {}),
    ...(r.required_features !== undefined ? { required_features: r.required_features } : {}),
    ...(r.buffer_size_required_bytes !== undefined
      ? { buffer_size_required_bytes: r.buffer_size_required_bytes }
      : {}),
    ...(r.vram_required_MB !== undefined ? { vram_required_MB: r.vram_required_MB } : {}),
    ...(context !== undefined ? { overrides: { context_window_size: context } } : {}),
  };
}
