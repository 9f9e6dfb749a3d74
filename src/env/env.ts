/**
 * The dialogue environment in Gymnasium's terms: `reset` → `{ observation, info }`, `step(action)` →
 * `{ observation, reward, terminated, truncated, info }` (asynchronous, since language roles may call an LLM),
 * plus `checkpoint()` / `restore()` of the complete state (dialogue, profile, cognitive state, events,
 * termination status, remaining horizon and random stream — paper §A.4).
 *
 * Role boundaries: the observation holds only the actor's view, the dialogue (with the actor's own labels) and
 * public events; the simulator receives the utterance text only; the judge reads text and public events.
 * `info.state` exposes the simulator's state for analysis and for critics that train on it (CSTPO's training
 * state X) — a policy must not read it.
 */

import { InputError, CheckpointError, StateUpdateRejectedError } from '../errors';
import { deepFreeze } from '../sim/freeze';
import { CogSim, initialSimState, type CogSimOptions, type SimTurn } from '../sim/simulator';
import type { SimRoles } from '../sim/roles';
import { templateSimRoles } from '../sim/template';
import type { EndReason, SimState, TaskEvent } from '../sim/types';
import { getTask } from '../tasks';
import { SeedSchema, type ActorView, type Seed, type TaskId, type Turn } from '../tasks/seed';
import type { TaskSpec } from '../tasks/types';
import {
  TemplateJudge,
  repeatedJudge,
  type Judge,
  type JudgeInput,
  type TerminalJudgment,
  type TurnJudgment,
} from './judge';

/** Reward protocol: CSTPO (terminal utility, γ = 1) or PPDPP (per-turn critic reward). */
export type Protocol = 'cstpo' | 'ppdpp';

/**
 * The strategy of an action that plans none (the Standard baseline records it), beside `''` (no label, as the
 * environment server and the browser app send). Not a task label.
 */
export const NO_STRATEGY = 'none';

/**
 * An actor action: its strategy and the utterance realising it. The strategy is one of the task's labels
 * (`TaskSpec.strategies`, spelt as the task spells it), `''` or {@link NO_STRATEGY} for none, or — with
 * `freeForm` — a strategy in the policy's own words (open-ended baselines, free-form LLM roles); `step` refuses any
 * other. The label only goes to the actor's history: the simulator and the judges never read it.
 */
export interface Action {
  strategy: string;
  utterance: string;
  /** The strategy is free text, not a task label (not checked against the task's labels). */
  freeForm?: boolean;
}

/** What the actor may see. */
export interface Observation {
  task: TaskId;
  seedId: string;
  actorView: ActorView;
  /** The dialogue so far, actor turns with their strategy labels. */
  history: Turn[];
  /** Public task events so far (offers, commitments, …). */
  events: TaskEvent[];
  /** Actor turns taken, and left before the horizon. */
  turn: number;
  remaining: number;
}

/** Per-step information, for logging and analysis. */
export interface StepInfo {
  sim: SimTurn;
  /** The simulator's state after the step (latent: not for policies). */
  state: SimState;
  endReason: EndReason | null;
  /** PPDPP protocol: this turn's critic judgment. */
  turnJudgment?: TurnJudgment;
  /** At the end of an episode: the terminal judgment. */
  terminal?: TerminalJudgment;
  /** Problems with the action that the environment corrected (e.g. an utterance cut to the length limit). */
  warnings?: string[];
  /** Present when the actor's utterance was cut to {@link MAX_UTTERANCE_CHARS}: its length before and after. */
  utteranceCut?: { from: number; to: number };
}

export interface StepResult {
  observation: Observation;
  /** CSTPO: 0 until the last step, then the terminal utility in [0, 1]. PPDPP: the per-turn reward in [−1, 1]. */
  reward: number;
  /** The dialogue ended inside the task: the user ended or quit, a deal, the actor quit, PPDPP success. */
  terminated: boolean;
  /** Cut from outside: horizon reached or the staleness check. */
  truncated: boolean;
  info: StepInfo;
}

/** A complete, JSON-safe snapshot of an environment mid-episode. */
export interface EnvCheckpoint {
  version: 1;
  seed: Seed;
  sim: SimState;
  history: Turn[];
  protocol: Protocol;
  done: boolean;
}

export interface DialogueEnvOptions {
  /** Simulator roles (default: template mode). */
  roles?: SimRoles;
  /** Judge (default: the template judge repeated 3 times). */
  judge?: Judge;
  protocol?: Protocol;
  /** Horizon in actor turns (default: the task's, 30 for CSTPO; 8 or 10 for PPDPP). */
  horizon?: number;
  routeSampling?: CogSimOptions['routeSampling'];
  /**
   * Deep-freeze the simulator states and turn records handed out in `info` (default true: mutating them throws
   * instead of changing the episode). Runners that never hand `info` to other code may turn it off for speed
   * (about a tenth of a template episode; see `CogSimOptions.freeze`): every job, trainer and check of this
   * library does, and tests/unit/env/immutability.test.ts runs them with freezing forced on, so that code of
   * theirs that mutates a state fails a test instead of changing an episode.
   */
  freezeStates?: boolean;
}

/**
 * Longest actor utterance the environment passes on, in UTF-16 code units (about 350 English words; real
 * counselling, persuasion and bargaining turns are far shorter). A longer utterance is cut — not rejected, so an
 * episode with a rambling LLM actor goes on — at the last word boundary within the limit (or at the limit when
 * there is none), before the simulator, the judges and the history see it; `info.warnings` says so and
 * `info.utteranceCut` gives the lengths (the rollout counts them in the episode record's `cutUtterances`). This
 * bounds the simulator's per-turn work whatever the actor produces.
 */
export const MAX_UTTERANCE_CHARS = 2000;

/**
 * `text` cut to at most `max` code units at the last whitespace within the limit (if that keeps at least
 * half of it), never splitting a surrogate pair; `text` itself when short enough.
 */
export function cutUtterance(text: string, max = MAX_UTTERANCE_CHARS): string {
  if (text.length <= max) return text;
  let end = max;
  const space = text.slice(0, max + 1).search(/\s\S*$/);
  if (space >= max / 2) end = space;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end).trimEnd();
}

/**
 * A deterministic judge (the template judge: rules over the text, no random stream) asked again with the same
 * input object gives the answer it gave the first time, without recomputing it: the repeated judgments of the
 * protocol (`repeatedJudge`) cost one. Results are shared between the repeats, which only read them.
 */
class AnsweredOncePerInput implements Judge {
  private terminalOf: { input: JudgeInput; answer: Promise<TerminalJudgment> } | null = null;
  private turnOf: { input: JudgeInput; answer: Promise<TurnJudgment> } | null = null;

  constructor(private readonly inner: Judge) {}

  terminal(input: JudgeInput): Promise<TerminalJudgment> {
    if (this.terminalOf?.input !== input) this.terminalOf = { input, answer: this.inner.terminal(input) };
    return this.terminalOf.answer;
  }

  turn(input: JudgeInput): Promise<TurnJudgment> {
    if (this.turnOf?.input !== input) this.turnOf = { input, answer: this.inner.turn(input) };
    return this.turnOf.answer;
  }
}

/**
 * Seeds already validated, each with its validated copy (validation and copying are the costliest part of a reset;
 * initial states share the copy's profile, private view and cognitive state): one cache for environments that
 * freeze their states, whose copies are deep-frozen, and one for those that do not. V8 reads and spreads frozen
 * objects on a slower path, so an unfrozen run that shared frozen seed parts was 12–23% slower; its copies keep only
 * their prefix turns frozen, since observations hand those to the policy. Shared by every environment, since jobs
 * make a new environment per run over the same seeds, and keyed weakly, so an entry goes with its seed. Seeds are
 * treated as immutable values: a seed object changed after its first `reset` is not validated again.
 */
const validatedSeeds = { frozen: new WeakMap<Seed, Seed>(), plain: new WeakMap<Seed, Seed>() };

/** The validated copy of `seed` for an environment that does (`freeze`) or does not freeze its states. */
function validatedSeed(seed: Seed, freeze: boolean): Seed {
  const cache = freeze ? validatedSeeds.frozen : validatedSeeds.plain;
  let valid = cache.get(seed);
  if (valid === undefined) {
    valid = structuredClone(SeedSchema.parse(seed));
    if (freeze) deepFreeze(valid);
    else valid.prefix.forEach((turn) => Object.freeze(turn));
    cache.set(seed, valid).set(valid, valid);
  }
  return valid;
}

export class DialogueEnv {
  readonly task: TaskSpec;
  readonly protocol: Protocol;
  readonly horizon: number;
  private readonly sim: CogSim;
  private readonly judge: Judge;
  private current: EnvCheckpoint | null = null;
  /**
   * The current dialogue as the simulator and the judges read it: `current.history` without strategy labels,
   * turn for turn (user turns are the same objects). Both grow in place by one actor and one user turn per step
   * (they are never handed out: observations copy them, checkpoints clone them).
   */
  private textHistory: Turn[] = [];
  /**
   * The seed's actor view as a plain (unfrozen) object, which observations copy: a spread of the frozen seed's
   * view takes V8's slow path, and observations are made on every step.
   */
  private actorView: ActorView | null = null;

  constructor(task: TaskId, options: DialogueEnvOptions = {}) {
    this.task = getTask(task);
    this.protocol = options.protocol ?? 'cstpo';
    this.horizon =
      options.horizon ?? (this.protocol === 'cstpo' ? this.task.horizon : this.task.ppdppHorizon);
    this.sim = new CogSim(this.task, options.roles ?? templateSimRoles(), {
      routeSampling: options.routeSampling,
      freeze: options.freezeStates ?? true,
    });
    this.judge = options.judge ?? repeatedJudge(new AnsweredOncePerInput(new TemplateJudge()), 3);
  }

  /**
   * Start an episode from a dialogue seed. `rngSeed` overrides the seed's own random seed.
   * @throws ZodError when the seed is invalid; Error when it belongs to another task.
   */
  reset({ seed, rngSeed }: { seed: Seed; rngSeed?: number }): {
    observation: Observation;
    info: { state: SimState };
  } {
    const valid = validatedSeed(seed, this.sim.freeze);
    if (valid.task !== this.task.id)
      throw new InputError(
        'ENV_SEED_MISMATCH',
        `seed ${valid.id} is for task ${valid.task}, not ${this.task.id}`,
      );
    const initial = initialSimState(valid, this.horizon, rngSeed ?? valid.randomSeed, { share: true });
    const sim = this.sim.freeze ? deepFreeze(initial) : initial;
    this.current = {
      version: 1,
      seed: valid,
      sim,
      // Prefix turns are frozen with the seed, so the history can share them.
      history: [...valid.prefix],
      protocol: this.protocol,
      done: false,
    };
    this.textHistory = withoutLabels(this.current.history);
    this.actorView = { ...valid.actorView };
    // States are immutable values (frozen with `freezeStates`), so it is handed out without a copy.
    return { observation: this.observe(), info: { state: sim } };
  }

  /**
   * Play one actor turn. A refused action leaves the environment as it was.
   * @throws StateUpdateRejectedError (ENV_STATE_INVALID) before `reset` or after the episode ended; InputError
   *   (ENV_ACTION_INVALID) for an empty utterance or a strategy that is not one of the task's labels, `''`,
   *   {@link NO_STRATEGY} or a `freeForm` one (the message names it and lists the task's labels); errors of LLM roles propagate.
   */
  async step(action: Action): Promise<StepResult> {
    const cur = this.current;
    if (!cur) throw new StateUpdateRejectedError('ENV_STATE_INVALID', 'step() called before reset()');
    if (cur.done)
      throw new StateUpdateRejectedError(
        'ENV_STATE_INVALID',
        'step() called after the episode ended; call reset()',
      );
    if (typeof action.utterance !== 'string' || action.utterance.trim() === '') {
      throw new InputError('ENV_ACTION_INVALID', 'action.utterance must be a non-empty string');
    }
    this.checkStrategy(action);
    const utterance = cutUtterance(action.utterance);
    const { state, turn } = await this.sim.step(cur.sim, this.textHistory, utterance);
    const actorTurn: Turn = Object.freeze({ speaker: 'actor', text: utterance, strategy: action.strategy });
    const actorText: Turn = Object.freeze({ speaker: 'actor', text: utterance });
    const userTurn: Turn = Object.freeze({ speaker: 'user', text: turn.userUtterance });
    const info: StepInfo = { sim: turn, state, endReason: state.ended };
    if (utterance !== action.utterance) {
      const from = action.utterance.length;
      info.warnings = [
        `utterance of ${from} characters cut to ${utterance.length} (MAX_UTTERANCE_CHARS = ${MAX_UTTERANCE_CHARS})`,
      ];
      info.utteranceCut = { from, to: utterance.length };
    }
    let reward = 0;
    let ppdppSuccess = false;
    // The judges read the dialogue with this turn, built only when one runs.
    if (this.protocol === 'ppdpp') {
      info.turnJudgment = await this.judge.turn(this.judgeInput(cur.seed, [actorText, userTurn], state));
      reward = info.turnJudgment.reward;
      ppdppSuccess = info.turnJudgment.success;
    }
    const truncated = !ppdppSuccess && (state.ended === 'horizon' || state.ended === 'stale');
    const terminated = ppdppSuccess || (state.ended !== null && !truncated);
    if (terminated || truncated) {
      info.terminal = await this.judge.terminal(this.judgeInput(cur.seed, [actorText, userTurn], state));
      if (this.protocol === 'cstpo') reward = info.terminal.utility;
    }
    // Committed only now: an error of a language role or judge above leaves the environment as it was.
    cur.history.push(actorTurn, userTurn);
    this.textHistory.push(actorText, userTurn);
    cur.sim = state;
    cur.done = terminated || truncated;
    return { observation: this.observe(), reward, terminated, truncated, info };
  }

  /** A deep copy of the complete current state. @throws StateUpdateRejectedError (ENV_STATE_INVALID) before `reset`. */
  checkpoint(): EnvCheckpoint {
    if (!this.current)
      throw new StateUpdateRejectedError('ENV_STATE_INVALID', 'checkpoint() called before reset()');
    return structuredClone(this.current);
  }

  /**
   * Continue from a checkpoint (deep-copied; the checkpoint stays reusable).
   * @throws CheckpointError (ENV_CHECKPOINT_INVALID) for another checkpoint version, task or protocol.
   */
  restore(checkpoint: EnvCheckpoint): { observation: Observation } {
    if (checkpoint.version !== 1)
      throw new CheckpointError(
        'ENV_CHECKPOINT_INVALID',
        `unsupported checkpoint version ${String(checkpoint.version)}`,
      );
    if (checkpoint.seed.task !== this.task.id)
      throw new CheckpointError('ENV_CHECKPOINT_INVALID', `checkpoint is for task ${checkpoint.seed.task}`);
    if (checkpoint.protocol !== this.protocol)
      throw new CheckpointError('ENV_CHECKPOINT_INVALID', `checkpoint uses protocol ${checkpoint.protocol}`);
    this.current = structuredClone(checkpoint);
    this.textHistory = withoutLabels(this.current.history);
    this.actorView = { ...this.current.seed.actorView };
    return { observation: this.observe() };
  }

  /**
   * @throws InputError (ENV_ACTION_INVALID) unless `action.strategy` is one of the task's labels, `''` or
   *   {@link NO_STRATEGY} (none), or any string when `action.freeForm` is set.
   */
  private checkStrategy(action: Action): void {
    const { strategy } = action;
    const labels = this.task.strategies;
    if (typeof strategy === 'string') {
      if (action.freeForm === true || strategy === '' || strategy === NO_STRATEGY) return;
      if (labels.includes(strategy)) return;
    }
    const expected = `one of ${labels.join(', ')}; '' or '${NO_STRATEGY}' for none; any text with freeForm`;
    const shown =
      typeof strategy !== 'string'
        ? `of type ${strategy === null ? 'null' : typeof strategy}`
        : JSON.stringify(strategy.length > 100 ? `${strategy.slice(0, 100)}…` : strategy);
    throw new InputError(
      'ENV_ACTION_INVALID',
      `unknown strategy ${shown} for ${this.task.id}: use one of ${labels.join(', ')}; or '' (or ` +
        `'${NO_STRATEGY}') for no strategy, or set freeForm: true for a strategy in the policy's own words`,
      { expected, got: strategy },
    );
  }

  /**
   * The judge's input, built only when a judge runs (PPDPP: every turn; CSTPO: at the end): the dialogue so far
   * without labels followed by this step's `turns` (not yet committed to the history).
   */
  private judgeInput(seed: Seed, turns: readonly Turn[], state: SimState): JudgeInput {
    const transcript = [...this.textHistory, ...turns];
    return { task: this.task.id, transcript, events: state.events, actorView: seed.actorView };
  }

  private observe(): Observation {
    const cur = this.current as EnvCheckpoint;
    return {
      task: this.task.id,
      seedId: cur.seed.id,
      actorView: { ...(this.actorView as ActorView) },
      // Turns and events are frozen when created, so the arrays can share them.
      history: [...cur.history],
      events: cur.sim.events.map((e) => ({ ...e })),
      turn: cur.sim.turn,
      remaining: cur.sim.remaining,
    };
  }
}

/** Turns without their strategy labels (frozen; a turn without a label is kept as it is). */
function withoutLabels(history: readonly Turn[]): Turn[] {
  return history.map((t) =>
    t.strategy === undefined && Object.isFrozen(t) ? t : Object.freeze({ speaker: t.speaker, text: t.text }),
  );
}
