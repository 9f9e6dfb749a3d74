/**
 * Observation features of the actor (docs/architecture.md "CSTPO"): what the strategy policy and the
 * utterance scorer read. Built from the actor-visible observation only — dialogue text (through an
 * {@link Embedder}), the actor's own past strategy labels, turn and horizon, public task events and the public
 * task view — never from the simulator's latent state.
 *
 * Layout of one observation vector (E = the embedder's dimension, K = the task's number of labels):
 *
 * | offset | length | content |
 * |---|---|---|
 * | 0 | E | embedding of the user's last turn |
 * | E | E | context: the user's up to 3 turns before it, each embedded (and cached) on its own, summed and L2-normalised (all 0 when none) |
 * | 2E | E | embedding of the actor's last turn |
 * | 3E | 2 | turn / horizon, remaining / horizon (each in [0, 1]) |
 * | 3E+2 | K | share of each label among the actor's labelled turns so far (sums to 1, or all 0) |
 * | 3E+2+K | K | one-hot of the actor's last label (all 0 when none) |
 * | 3E+2+2K | 14 | whether an event of each type (offer, accept, reject, quit, commit, withdraw, end) occurred, by actor then by user |
 * | 3E+16+2K | 4 | task features: CB — the seller's last counter and the buyer's last offer, each as (price − target) / (list − target) clipped to [−1, 2], and whether each exists; P4G — the committed amount / 2 USD and whether a commitment exists; ESConv — zeros |
 */

import type { Embedder } from '../embed';
import type { Observation } from '../env/env';
import type { TaskEvent } from '../sim/types';
import { getTask, type TaskId, type Turn } from '../tasks';
import { ConfigError } from '../errors';

/** Event types in the order of the event block. */
export const EVENT_TYPES: readonly TaskEvent['type'][] = [
  'offer',
  'accept',
  'reject',
  'quit',
  'commit',
  'withdraw',
  'end',
];
/** Number of event features (7 types × 2 parties). */
export const EVENT_FEATURES = EVENT_TYPES.length * 2;
/** Number of task features. */
export const TASK_FEATURES = 4;
/** How many earlier user turns the context embedding combines. */
export const CONTEXT_TURNS = 3;

/** Clip to [lo, hi]. */
const clip = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));

/** Options of {@link ObservationFeaturizer}. */
export interface ObservationFeaturizerOptions {
  task: TaskId;
  /** Embeds dialogue text and candidate utterances. */
  embedder: Embedder;
  /** Episode horizon in actor turns (normalises the turn counters), a positive integer. */
  horizon: number;
}

/**
 * Turns observations and candidate utterances into fixed-size vectors. Embeddings are cached by text (candidate
 * realizations repeat a lot); the cache holds at most `cacheSize` texts and is cleared when full.
 * @throws ConfigError (FEATURE_OPTION_INVALID) for a non-positive horizon.
 */
export class ObservationFeaturizer {
  /** Length of an observation vector: 3E + 2 + 2K + 14 + 4. */
  readonly dim: number;
  /** Length of an utterance vector (= the embedder's dimension E). */
  readonly utteranceDim: number;
  readonly labels: readonly string[];
  private readonly cache = new Map<string, Float32Array>();

  constructor(
    private readonly options: ObservationFeaturizerOptions,
    private readonly cacheSize = 4096,
  ) {
    if (!Number.isInteger(options.horizon) || options.horizon < 1)
      throw new ConfigError(
        'FEATURE_OPTION_INVALID',
        `horizon must be a positive integer, got ${options.horizon}`,
      );
    this.labels = getTask(options.task).strategies;
    this.utteranceDim = options.embedder.dim;
    this.dim = 3 * this.utteranceDim + 2 + 2 * this.labels.length + EVENT_FEATURES + TASK_FEATURES;
  }

  /** Embeddings of `texts` (cached), each of length E. */
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const found = new Map<string, Float32Array>();
    const missing: string[] = [];
    for (const t of new Set(texts)) {
      const v = this.cache.get(t);
      if (v) found.set(t, v);
      else missing.push(t);
    }
    if (missing.length > 0) {
      const vectors = await this.options.embedder.embed(missing);
      if (this.cache.size + missing.length > this.cacheSize) this.cache.clear();
      missing.forEach((t, i) => {
        found.set(t, vectors[i] as Float32Array);
        this.cache.set(t, vectors[i] as Float32Array);
      });
    }
    return texts.map((t) => found.get(t) as Float32Array);
  }

  /** Feature vectors of candidate utterances (the utterance scorer's text input), each of length E. */
  utterances(texts: readonly string[]): Promise<Float32Array[]> {
    return this.embed(texts);
  }

  /**
   * Feature vectors of observations, each of length {@link dim}. Every turn's text is embedded once and cached
   * (a turn recurs in the next observations' context; the old joined context string never did).
   */
  async observations(observations: readonly Observation[]): Promise<Float32Array[]> {
    const parts = observations.map((o) => dialogueTexts(o.history));
    const vectors = await this.embed(parts.flatMap((p) => [p.user, p.actor, ...p.context]));
    let at = 0;
    return observations.map((o, i) => {
      const n = (parts[i] as DialogueTexts).context.length;
      const [user, actor, ...context] = vectors.slice(at, at + 2 + n) as Float32Array[];
      at += 2 + n;
      return this.assemble(o, [
        user as Float32Array,
        combine(context, this.utteranceDim),
        actor as Float32Array,
      ]);
    });
  }

  /** Feature vector of one observation. */
  async observation(observation: Observation): Promise<Float32Array> {
    return (await this.observations([observation]))[0] as Float32Array;
  }

  private assemble(obs: Observation, texts: Float32Array[]): Float32Array {
    const E = this.utteranceDim;
    const K = this.labels.length;
    const out = new Float32Array(this.dim);
    texts.forEach((v, j) => out.set(v, j * E));
    let o = 3 * E;
    const horizon = this.options.horizon;
    out[o++] = clip(obs.turn / horizon, 0, 1);
    out[o++] = clip(obs.remaining / horizon, 0, 1);
    const actorLabels = obs.history
      .filter((t) => t.speaker === 'actor' && t.strategy !== undefined)
      .map((t) => this.labels.indexOf(t.strategy as string))
      .filter((k) => k >= 0);
    for (const k of actorLabels) out[o + k] = (out[o + k] as number) + 1 / actorLabels.length;
    o += K;
    const last = actorLabels.at(-1);
    if (last !== undefined) out[o + last] = 1;
    o += K;
    for (const e of obs.events) {
      out[o + EVENT_TYPES.indexOf(e.type) + (e.by === 'user' ? EVENT_TYPES.length : 0)] = 1;
    }
    o += EVENT_FEATURES;
    out.set(taskFeatures(obs), o);
    return out;
  }
}

/** The texts embedded per observation: user's last turn and actor's last turn ('' if none), the context turns. */
interface DialogueTexts {
  user: string;
  actor: string;
  /** The user's up to {@link CONTEXT_TURNS} turns before the last, oldest first. */
  context: string[];
}

function dialogueTexts(history: readonly Turn[]): DialogueTexts {
  const user = history.filter((t) => t.speaker === 'user').map((t) => t.text);
  const actor = history.filter((t) => t.speaker === 'actor').map((t) => t.text);
  return { user: user.at(-1) ?? '', actor: actor.at(-1) ?? '', context: user.slice(-1 - CONTEXT_TURNS, -1) };
}

/**
 * The context embedding: the sum of the turns' embeddings (in order, in double precision), L2-normalised; the
 * zero vector when there is no turn or the sum is zero. Length `dim`.
 */
export function combine(vectors: readonly Float32Array[], dim: number): Float32Array {
  const sum = new Float64Array(dim);
  for (const v of vectors) for (let j = 0; j < dim; j++) sum[j] = (sum[j] as number) + (v[j] as number);
  let norm = 0;
  for (let j = 0; j < dim; j++) norm += (sum[j] as number) * (sum[j] as number);
  const out = new Float32Array(dim);
  if (norm > 0) {
    const inv = 1 / Math.sqrt(norm);
    for (let j = 0; j < dim; j++) out[j] = (sum[j] as number) * inv;
  }
  return out;
}

/** The 4 task features of an observation (see the module table). */
export function taskFeatures(obs: Observation): Float32Array {
  const out = new Float32Array(TASK_FEATURES);
  const { prices, commitments } = getTask(obs.task).capabilities;
  if (prices) {
    const { listPrice, targetPrice } = obs.actorView;
    const span = listPrice !== undefined && targetPrice !== undefined ? listPrice - targetPrice : 0;
    const norm = (p: number) => (span > 0 ? clip((p - (targetPrice as number)) / span, -1, 2) : 0);
    const counter = obs.events.filter((e) => e.type === 'offer' && e.by === 'user').at(-1)?.price;
    const offer = obs.events.filter((e) => e.type === 'offer' && e.by === 'actor').at(-1)?.price;
    if (counter !== undefined) [out[0], out[2]] = [norm(counter), 1];
    if (offer !== undefined) [out[1], out[3]] = [norm(offer), 1];
  } else if (commitments) {
    const commit = obs.events.filter((e) => e.type === 'commit').at(-1);
    if (commit) [out[0], out[2]] = [clip((commit.amount ?? 0) / 2, 0, 1), 1];
  }
  return out;
}
