/**
 * EmoLLM-GRPO rollouts (EmoLLM paper §3.2.2, Figure 3): per turn the trained heads decide, over the frozen
 * ARG actor, realizer and reverse-perspective predictor —
 *
 * 1. the gate g ~ π(g | o): write an ARG trace first, or reply directly (the "w/o ARG" ablation: never a trace);
 * 2. the response strategy K ~ π(K | o), to which the ARG's strategy node is fixed;
 * 3. the candidates: with a trace, the ARG actor's own reply and the realizer's further realizations of K
 *    (guided by the trace); without, the realizer's; at most `candidates` distinct ones;
 * 4. with reverse perspective on, each candidate's n-step lookahead ŝ⁽¹⁾…ŝ⁽ⁿ⁾; a candidate's features are its text
 *    embedding ⊕ [value of ŝ⁽ⁿ⁾, value of ŝ⁽¹⁾] (zeros with reverse perspective off);
 * 5. the reply U ~ π(U | o, K) over the candidates.
 *
 * Everything reads the actor-visible observation only; the trainer scores the turn afterwards from the
 * observation the environment returns (rewards-trajectory.ts). A group is G trajectories from the same scenario,
 * reset with the same environment seed (the same starting checkpoint), under the same weights, each with its own
 * random stream.
 */
import type { GuidedRealizer } from '../agents/llm/realizer';
import { runEpisode } from '../agents/rollout';
import type { Policy } from '../agents/types';
import { lookahead, predictedValue } from '../appraisal/lookahead';
import type { ArgActor, ReversePredictor } from '../appraisal/roles';
import { formatArgTrace } from '../appraisal/trace';
import type { ArgTrace, PredictedUserState } from '../appraisal/types';
import type { Action, DialogueEnv, Observation } from '../env/env';
import type { ObservationFeaturizer } from '../features';
import { stack } from '../rl/actor';
import { sampleIndex } from '../rl/sampling';
import type { Rng } from '../rng';
import { getTask, type Seed } from '../tasks';
import * as tf from '@tensorflow/tfjs';
import type { GrpoConfig } from './config';
import type { GrpoNetworks } from './networks';
import type { GrpoDecision } from './objective';
import type { TurnRecord } from './rewards-trajectory';
import { InputError } from '../errors';

/** Extra candidate features from the lookahead: value of ŝ⁽ⁿ⁾ and of ŝ⁽¹⁾. */
export const LOOKAHEAD_FEATURES = 2;

/** The frozen language parts the heads steer (template or LLM implementations). */
export interface GrpoActorServices {
  actor: ArgActor;
  realizer: GuidedRealizer;
  predictor: ReversePredictor;
  featurizer: ObservationFeaturizer;
}

/** One decided turn: the heads' decision, the action and what the rewards need. */
export interface DecidedTurn {
  decision: GrpoDecision;
  action: Action;
  trace: ArgTrace | null;
  path: PredictedUserState[] | null;
  /** Predictor calls made (candidates × depth). */
  predictorCalls: number;
}

async function probs(logits: tf.Tensor2D): Promise<Float32Array> {
  const p = tf.softmax(logits);
  const data = (await p.data()) as Float32Array;
  tf.dispose([p, logits]);
  return data;
}

/**
 * The heads' decision at `obs` (see the module comment). `greedy` takes the most likely choice of each head
 * instead of sampling. @throws whatever the actor, realizer or predictor throw; InputError (GRPO_INPUT_INVALID) when no candidate is written.
 */
export async function decideTurn(
  nets: GrpoNetworks,
  services: GrpoActorServices,
  config: GrpoConfig,
  obs: Observation,
  rng: Rng,
  greedy = false,
): Promise<DecidedTurn> {
  const labels = getTask(obs.task).strategies;
  const [feat] = await services.featurizer.observations([obs]);
  const x = feat as Float32Array;
  const choose = (p: Float32Array) => (greedy ? p.indexOf(Math.max(...p)) : sampleIndex(p, rng));
  const obsT = stack([x], nets.dims.obs);
  const gateProbs = await probs(nets.gate.logits(obsT));
  const strategyProbs = await probs(nets.strategy.logits(obsT));
  const gate = config.ablations.arg ? choose(gateProbs) : null;
  const strategy = choose(strategyProbs);
  const label = labels[strategy] as string;
  const m = config.candidates;
  let trace: ArgTrace | null = null;
  let texts: string[];
  if (gate === 1) {
    const out = await services.actor.reason(obs, rng, label);
    trace = out.trace;
    const more =
      m > 1 ? await services.realizer.realize(obs, label, m, rng, { reasoning: formatArgTrace(trace) }) : [];
    texts = [...new Set([out.response, ...more])].slice(0, m);
  } else {
    texts = [...new Set(await services.realizer.realize(obs, label, m, rng))].slice(0, m);
  }
  if (texts.length === 0) throw new InputError('GRPO_INPUT_INVALID', `no candidate reply for "${label}"`);
  const embeddings = await services.featurizer.utterances(texts);
  const rp = config.ablations.reversePerspective;
  const paths: (PredictedUserState[] | null)[] = [];
  for (const text of texts)
    paths.push(rp ? await lookahead(services.predictor, obs, text, config.depth) : null);
  const candidates = embeddings.map((e, i) => {
    const v = new Float32Array(e.length + LOOKAHEAD_FEATURES);
    v.set(e);
    const path = paths[i];
    if (path) {
      v[e.length] = predictedValue(path.at(-1) as PredictedUserState);
      v[e.length + 1] = predictedValue(path[0] as PredictedUserState);
    }
    return v;
  });
  const utterLogits = tf.tidy(() =>
    nets.utterance.logits(
      obsT,
      tf.tensor1d(Int32Array.of(strategy), 'int32'),
      tf.tensor3d(stackFlat(candidates), [1, candidates.length, nets.dims.utterance]),
      tf.ones([1, candidates.length]),
    ),
  );
  obsT.dispose();
  const utteranceProbs = await probs(utterLogits);
  const utterance = choose(utteranceProbs);
  return {
    decision: { obs: x, gate, gateProbs, strategy, strategyProbs, candidates, utterance, utteranceProbs },
    action: { strategy: label, utterance: texts[utterance] as string },
    trace,
    path: paths[utterance] ?? null,
    predictorCalls: rp ? texts.length * config.depth : 0,
  };
}

function stackFlat(rows: readonly Float32Array[]): Float32Array {
  const d = rows[0]?.length ?? 0;
  const out = new Float32Array(rows.length * d);
  rows.forEach((r, i) => out.set(r, i * d));
  return out;
}

/** A played trajectory. */
export interface Trajectory {
  decisions: GrpoDecision[];
  turns: TurnRecord[];
  success: boolean;
  endReason: string | null;
  /** ARG traces written. */
  traces: number;
  predictorCalls: number;
}

/**
 * Play one episode of `seed` from a reset with `envSeed`, the heads deciding every turn with the stream seeded by
 * `policySeed`, through the one play loop (`runEpisode`, src/agents/rollout.ts) with a turn player that keeps
 * each turn's decision for the objective.
 * @throws whatever the environment or the language parts throw.
 */
export async function playTrajectory(
  nets: GrpoNetworks,
  services: GrpoActorServices,
  config: GrpoConfig,
  env: DialogueEnv,
  seed: Seed,
  envSeed: number,
  policySeed: number,
  greedy = false,
): Promise<Trajectory> {
  const out: Trajectory = {
    decisions: [],
    turns: [],
    success: false,
    endReason: null,
    traces: 0,
    predictorCalls: 0,
  };
  const policy = new GrpoPolicy('grpo', nets, services, config, greedy);
  const record = await runEpisode(env, policy, seed, {
    rngSeed: envSeed,
    policySeed,
    keepState: false,
    playTurn: async (obs, rng) => {
      const turn = await decideTurn(nets, services, config, obs, rng, greedy);
      const step = await env.step(turn.action);
      out.decisions.push(turn.decision);
      out.turns.push({
        obs,
        next: step.observation,
        label: turn.action.strategy,
        reply: turn.action.utterance,
        trace: turn.trace,
        path: turn.path,
        envReward: step.reward,
      });
      if (turn.trace) out.traces++;
      out.predictorCalls += turn.predictorCalls;
      return { action: turn.action, step };
    },
  });
  out.success = record.success;
  out.endReason = record.endReason;
  return out;
}

/** The trained heads as a {@link Policy} (for evaluation and the studies). */
export class GrpoPolicy implements Policy {
  /** ARG traces written and turns taken since construction. */
  traces = 0;
  turns = 0;
  constructor(
    readonly name: string,
    private readonly nets: GrpoNetworks,
    private readonly services: GrpoActorServices,
    private readonly config: GrpoConfig,
    private readonly greedy = false,
  ) {}
  async act(obs: Observation, rng: Rng): Promise<Action> {
    const turn = await decideTurn(this.nets, this.services, this.config, obs, rng, this.greedy);
    this.turns++;
    if (turn.trace) this.traces++;
    return turn.action;
  }
}
