/**
 * What the two train jobs (CSTPO: ./train.ts; EmoLLM's GRPO: ./train-grpo.ts) share before and around training:
 * guarding the run's place and choosing the tfjs backend ({@link openTrainRun}), and, on `--resume`, reading the
 * stored split back, refusing a run of another simulator version and finding its training seeds again
 * ({@link resumeSplit}).
 */
import * as tf from '@tensorflow/tfjs';
import { CPU_BACKEND_PREFERENCE, selectBackend, type BackendChoice } from '../gpu/backend';
import { configureWasmBackend, type WasmBackendOptions } from '../gpu/wasm';
import { parseJsonText } from '../io/json';
import type { RunStorage, RunStorageState } from '../runs/storage';
import type { RunTypes } from '../runs/store';
import { SIMULATOR_VERSION } from '../sim/version';
import type { Seed, TaskId } from '../tasks';
import { checkAborted } from './common';
import { ConfigError, CheckpointError } from '../errors';

/** The part of a run's storage (src/runs/storage.ts) that {@link openTrainRun} and {@link resumeSplit} use. */
export type TrainPlace = Pick<RunStorage<RunTypes>, 'location' | 'prepare' | 'readText'>;

/** Options of {@link openTrainRun}. */
export interface OpenTrainRunOptions {
  resume: boolean;
  overwrite: boolean;
  signal?: AbortSignal;
  /**
   * Where tfjs's wasm backend finds its binaries (a browser build passes `WASM_ASSET_URLS` from
   * src/gpu/wasm-assets.ts; Node: the package's own, the default) and whether threads may be used.
   */
  wasm?: WasmBackendOptions;
  /**
   * A tfjs backend the caller has chosen and activated already (the browser's trainer worker: WebGPU first); the
   * run trains on it and no other is selected.
   */
  backend?: BackendChoice;
}

/**
 * Checks the run's place before any work, then activates the tfjs backend both jobs train on:
 * {@link CPU_BACKEND_PREFERENCE} — wasm (XNNPACK) where it initialises, else the JavaScript cpu backend, the reason
 * recorded in the choice (its `summary` is stored with the run). A run's numbers are reproducible on one backend;
 * wasm and cpu may differ in the last bits.
 * @throws the storage's guard errors; CheckpointError when `resume` finds no run; AbortedError (JOB_ABORTED) when `signal`
 *   aborted; BackendError (GPU_NO_BACKEND) when no backend initialises.
 */
export async function openTrainRun(
  place: TrainPlace,
  job: string,
  options: OpenTrainRunOptions,
): Promise<{ state: RunStorageState; backend: BackendChoice }> {
  const state = await place.prepare({ resume: options.resume, overwrite: options.overwrite });
  if (options.resume && state !== 'resume')
    throw new CheckpointError('TRAIN_RUN_INVALID', `no run to resume in ${place.location}`);
  checkAborted(options.signal, job);
  if (options.backend) return { state, backend: options.backend };
  // Production mode only silences tfjs's console warnings (here: the banner suggesting the native Node backend).
  tf.enableProdMode();
  configureWasmBackend(tf, options.wasm ?? {});
  return { state, backend: await selectBackend(tf, { prefer: CPU_BACKEND_PREFERENCE }) };
}

/** What every stored split holds (`split.json` of either job). */
export interface StoredSplit {
  /** The simulator the run trains against; absent in runs made before it was recorded. */
  simulatorVersion?: string;
  /** The seed source (`bundled`, a dataset path, an EmoLLM setting). */
  source: string;
  /** Training seed ids. */
  train: string[];
}

/**
 * The stored split of a run being resumed (`file` of `place`), checked by `check` (e.g. the job's settings
 * against the stored ones) and to be of this simulator version, and its training seeds found again in its source
 * by id.
 * @throws CheckpointError when the split is missing, was made by another simulator version, or names a training
 *   seed its source no longer has; DataFormatError (FILE_DAMAGED) naming the file and line when it is not valid JSON; whatever
 *   `check` throws.
 */
export async function resumeSplit<S extends StoredSplit>(
  place: TrainPlace,
  file: string,
  load: (source: string, task: TaskId) => Promise<Seed[]>,
  task: (split: S) => TaskId,
  check?: (split: S) => void,
): Promise<{ split: S; seeds: Seed[] }> {
  const text = await place.readText(file);
  if (text === null)
    throw new CheckpointError('TRAIN_RUN_INVALID', `no run to resume in ${place.location} (no ${file})`);
  const split = parseJsonText(`${place.location}/${file}`, text) as S;
  check?.(split);
  if (split.simulatorVersion !== SIMULATOR_VERSION)
    throw new CheckpointError(
      'TRAIN_RUN_INVALID',
      `the run in ${place.location} was made by simulator version ` +
        `${split.simulatorVersion ?? '(unrecorded, older)'}; this is ${SIMULATOR_VERSION}: resuming would ` +
        'train one policy against two simulators. Start a new run (or overwrite this one)',
    );
  const byId = new Map((await load(split.source, task(split))).map((s) => [s.id, s]));
  const seeds = split.train.map((id) => {
    const s = byId.get(id);
    if (!s)
      throw new CheckpointError(
        'TRAIN_RUN_INVALID',
        `training seed ${id} of the stored split is missing from ${split.source}`,
      );
    return s;
  });
  return { split, seeds };
}

/**
 * A train job's input with its old top-level names moved, once, to their place in the trainer's settings (the
 * job's `nested` field): `moved` maps each old name to the settings field it now is (`warmup` →
 * `criticWarmupSteps`). Each old name given is reported through `note` as a notice; the old names keep working.
 * @throws ConfigError (JOB_CONFIG_INVALID) when an old name and its new place are both given with different values.
 */
export function moveOldFields<I extends object>(
  input: I,
  nested: string,
  moved: Readonly<Record<string, string>>,
  job: string,
  note?: (text: string) => void,
): I {
  const given = input as Record<string, unknown>;
  const old = Object.keys(moved).filter((k) => given[k] !== undefined);
  if (old.length === 0) return input;
  const out: Record<string, unknown> = { ...given };
  const settings: Record<string, unknown> = { ...((given[nested] as object | undefined) ?? {}) };
  for (const key of old) {
    const to = moved[key] as string;
    const value = given[key];
    delete out[key];
    if (settings[to] !== undefined && JSON.stringify(settings[to]) !== JSON.stringify(value))
      throw new ConfigError(
        'JOB_CONFIG_INVALID',
        `${job}: ${key}: old name of ${nested}.${to}, which is given otherwise; give one`,
      );
    settings[to] = value;
    note?.(`notice: ${job}: the field ${key} is now ${nested}.${to} (the old name still works)\n`);
  }
  out[nested] = settings;
  return out as I;
}
