/**
 * `proactive-dialogue-lab/models`: language-model backends (WebLLM, wllama, OpenAI-compatible, replay, scripted),
 * structured output, per-role backend configuration, and the GPU/WASM probe and backend choice. Browser-safe; each
 * backend loads its engine only when used. The llama.cpp backend is in `proactive-dialogue-lab/node`.
 */
export { type BackendChoice, CPU_BACKEND_PREFERENCE, selectBackend } from '../gpu/backend';
export { probeGpu, recommendModels, type GpuReport, type Recommendation } from '../gpu';
export { summarizeModelRecord } from '../gpu/model-record';
export { type GpuLike, requiresShaderF16, WEBLLM_MODELS } from '../gpu/probe';
export {
  WebLlmBackend,
  WllamaBackend,
  OpenAiBackend,
  ReplayBackend,
  ScriptedBackend,
  askStructured,
  askRole,
  type ChatBackend,
  type ChatRequest,
  type ChatResponse,
  type ChatMessage,
  type CallOptions,
  type WebLlmBackendOptions,
  type OpenAiBackendOptions,
  type ReplayBackendOptions,
  type ReplayFixture,
  type UsageStats,
} from '../llm';
export { canonicalJson } from '../llm/replay';
export { type LoadProgress } from '../llm/webllm';
export { listCachedGguf, deleteCachedGguf, importGgufFile } from '../llm/wllama';
export {
  resolveRoles,
  RolesConfigSchema,
  type RolesConfig,
  type ResolvedRoles,
  checkRoles,
  BACKEND_KINDS,
  ROLE_KEYS,
  type BackendSpec,
  type RoleKey,
  backendFor,
  buildRoles,
  usesLlm,
} from '../roles';
export { unsupportedModelError } from '../llm/errors';
