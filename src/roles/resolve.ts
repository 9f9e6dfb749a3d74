/**
 * Builds the language roles of a run from a {@link RolesConfig}: one backend per distinct backend spec (every
 * role on `replay` shares one `ReplayBackend` over the fixture, every role on the same WebLLM model one engine),
 * each role's calls counted separately, and the template implementation wherever the config says `template`.
 */
import { LlmRealizer, type GuidedRealizer } from '../agents/llm/realizer';
import { LlmStrategyProposer } from '../agents/llm/strategy';
import { TemplateStrategyProposer } from '../baselines/proactive';
import { TemplateRealizer } from '../agents/realizer';
import type { Policy, StrategyProposer } from '../agents/types';
import { LlmArgActor, LlmReversePredictor } from '../appraisal/llm';
import type { ArgActor, ReversePredictor } from '../appraisal/roles';
import { TemplateArgActor, TemplateReversePredictor } from '../appraisal/template';
import { judgeStack } from '../env/factory';
import { TemplateJudge, type Judge } from '../env/judge';
import { LlmJudge } from '../env/llm-judge';
import type { GpuLike } from '../gpu/probe';

import { OpenAiBackend, checkServerUrl } from '../llm/openai';
import { ROLE_NAMES, type RoleCallOptions, type RoleName } from '../llm/call';
import { ReplayBackend, canonicalJson, type ReplayFixture } from '../llm/replay';
import type { ChatBackend } from '../llm/types';
import { emptyUsageStats, type UsageStats } from '../llm/usage';
import { WebLlmBackend } from '../llm/webllm';
import { WllamaBackend, canHostWllama, checkModelRef } from '../llm/wllama';
import { LlmChangeProposer } from '../sim/llm/proposer';
import { LlmModeClassifier } from '../sim/llm/mode';
import { LlmResponder } from '../sim/llm/responder';
import type { SimRoles } from '../sim/roles';
import { TemplateChangeProposer } from '../sim/template/proposer';
import { TemplateModeClassifier } from '../sim/template/mode';
import { TemplateResponder } from '../sim/template/responder';
import { createPolicy } from '../policies/builders';
import type { PolicyParts } from '../policies/catalogue';
import type { TaskId } from '../tasks/seed';
import { RolesConfigSchema, backendFor, type BackendSpec, type RolesConfig } from './config';
import { CountingBackend } from './counting';
import { BackendError, InputError } from '../errors';

/** What the runtime offers the backends. */
export interface RuntimeOptions {
  /** The WebGPU entry point (`navigator.gpu`) for WebLLM; undefined where there is none. */
  gpu?: GpuLike;
  /** Starts WebLLM's engine worker (default: workers/llm.worker.ts). */
  createLlmWorker?: () => Worker;
  /** The run's stop signal: every LLM call is aborted when it fires (the generation in flight stops). */
  signal?: AbortSignal;
  /** fetch for the OpenAI-compatible backend (default `globalThis.fetch`). */
  fetch?: typeof fetch;
  /**
   * Builds the `llamacpp` backend (a GGUF file run in Node): the Node entry's `nodeRuntime()` supplies it
   * (src/roles/node.ts), so that this module, which also runs in browsers, imports no Node-only engine.
   */
  createLocalBackend?: (spec: BackendSpec) => ChatBackend;
  /**
   * Record mode of the `replay` backend: a request the fixtures lack is sent to this backend and its answer
   * stored (see `ResolvedRoles.recordedFixture`). Without it, a missing request is a `FixtureMissingError`.
   */
  record?: ChatBackend;
}

/** Calls and tokens of one role (zero when it made no LLM call). */
export interface RoleUsage extends UsageStats {
  role: RoleName;
  /** `template`, or the backend's name (`replay`, `openai:…`, `webllm:…`). */
  backend: string;
}

/** The roles of a run, built. */
export interface ResolvedRoles {
  config: RolesConfig;
  simRoles: SimRoles;
  /** The judge, already repeated `judgeRepeats` times (`judgeStack` of {@link ResolvedRoles.env}). */
  judge: Judge;
  /** One judgment of the judge (not repeated), for callers that repeat it themselves (the evaluation harness). */
  baseJudge: Judge;
  /**
   * What these roles decide of an environment — the simulator roles, the judge of one judgment and its repeat
   * count — for `createEnv(task, { ...roles.env, protocol, horizon, … })` (src/env/factory.ts).
   */
  env: { roles: SimRoles; judge: Judge; judgeRepeats: number };
  realizer: GuidedRealizer;
  /** The strategy proposer: the LLM one, or the template one (Proactive rules) when the role is template. */
  strategyProposer: StrategyProposer;
  argActor: ArgActor;
  predictor: ReversePredictor;
  /**
   * The `strategy` role's call options (its counted backend), or null when the role is template: the LLM form
   * of the prompting baselines (src/baselines) calls through it.
   */
  strategyCall: RoleCallOptions | null;
  /**
   * The `judge` role's call options (its counted backend), or null when the role is template: the LLM judge of
   * EmoLLM's Stage II rewards (src/grpo/rewards-judge.ts) calls through it.
   */
  judgeCall: RoleCallOptions | null;
  /** The actor's parts as the policy catalogue (src/policies) builds policies from them: these roles, `candidates`, `lookahead`. */
  policyParts: PolicyParts;
  /**
   * The catalogue's policy `spec` over {@link policyParts} (`llm`, `arg`, `random`, a baseline, …).
   * @throws PolicySpecError (POLICY_UNKNOWN) / PolicySpecError (POLICY_UNAVAILABLE) as `checkPolicy` (src/policies).
   */
  policy(task: TaskId, spec: string): Policy;
  /** Calls and tokens per role so far. */
  usage(): RoleUsage[];
  /** Sum of {@link usage} over the roles. */
  totalUsage(): UsageStats;
  /** What each backend records about its model (`ChatBackend.info`: a local model's file, hash, settings). */
  backendInfo(): Promise<Record<string, unknown>[]>;
  /** In record mode (`runtime.record`), the replay fixture with everything recorded so far; else null. */
  recordedFixture(): ReplayFixture | null;
}

/** Whether this JavaScript runtime can host WebLLM's engine (module workers exist: a browser or a worker). */
function canHostWebLlm(): boolean {
  return typeof globalThis.Worker === 'function' && typeof globalThis.navigator !== 'undefined';
}

/**
 * Checks that a validated non-template spec can be built in this runtime, building nothing: what
 * {@link buildBackend} would refuse. @throws BackendError (WebLLM or wllama outside a browser, llamacpp
 * without `runtime.createLocalBackend`), PrivacyError (a non-loopback server URL without `allowRemote`),
 * InputError (LLM_INVALID_REQUEST) (a server URL that is not http(s); a wllama model that is not a .gguf URL or local-file name).
 */
function checkBackend(spec: BackendSpec, runtime: RuntimeOptions): void {
  switch (spec.kind) {
    case 'openai':
      checkServerUrl(spec.baseUrl as string, spec.allowRemote ?? false);
      return;
    case 'llamacpp':
      if (!runtime.createLocalBackend) {
        throw new BackendError(
          'LLM_BACKEND_UNAVAILABLE',
          'the llamacpp backend runs a GGUF file in Node (node-llama-cpp); in a browser use webllm, or run ' +
            'from the command line / with nodeRuntime() from proactive-dialogue-lab/node',
        );
      }
      return;
    case 'webllm':
      if (!canHostWebLlm()) {
        throw new BackendError(
          'LLM_BACKEND_UNAVAILABLE',
          'WebLLM runs only in a browser (it needs Web Workers and WebGPU). Outside a browser use the openai ' +
            'backend with a local server (Ollama, llama.cpp server, vLLM), the replay backend with fixtures, or ' +
            'template mode.',
        );
      }
      return;
    case 'wllama':
      if (!canHostWllama()) {
        throw new BackendError(
          'LLM_BACKEND_UNAVAILABLE',
          'wllama (a GGUF model on the CPU) runs only in a browser (it needs WebAssembly, Web Workers and the ' +
            'origin-private file system). In Node use the llamacpp backend with the same GGUF file, the openai ' +
            'backend with a local server, the replay backend with fixtures, or template mode.',
        );
      }
      checkModelRef(spec.model as string);
      return;
    case 'replay':
    case 'template':
      return;
  }
}

/**
 * Checks, building nothing, that every role of a configuration already validated against `RolesConfigSchema`
 * can be built in this runtime: {@link buildRoles} with the same arguments then throws none of the errors below.
 * The command line calls it while it reads its options, so that a mistake is a usage error before any work, and
 * the job builds the roles once.
 * @throws as {@link buildRoles}.
 */
export function checkRoles(valid: RolesConfig, runtime: RuntimeOptions = {}): void {
  for (const role of ROLE_NAMES) checkBackend(backendFor(valid, role), runtime);
}

/**
 * Builds one backend for a non-template spec. @throws as {@link checkBackend}; InputError (LLM_INVALID_REQUEST) for a
 * template spec (it needs no backend).
 */
function buildBackend(spec: BackendSpec, config: RolesConfig, runtime: RuntimeOptions): ChatBackend {
  if (spec.kind === 'template') throw new InputError('LLM_INVALID_REQUEST', 'template roles need no backend');
  checkBackend(spec, runtime);
  switch (spec.kind) {
    case 'replay':
      return new ReplayBackend({
        fixture: config.fixtures ?? {},
        ...(runtime.record ? { mode: 'record' as const, inner: runtime.record } : {}),
      });
    case 'openai':
      return new OpenAiBackend({
        baseUrl: spec.baseUrl as string,
        model: spec.model as string,
        ...(spec.allowRemote !== undefined ? { allowRemote: spec.allowRemote } : {}),
        ...(spec.timeoutMs !== undefined ? { timeoutMs: spec.timeoutMs } : {}),
        ...(spec.maxAnswerBytes !== undefined ? { maxAnswerBytes: spec.maxAnswerBytes } : {}),
        ...(runtime.fetch ? { fetch: runtime.fetch } : {}),
      });
    case 'llamacpp':
      return (runtime.createLocalBackend as (spec: BackendSpec) => ChatBackend)(spec);
    case 'webllm':
      return new WebLlmBackend({
        modelId: spec.model as string,
        gpu: runtime.gpu,
        ...(runtime.createLlmWorker ? { createWorker: runtime.createLlmWorker } : {}),
      });
    case 'wllama':
      return new WllamaBackend({ model: spec.model as string });
  }
}

/**
 * Validates `config` and builds every role ({@link buildRoles}). Nothing is loaded or sent yet (WebLLM loads its
 * model on the first call). @throws ZodError for an invalid config; as {@link buildRoles}.
 */
export function resolveRoles(config: RolesConfig, runtime: RuntimeOptions = {}): ResolvedRoles {
  return buildRoles(RolesConfigSchema.parse(config), runtime);
}

/**
 * Builds every role of a configuration already validated against `RolesConfigSchema` — the `language` field of a
 * job's configuration once the job has validated it, or a config the command line has checked — so that it is
 * not validated (its fixtures parsed) a second time. Nothing is loaded or sent yet.
 * @throws BackendError for WebLLM or wllama outside a browser, llamacpp without
 *   `runtime.createLocalBackend`; PrivacyError for a non-loopback server URL without `allowRemote`;
 *   InputError (LLM_INVALID_REQUEST) for a backend option its constructor refuses.
 */
export function buildRoles(valid: RolesConfig, runtime: RuntimeOptions = {}): ResolvedRoles {
  const shared = new Map<string, ChatBackend>();
  const counters = new Map<RoleName, { backend: string; counter: CountingBackend | null }>();
  const options = (role: RoleName): RoleCallOptions | null => {
    const spec = backendFor(valid, role);
    if (spec.kind === 'template') {
      counters.set(role, { backend: 'template', counter: null });
      return null;
    }
    const key = canonicalJson(spec);
    let backend = shared.get(key);
    if (!backend) shared.set(key, (backend = buildBackend(spec, valid, runtime)));
    const counter = new CountingBackend(backend, runtime.signal);
    counters.set(role, { backend: backend.name, counter });
    return {
      backend: counter,
      ...(valid.maxAttempts !== undefined ? { maxAttempts: valid.maxAttempts } : {}),
    };
  };
  const mode = options('mode');
  const proposer = options('proposer');
  const responder = options('responder');
  const judgeOptions = options('judge');
  const strategy = options('strategy');
  const realizerOptions = options('realizer');
  const arg = options('arg');
  const predictorOptions = options('predictor');

  const simRoles: SimRoles = {
    modeClassifier: mode ? new LlmModeClassifier(mode) : new TemplateModeClassifier(),
    changeProposer: proposer ? new LlmChangeProposer(proposer) : new TemplateChangeProposer(),
    responder: responder ? new LlmResponder(responder) : new TemplateResponder(),
  };
  const baseJudge: Judge = judgeOptions ? new LlmJudge(judgeOptions) : new TemplateJudge();
  const env = { roles: simRoles, judge: baseJudge, judgeRepeats: valid.judgeRepeats ?? 3 };
  const judge = judgeStack(env);
  const realizer: GuidedRealizer = realizerOptions
    ? new LlmRealizer(realizerOptions)
    : new TemplateRealizer();
  const strategyProposer: StrategyProposer = strategy
    ? new LlmStrategyProposer(strategy)
    : new TemplateStrategyProposer();
  const argActor = arg ? new LlmArgActor(arg) : new TemplateArgActor();
  const predictor = predictorOptions
    ? new LlmReversePredictor(predictorOptions)
    : new TemplateReversePredictor();
  const policyParts: PolicyParts = {
    strategyCall: strategy,
    realizer,
    strategyProposer,
    argActor,
    predictor,
    candidates: valid.candidates ?? 1,
    lookahead: valid.lookahead ?? 3,
  };

  const usage = (): RoleUsage[] =>
    ROLE_NAMES.map((role) => {
      const entry = counters.get(role) as { backend: string; counter: CountingBackend | null };
      return { role, backend: entry.backend, ...(entry.counter?.stats ?? emptyUsageStats()) };
    });
  return {
    config: valid,
    simRoles,
    judge,
    baseJudge,
    env,
    realizer,
    strategyProposer,
    argActor,
    predictor,
    strategyCall: strategy,
    judgeCall: judgeOptions,
    policyParts,
    policy: (task, spec) => createPolicy(task, spec, policyParts),
    usage,
    async backendInfo() {
      const infos = await Promise.all([...shared.values()].map(async (b) => (await b.info?.()) ?? null));
      return infos.filter((i): i is Record<string, unknown> => i !== null);
    },
    recordedFixture() {
      if (!runtime.record) return null;
      const replay = [...shared.values()].find((b) => b instanceof ReplayBackend);
      return replay ? replay.fixture() : null;
    },
    totalUsage() {
      const total = emptyUsageStats();
      for (const u of usage()) {
        total.calls += u.calls;
        total.promptTokens += u.promptTokens;
        total.completionTokens += u.completionTokens;
        total.callsWithoutUsage += u.callsWithoutUsage;
      }
      return total;
    },
  };
}
