/**
 * WebGPU capability probe and WebLLM model recommendation (docs/architecture.md "Browser and GPU notes": on
 * adapters without `shader-f16` only `*f32*` model ids load).
 *
 * The probe takes the `GPU` object as an argument (`navigator.gpu` in a page or worker; `create([])` from the
 * `webgpu` package in Node) so nothing here reaches for a global. The recommendation reads WebLLM's prebuilt
 * model list from its generated summary (webllm-models.ts), so probing and recommending load none of WebLLM.
 */
import type { ModelSummary } from './model-record';
import { WEBLLM_MODELS } from './webllm-models';

export type { ModelSummary } from './model-record';
export { WEBLLM_MODELS, WEBLLM_MODELS_VERSION } from './webllm-models';

/**
 * The slice of the WebGPU API the probe reads (declared here because the hoisted `@webgpu/types` is too old
 * to know `GPUAdapter.info`). `navigator.gpu` satisfies it.
 */
export interface GpuLike {
  requestAdapter(options?: {
    powerPreference?: 'low-power' | 'high-performance';
  }): Promise<AdapterLike | null>;
}

/** The slice of `GPUAdapter` the probe reads. */
export interface AdapterLike {
  readonly features: { has(name: string): boolean; forEach(cb: (name: string) => void): void };
  readonly limits: object;
  readonly info?: {
    readonly vendor: string;
    readonly architecture: string;
    readonly device: string;
    readonly description: string;
    readonly isFallbackAdapter?: boolean;
  };
  readonly isFallbackAdapter?: boolean;
}

/** The adapter limits that decide which models fit (bytes unless noted). */
export const KEY_LIMITS = [
  'maxBufferSize',
  'maxStorageBufferBindingSize',
  'maxComputeWorkgroupStorageSize',
  'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupSizeX',
  'maxStorageBuffersPerShaderStage',
] as const;
export type KeyLimit = (typeof KEY_LIMITS)[number];

/** What the adapter offers. `software` is true for CPU emulation (SwiftShader or a fallback adapter). */
export interface AdapterReport {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  isFallbackAdapter: boolean;
  software: boolean;
  shaderF16: boolean;
  /** All adapter features, sorted. */
  features: string[];
  limits: Record<KeyLimit, number>;
}

/** Result of {@link probeGpu}: `adapter` is null when WebGPU is missing or gives no adapter (see `message`). */
export type GpuReport =
  { webgpu: true; adapter: AdapterReport } | { webgpu: boolean; adapter: null; message: string };

/** Alternatives named whenever no WebGPU adapter is available. */
export const NO_WEBGPU_ALTERNATIVES =
  'Alternatives: open the page in a browser with WebGPU (a recent Chrome, Edge or Safari; Firefox with ' +
  'WebGPU enabled), connect a local OpenAI-compatible server (Ollama, llama.cpp server or vLLM on this ' +
  'machine), or use template mode, which needs no language model.';

/**
 * Probes WebGPU. Never throws for a missing API or adapter: it returns `adapter: null` with a message naming
 * the alternatives. Errors thrown by `requestAdapter` itself, and an adapter whose feature set, limits or info
 * cannot be read (a broken driver or polyfill), are reported the same way, with the cause in the message.
 */
export async function probeGpu(
  gpu: GpuLike | undefined,
  options: { powerPreference?: 'low-power' | 'high-performance' } = {},
): Promise<GpuReport> {
  if (!gpu)
    return { webgpu: false, adapter: null, message: `This browser has no WebGPU. ${NO_WEBGPU_ALTERNATIVES}` };
  let adapter: AdapterLike | null;
  try {
    adapter = await gpu.requestAdapter(options);
  } catch (e) {
    return {
      webgpu: true,
      adapter: null,
      message: `WebGPU failed to give an adapter (${(e as Error).message}). ${NO_WEBGPU_ALTERNATIVES}`,
    };
  }
  if (!adapter) {
    return {
      webgpu: true,
      adapter: null,
      message: `WebGPU is present but no GPU adapter is available (disabled or blocklisted GPU). ${NO_WEBGPU_ALTERNATIVES}`,
    };
  }
  try {
    return { webgpu: true, adapter: readAdapter(adapter) };
  } catch (e) {
    const cause = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    return {
      webgpu: true,
      adapter: null,
      message: `WebGPU gave an adapter whose features or limits cannot be read (${cause}); treated as no adapter. ${NO_WEBGPU_ALTERNATIVES}`,
    };
  }
}

/** What the probe reports of an adapter. @throws whatever reading the adapter throws (e.g. a missing feature set). */
function readAdapter(adapter: AdapterLike): AdapterReport {
  const features: string[] = [];
  adapter.features.forEach((f) => features.push(f));
  const limitsSource = adapter.limits as Record<string, number>;
  const limits = Object.fromEntries(KEY_LIMITS.map((k) => [k, Number(limitsSource[k] ?? 0)])) as Record<
    KeyLimit,
    number
  >;
  const info = adapter.info;
  const isFallbackAdapter = Boolean(info?.isFallbackAdapter ?? adapter.isFallbackAdapter);
  const architecture = info?.architecture ?? '';
  return {
    vendor: info?.vendor ?? '',
    architecture,
    device: info?.device ?? '',
    description: info?.description ?? '',
    isFallbackAdapter,
    software: isFallbackAdapter || /swiftshader/i.test(`${architecture} ${info?.description ?? ''}`),
    shaderF16: features.includes('shader-f16'),
    features: features.sort(),
    limits,
  };
}

/** Quantisation code of a WebLLM model id (`q4f16_1`, `q0f32`, …), or null if it has none. */
export function quantizationOf(modelId: string): string | null {
  return /(?:^|-)(q\d+(?:b?f)\d+(?:_\d+)?)(?:-|$)/i.exec(modelId)?.[1]?.toLowerCase() ?? null;
}

/**
 * True when the model needs the `shader-f16` WebGPU feature: its record declares it, or its quantisation
 * code computes in f16 (`q4f16_1`, `q0f16`, `q3f16_1`). Most f16 records in WebLLM 0.2.86 do not declare
 * the feature, so the id decides. Ids such as `…-BF16-q4f32_1-MLC` (bf16 source weights, f32 kernels) are
 * not f16.
 */
export function requiresShaderF16(
  modelId: string,
  record?: Pick<ModelSummary, 'required_features'>,
): boolean {
  if (record?.required_features?.includes('shader-f16')) return true;
  const q = quantizationOf(modelId);
  return q !== null && /f16/.test(q);
}

/** Ids that are not general chat models (base, math, code, vision, reasoning-only, language-specific). */
const NOT_GENERAL_CHAT = /(^|-)(Base|Math|Coder|vision|Reasoning|jpn)(-|$)/i;

/** Options of {@link recommendModels}. */
export interface RecommendOptions {
  /** `navigator.deviceMemory` (GiB, a coarse hint ≤ 8); unknown means a 2 GiB budget. */
  deviceMemoryGiB?: number;
  /** Fraction of device memory a model may take (default 0.5). */
  memoryFraction?: number;
  /** Candidate records (default: WebLLM's prebuilt list, {@link WEBLLM_MODELS}); WebLLM's `ModelRecord`s fit. */
  modelList?: readonly ModelSummary[];
}

/** A ranked recommendation: `modelIds` best first (empty when nothing fits), and why. */
export interface Recommendation {
  modelIds: string[];
  budgetMB: number;
  reason: string;
}

/**
 * Chat models that should run on the probed adapter, best first.
 *
 * Candidates are chat LLM records (not embedding or vision, not base/math/code/reasoning-only ids) that do
 * not need `shader-f16` unless the adapter has it, whose `buffer_size_required_bytes` fits
 * `maxBufferSize`, and whose `vram_required_MB` fits the budget `deviceMemoryGiB · 1024 · memoryFraction`
 * (2048 MB when memory is unknown). On a software adapter only the smallest candidate is useful, so the list is
 * sorted smallest first; otherwise the largest model within budget comes first (better answers), ties broken
 * by the longer context window and then the id.
 */
export function recommendModels(report: GpuReport, options: RecommendOptions = {}): Recommendation {
  const budgetMB =
    options.deviceMemoryGiB !== undefined
      ? options.deviceMemoryGiB * 1024 * (options.memoryFraction ?? 0.5)
      : 2048;
  if (!report.adapter) return { modelIds: [], budgetMB, reason: report.message };
  const adapter = report.adapter;
  const list = options.modelList ?? WEBLLM_MODELS;
  const context = (r: ModelSummary): number => r.overrides?.context_window_size ?? 0;
  const candidates = list.filter(
    (r) =>
      (r.model_type === undefined || r.model_type === 0) &&
      !NOT_GENERAL_CHAT.test(r.model_id) &&
      (adapter.shaderF16 || !requiresShaderF16(r.model_id, r)) &&
      (r.buffer_size_required_bytes ?? 0) <= adapter.limits.maxBufferSize &&
      r.vram_required_MB !== undefined &&
      r.vram_required_MB <= budgetMB,
  );
  const sign = adapter.software ? 1 : -1;
  candidates.sort(
    (a, b) =>
      sign * (a.vram_required_MB! - b.vram_required_MB!) ||
      context(b) - context(a) ||
      (a.model_id < b.model_id ? -1 : a.model_id > b.model_id ? 1 : 0),
  );
  const precision = adapter.shaderF16 ? 'f16 or f32' : 'f32 only (no shader-f16)';
  const reason = adapter.software
    ? `software adapter (${adapter.architecture || adapter.description || 'fallback'}): expect very slow generation; ` +
      `smallest models first; ${precision}; budget ${Math.round(budgetMB)} MB`
    : `${precision}; largest model within ${Math.round(budgetMB)} MB first`;
  return {
    modelIds: candidates.map((r) => r.model_id),
    budgetMB,
    reason: candidates.length > 0 ? reason : `no model fits (${reason}). ${NO_WEBGPU_ALTERNATIVES}`,
  };
}
