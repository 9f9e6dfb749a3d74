/**
 * PPDPP's planner (Deng et al., 2024; Principles paper appendix F.2;
 * docs/architecture.md "Evaluation and statistics"): a small network over the actor's observation features
 * (src/features) that outputs a distribution over the task's strategy labels; the chosen label is then
 * realised (template realizer, or an LLM realizer).
 *
 * The network is the strategy policy of src/rl (a one-hidden-layer tanh MLP, `strategy/0/*` and
 * `strategy/1/*`), trained by {@link trainPpdpp} (SFT, then REINFORCE). A trained planner is plain data
 * ({@link PpdppModel}); acting evaluates it with a plain typed-array forward pass, which gives the same numbers
 * in Node, in workers and in browsers whatever tfjs backend is active, and needs no tfjs at all.
 */
import { TemplateRealizer } from '../../agents/realizer';
import type { Policy, Realizer } from '../../agents/types';
import { HashedNgramEmbedder } from '../../embed';
import type { Action, Observation } from '../../env/env';
import { ObservationFeaturizer } from '../../features/observation';
import type { WeightMap } from '../../rl/params';
import type { Rng } from '../../rng';
import { getTask } from '../../tasks';
import type { TaskId } from '../../tasks/seed';
import { parseJsonText } from '../../io/json';
import { realizeStrategy } from '../common';
import { hasCode, ModelFileError } from '../../errors';

/** A trained PPDPP planner, as stored (JSON with weights as number arrays is produced by {@link modelToJson}). */
export interface PpdppModel {
  version: 1;
  task: TaskId;
  /** Dimension of the hashed n-gram embedding of the observation featurizer. */
  embedDim: number;
  /** Horizon (actor turns) that normalises the featurizer's turn counters. */
  horizon: number;
  hidden: number;
  /** The strategy network's parameters (`strategy/0/kernel` [obs, hidden], `strategy/0/bias`, `strategy/1/kernel` [hidden, K], `strategy/1/bias`). */
  weights: WeightMap;
  /** How the planner was trained (for reports). */
  training: PpdppTrainingSummary;
}

/** What a report needs to know about a planner's training. */
export interface PpdppTrainingSummary {
  seed: number;
  sftExamples: number;
  sftEpochs: number;
  /** Training-set accuracy of the argmax label after SFT, in [0, 1]. */
  sftAccuracy: number;
  rlSteps: number;
  episodesPerStep: number;
  gamma: number;
  /** Ids of the seeds the planner was trained on (to spot overlap with evaluation seeds). */
  trainSeedIds: string[];
}

const LAYERS = ['strategy/0/kernel', 'strategy/0/bias', 'strategy/1/kernel', 'strategy/1/bias'] as const;

/** The featurizer a planner was trained with. */
export function plannerFeaturizer(model: PpdppModel): ObservationFeaturizer {
  return new ObservationFeaturizer({
    task: model.task,
    embedder: new HashedNgramEmbedder({ dim: model.embedDim }),
    horizon: model.horizon,
  });
}

/**
 * Check a planner's parameters against its task and featurizer.
 * @throws ModelFileError (PPDPP_MODEL_INVALID) naming the missing parameter or the wrong shape.
 */
export function checkModel(model: PpdppModel): void {
  const obs = plannerFeaturizer(model).dim;
  const k = getTask(model.task).strategies.length;
  const expected: Record<(typeof LAYERS)[number], number[]> = {
    'strategy/0/kernel': [obs, model.hidden],
    'strategy/0/bias': [model.hidden],
    'strategy/1/kernel': [model.hidden, k],
    'strategy/1/bias': [k],
  };
  for (const name of LAYERS) {
    const w = model.weights[name];
    if (!w)
      throw new ModelFileError(
        'PPDPP_MODEL_INVALID',
        `PPDPP planner for ${model.task} has no parameter "${name}"`,
      );
    const shape = expected[name];
    const size = shape.reduce((a, b) => a * b, 1);
    if (w.shape.join(',') !== shape.join(',') || w.data.length !== size) {
      throw new ModelFileError(
        'PPDPP_MODEL_INVALID',
        `PPDPP planner for ${model.task}: "${name}" has shape [${w.shape.join(', ')}], expected [${shape.join(', ')}]`,
      );
    }
  }
}

/** Label logits of a feature vector (length K), by the plain forward pass: tanh(x W0 + b0) W1 + b1. */
export function plannerLogits(model: PpdppModel, x: Float32Array): Float64Array {
  const w0 = model.weights['strategy/0/kernel']!.data;
  const b0 = model.weights['strategy/0/bias']!.data;
  const w1 = model.weights['strategy/1/kernel']!.data;
  const b1 = model.weights['strategy/1/bias']!.data;
  const h = model.hidden;
  const k = b1.length;
  const hidden = new Float64Array(h);
  for (let j = 0; j < h; j++) hidden[j] = b0[j] as number;
  for (let i = 0; i < x.length; i++) {
    const xi = x[i] as number;
    if (xi === 0) continue;
    for (let j = 0; j < h; j++) hidden[j] = (hidden[j] as number) + xi * (w0[i * h + j] as number);
  }
  const out = new Float64Array(k);
  for (let c = 0; c < k; c++) out[c] = b1[c] as number;
  for (let j = 0; j < h; j++) {
    const a = Math.tanh(hidden[j] as number);
    for (let c = 0; c < k; c++) out[c] = (out[c] as number) + a * (w1[j * k + c] as number);
  }
  return out;
}

/** Softmax of logits (stable). */
export function softmax(logits: ArrayLike<number>): Float64Array {
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) max = Math.max(max, logits[i] as number);
  const out = new Float64Array(logits.length);
  let sum = 0;
  for (let i = 0; i < logits.length; i++) sum += out[i] = Math.exp((logits[i] as number) - max);
  for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) / sum;
  return out;
}

/** Options of {@link PpdppPolicy}. */
export interface PpdppPolicyOptions {
  /** Realises the chosen label (default: the template realizer). */
  realizer?: Realizer;
  /** `greedy` (default; evaluation): the most probable label, ties to the earlier label; `sample`: draw one. */
  choice?: 'greedy' | 'sample';
}

/**
 * PPDPP as a policy: observation features → planner → label → realizer.
 * @throws ModelFileError (PPDPP_MODEL_INVALID) from the constructor when the planner does not fit ({@link checkModel}).
 */
export class PpdppPolicy implements Policy {
  readonly name = 'ppdpp';
  private readonly featurizer: ObservationFeaturizer;
  private readonly labels: readonly string[];
  private readonly realizer: Realizer;
  constructor(
    private readonly model: PpdppModel,
    private readonly options: PpdppPolicyOptions = {},
  ) {
    checkModel(model);
    this.featurizer = plannerFeaturizer(model);
    this.labels = getTask(model.task).strategies;
    this.realizer = options.realizer ?? new TemplateRealizer();
  }

  /** The planner's label distribution for an observation (length K, in the task's label order). */
  async probabilities(obs: Observation): Promise<Float64Array> {
    return softmax(plannerLogits(this.model, await this.featurizer.observation(obs)));
  }

  async act(obs: Observation, rng: Rng): Promise<Action> {
    if (obs.task !== this.model.task)
      throw new ModelFileError(
        'PPDPP_MODEL_INVALID',
        `PPDPP planner for ${this.model.task} cannot act in ${obs.task}`,
      );
    const p = await this.probabilities(obs);
    let k = 0;
    if (this.options.choice === 'sample') k = rng.weightedIndex(Array.from(p));
    else for (let i = 1; i < p.length; i++) if ((p[i] as number) > (p[k] as number)) k = i;
    return realizeStrategy(this.realizer, obs, this.labels[k] as string, rng);
  }
}

/** A planner as JSON text (weights as plain number arrays). */
export function modelToJson(model: PpdppModel): string {
  const weights = Object.fromEntries(
    Object.entries(model.weights).map(([name, w]) => [name, { shape: w.shape, data: Array.from(w.data) }]),
  );
  return `${JSON.stringify({ ...model, weights })}\n`;
}

/**
 * A planner from {@link modelToJson} text.
 * @param source where the text came from (a file path), named by every error.
 * @throws DataFormatError (FILE_DAMAGED) naming `source` and the line when the text is not valid JSON; ModelFileError (PPDPP_MODEL_INVALID) naming
 *   `source` when it is not a version-1 planner or does not fit its task.
 */
export function modelFromJson(text: string, source = 'the PPDPP planner'): PpdppModel {
  const raw = parseJsonText(source, text) as {
    version?: unknown;
    task?: unknown;
    weights?: Record<string, { shape?: unknown; data?: unknown }>;
  } | null;
  if (raw?.version !== 1 || typeof raw.task !== 'string' || typeof raw.weights !== 'object' || !raw.weights)
    throw new ModelFileError('PPDPP_MODEL_INVALID', `${source} is not a version-1 PPDPP planner`);
  const weights: WeightMap = {};
  for (const [name, w] of Object.entries(raw.weights)) {
    if (!Array.isArray(w?.shape) || !Array.isArray(w.data))
      throw new ModelFileError(
        'PPDPP_MODEL_INVALID',
        `${source}: parameter "${name}" has no shape or data array`,
      );
    weights[name] = { shape: w.shape as number[], data: Float32Array.from(w.data as number[]) };
  }
  const model = { ...(raw as unknown as PpdppModel), weights };
  try {
    checkModel(model);
  } catch (e) {
    if (hasCode(e, ModelFileError, 'PPDPP_MODEL_INVALID'))
      throw new ModelFileError('PPDPP_MODEL_INVALID', `${source}: ${e.message}`);
    throw e;
  }
  return model;
}
