/**
 * The Play page's worker: one template-mode {@link DialogueEnv} that the person drives as the actor, off the main
 * thread (the simulator's text rules load their language models here, not in the page). Exposed with Comlink:
 *
 *   const api = Comlink.wrap<PlayWorkerApi>(new Worker(new URL('./play.worker.ts', import.meta.url), { type: 'module' }));
 *   const turn = await api.step({ task: 'p4g', seedId }, { strategy: 'Logical appeal', utterance: '…' });
 *   const next = await api.step(turn.checkpoint, { strategy: '', utterance: '…' });
 *   const wordings = await api.realize(turn.checkpoint, 'Logical appeal', 3);
 *
 * Every call takes where to continue from — a bundled seed (a fresh episode, the seed's own random seed, as
 * `npm run simulate` plays it) or a checkpoint — so undo and branches are a matter of which one the page passes
 * (the environment resets or restores first). The page starts this worker on the person's first action, so that
 * opening Play fetches no simulator code. The simulator receives the utterance text only: the strategy
 * label goes to the dialogue history (the actor's own record), never to the simulator (src/env/env.ts).
 */
import * as Comlink from 'comlink';
import {
  TemplateRealizer,
  DEFAULT_LOOKAHEAD,
  lookahead,
  predictedValue,
  TemplateArgActor,
  TemplateReversePredictor,
  type ArgTrace,
  type PredictedUserState,
} from '../../src/entries/policies';
import {
  DialogueEnv,
  createEnv,
  type EnvCheckpoint,
  type Observation,
  Rng,
  sellerAcceptablePrice,
  defaultSeeds,
  type SimTurn,
  type SimState,
  type CognitiveState,
  type Seed,
  type TaskId,
} from '../../src/entries/simulator';
import { UnknownSeedError } from '../app/errors';
import { sendErrorFields } from '../../src/worker';

/** What the page shows of the simulated user's mind after a turn (or at the start). */
export interface MindState {
  cognitive: CognitiveState;
  /** CraigslistBargain: the seller's acceptable price now (currency units); null for other tasks. */
  acceptablePrice: number | null;
  /** CraigslistBargain: the seller's last counter-offer; P4G: the committed amount (USD); else null. */
  lastUserPrice: number | null;
}

/** A bundled seed to start a fresh episode from, or `seed` itself (e.g. of a seed set loaded on the Data page). */
export interface SeedRef {
  task: TaskId;
  seedId: string;
  seed?: Seed;
}

/** Where a call continues from: a bundled seed (a fresh episode) or a checkpoint. */
export type From = SeedRef | EnvCheckpoint;

/** One played turn, with everything the "reveal the user's mind" panel needs. */
export interface PlayTurn {
  strategy: string;
  utterance: string;
  userUtterance: string;
  sim: SimTurn;
  before: MindState;
  after: MindState;
  reward: number;
  terminated: boolean;
  truncated: boolean;
  endReason: string | null;
  /** At the end of the episode: the judge's terminal utility in [0, 1] and success. */
  terminal: { utility: number; success: boolean } | null;
  /** The environment's corrections to the action (e.g. an utterance cut to the length limit). */
  warnings: string[];
  /** State after this turn: continue (or branch) from here. */
  checkpoint: EnvCheckpoint;
  observation: Observation;
}

const envs = new Map<TaskId, DialogueEnv>();
const envOf = (task: TaskId) => {
  let env = envs.get(task);
  // Frozen states: this worker hands each turn's state to the page.
  if (!env) envs.set(task, (env = createEnv(task, { freezeStates: true })));
  return env;
};
const realizer = new TemplateRealizer();
const argActor = new TemplateArgActor();
const predictor = new TemplateReversePredictor();

/** The ARG actor's reasoning at a point of the dialogue and its prediction of the user after a reply. */
export interface Appraisal {
  /** EmoLLM's Appraisal Reasoning Graph for the next turn (facts, needs, appraisal, emotion, strategy). */
  trace: ArgTrace;
  /** The reply the ARG actor itself would send. */
  suggestion: string;
  /** The reply the prediction is about: the person's draft, or the suggestion when the draft is empty. */
  reply: string;
  /** Reverse-perspective predictions ŝ⁽¹⁾…ŝ⁽ⁿ⁾ of the user after `reply` (n = DEFAULT_LOOKAHEAD). */
  path: PredictedUserState[];
  /** Value of the last prediction in [0, 1] (src/appraisal/lookahead.ts `predictedValue`). */
  value: number;
}

function mindOf(state: SimState): MindState {
  return {
    cognitive: structuredClone(state.cognitive),
    acceptablePrice: state.task === 'cb' ? sellerAcceptablePrice(state) : null,
    lastUserPrice: state.lastUserPrice,
  };
}

/** The bundled seed `seedId` of `task`, or its first seed for ''. */
function seedOf(task: TaskId, seedId: string): Seed {
  const seeds = defaultSeeds(task);
  const seed = seedId === '' ? seeds[0] : seeds.find((s) => s.id === seedId);
  if (!seed) throw new UnknownSeedError(`no bundled ${task} seed "${seedId}"`);
  return seed;
}

/** The environment set to `from` (reset to the seed, or restored), with its observation and state. */
function resume(from: From): { env: DialogueEnv; observation: Observation; state: SimState } {
  if ('version' in from) {
    const env = envOf(from.seed.task);
    return { env, observation: env.restore(from).observation, state: from.sim };
  }
  const env = envOf(from.task);
  const { observation, info } = env.reset({ seed: from.seed ?? seedOf(from.task, from.seedId) });
  return { env, observation, state: info.state };
}

const api = {
  /** Loads the simulator of `task` (called while the person reads, so that the first Send answers at once). */
  async warm(task: TaskId): Promise<true> {
    envOf(task);
    return true;
  },
  /**
   * Plays one actor turn from `from`. `strategy` is '' for an unlabelled utterance; it goes to the actor's
   * history only.
   * @throws UnknownSeedError for a seed id the task does not bundle; StateUpdateRejectedError (ENV_STATE_INVALID) when the episode at `from`
   *   has ended; TypeError for an empty utterance.
   */
  async step(from: From, action: { strategy: string; utterance: string }): Promise<PlayTurn> {
    const { env, state } = resume(from);
    const before = mindOf(state);
    const step = await env.step({ strategy: action.strategy, utterance: action.utterance });
    return {
      strategy: action.strategy,
      utterance: action.utterance,
      userUtterance: step.info.sim.userUtterance,
      sim: step.info.sim,
      before,
      after: mindOf(step.info.state),
      reward: step.reward,
      terminated: step.terminated,
      truncated: step.truncated,
      endReason: step.info.endReason,
      terminal: step.info.terminal
        ? { utility: step.info.terminal.utility, success: step.info.terminal.success }
        : null,
      warnings: step.info.warnings ?? [],
      checkpoint: env.checkpoint(),
      observation: step.observation,
    };
  },
  /**
   * EmoLLM's ARG trace for the next turn at `from` and the reverse-perspective prediction of the user after
   * `draft` (template roles, src/appraisal/template.ts). Both read the actor's observation only — the dialogue
   * and public events — never the simulator's state: the prediction is the actor's own model of the user.
   * `strategy` ('' for the actor's own choice) fixes the trace's strategy label.
   * @throws UnknownSeedError for a seed id the task does not bundle.
   */
  async appraise(from: From, draft: string, strategy: string): Promise<Appraisal> {
    const { observation } = resume(from);
    const { trace, response } = await argActor.reason(observation, Rng.fromSeed(0), strategy || undefined);
    const reply = draft.trim() === '' ? response : draft;
    const path = await lookahead(predictor, observation, reply, DEFAULT_LOOKAHEAD);
    return {
      trace,
      suggestion: response,
      reply,
      path,
      value: predictedValue(path.at(-1) as PredictedUserState),
    };
  },
  /** Up to `n` template wordings of `strategy` for the actor's observation at `from` (src/agents/realizer). */
  async realize(from: From, strategy: string, n: number): Promise<string[]> {
    const { observation } = resume(from);
    return realizer.realize(observation, strategy, n, Rng.fromSeed(0));
  },
};

/** The worker's API, for `Comlink.wrap<PlayWorkerApi>`. */
export type PlayWorkerApi = typeof api;

sendErrorFields();
Comlink.expose(api);
