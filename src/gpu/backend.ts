/**
 * tfjs backend selection for the trainable CSTPO networks (docs/architecture.md "CSTPO": small networks in
 * tfjs, trained on WebGPU). Tries backends in order of preference — WebGPU, then WebGL, WASM and finally the
 * plain-JavaScript CPU backend — and reports which one was chosen and why each earlier one was skipped.
 *
 * The tfjs namespace is passed in (nothing reaches for a global): a page or worker passes the `@tensorflow/tfjs`
 * module after importing the backends it wants registered (e.g. `@tensorflow/tfjs-backend-webgpu`); Node passes
 * the same module and ends on `cpu`. A backend whose package was not imported is skipped as "not registered".
 */

import { BackendError } from '../errors';

/** Backends in the default order of preference. */
export const BACKEND_PREFERENCE = ['webgpu', 'webgl', 'wasm', 'cpu'] as const;
/**
 * The order for work that runs on CPUs — CSTPO rollouts (many tiny per-turn forward passes, dispatch-bound on a
 * GPU) and training where no GPU is wanted: tfjs's WebAssembly backend (XNNPACK, SIMD) where it is registered
 * and initialises (import `src/gpu/wasm`), else the pure-JavaScript `cpu` backend, with the reason recorded in
 * the choice's `attempts`. Measured by bench `rl/step-time` (wasm against cpu in the same run): the step's
 * update several times faster on wasm. Use this instead of `['cpu']` for the train job and rollout workers.
 */
export const CPU_BACKEND_PREFERENCE = ['wasm', 'cpu'] as const;
/** A tfjs backend name (the default list; other registered names are accepted too). */
export type BackendName = (typeof BACKEND_PREFERENCE)[number] | (string & {});

/** The slice of the tfjs namespace that backend selection uses (`@tensorflow/tfjs` satisfies it). */
export interface TfBackendApi {
  /** The registered factory of a backend (tfjs's own, called again here only to learn why it failed). */
  findBackendFactory(name: string): unknown;
  setBackend(name: string): Promise<boolean>;
  getBackend(): string;
}

/** One backend tried: chosen (`ok`) or skipped with the reason. */
export interface BackendAttempt {
  name: string;
  ok: boolean;
  /** Why it was skipped (absent for the chosen one). */
  reason?: string;
}

/** The outcome of {@link selectBackend}. */
export interface BackendChoice {
  /** The active tfjs backend after selection. */
  backend: string;
  /** Every backend tried, in order, ending with the chosen one. */
  attempts: BackendAttempt[];
  /** One line for logs and UIs, e.g. `webgl (skipped webgpu: not registered)`. */
  summary: string;
}

/** No backend in the preference list could be initialised. Code `GPU_NO_BACKEND`; `tried` lists each attempt. */
export function noBackendError(attempts: BackendAttempt[]): BackendError {
  return new BackendError(
    'GPU_NO_BACKEND',
    `no tfjs backend could be initialised: ${attempts.map((a) => `${a.name} (${a.reason ?? 'failed'})`).join('; ')}`,
    { tried: attempts },
  );
}

/** Options of {@link selectBackend}. */
export interface SelectBackendOptions {
  /** Backends to try, best first (default {@link BACKEND_PREFERENCE}). */
  prefer?: readonly BackendName[];
}

/** Text of a thrown value: its message, or its string form. */
function messageOf(e: unknown): string {
  return e instanceof Error ? `${e.name === 'Error' ? '' : `${e.name}: `}${e.message}` : String(e);
}

/**
 * Why a backend whose `setBackend` resolved `false` failed. tfjs swallows the factory's error (it only logs it
 * as a console warning), so the factory is run once more here and its error is the reason; a backend it
 * creates after all is disposed.
 */
async function failureCause(factory: unknown): Promise<string> {
  if (typeof factory !== 'function') return 'initialisation failed (no factory to ask for the cause)';
  try {
    const backend = (await (factory as () => unknown)()) as { dispose?: () => void } | null | undefined;
    backend?.dispose?.();
    return 'initialisation failed (cause not reported: a second initialisation succeeded)';
  } catch (e) {
    return `initialisation failed: ${messageOf(e)}`;
  }
}

/**
 * Activate the first backend of `prefer` that initialises. A backend is skipped, with the reason recorded, when
 * its factory is not registered, when `setBackend` resolves `false` (tfjs's signal that initialisation failed,
 * e.g. no WebGPU adapter or no WebGL context; the reason is then the factory's own error, e.g. "WebGPU is not
 * supported on this device") or when it throws.
 * @throws BackendError (GPU_NO_BACKEND) when none initialises (its `attempts` list every reason).
 */
export async function selectBackend(
  tf: TfBackendApi,
  options: SelectBackendOptions = {},
): Promise<BackendChoice> {
  const prefer = options.prefer ?? BACKEND_PREFERENCE;
  const attempts: BackendAttempt[] = [];
  for (const name of prefer) {
    const factory = tf.findBackendFactory(name);
    if (factory == null) {
      attempts.push({ name, ok: false, reason: 'not registered' });
      continue;
    }
    let ok: boolean;
    try {
      ok = await tf.setBackend(name);
    } catch (e) {
      attempts.push({ name, ok: false, reason: `initialisation threw: ${messageOf(e)}` });
      continue;
    }
    if (!ok) {
      attempts.push({ name, ok: false, reason: await failureCause(factory) });
      continue;
    }
    attempts.push({ name, ok: true });
    const skipped = attempts.filter((a) => !a.ok).map((a) => `${a.name}: ${a.reason}`);
    return {
      backend: tf.getBackend(),
      attempts,
      summary: skipped.length ? `${name} (skipped ${skipped.join('; ')})` : name,
    };
  }
  throw noBackendError(attempts);
}
