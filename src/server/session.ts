/**
 * One environment session of the server: a `DialogueEnv` (src/env, the same environment the CLI and the browser
 * use) with the identity of its episode. Sessions are keyed as every job of the library keys its episodes
 * (src/seeding): the simulator's stream seed is `caseStreams({ rngSeed, task, caseId, randomSeed, repeat }).simSeed`,
 * so a session reset with the same key and stepped with the same actions plays the episode `simulate` played.
 * The client is the actor: sessions never run a policy.
 *
 * Role boundary: in the `policy` scope nothing of the simulator's hidden state leaves the session (observations
 * carry the actor's view, the dialogue and public events; metadata the judge's verdicts, which read text and
 * public events only). The `critic` scope adds the simulator's state, and exists only when the server allows it.
 */
import {
  DialogueEnv,
  type EnvCheckpoint,
  type Observation,
  type Protocol,
  type StepResult,
} from '../env/env';
import { createEnv, type EnvSpec } from '../env/factory';
import { caseStreams, seedSlot } from '../seeding';
import { SIMULATOR_VERSION } from '../sim/version';
import type { Seed, TaskId } from '../tasks/seed';
import { getTask } from '../tasks/registry';
import { normalizeLabel } from '../tasks/labels';

import type { ResetRequest, Scope, WireAction, WireState } from './protocol';
import { seal, unseal } from './seal';
import { InputError, ServerProtocolError } from '../errors';

/** The seeds a server offers for one task name (a task or an EmoLLM setting). */
export interface TaskEntry {
  /** The entry's name, what a reset's `task` names: the task (`esconv`), or the seed set served (`emollm-ed`). */
  name: string;
  /** The Cog-Sim task played. */
  family: TaskId;
  /** The task's named seed set served (src/tasks/seed-sets.ts), if any. */
  seedSet?: string;
  seeds: Seed[];
  /** Horizon in actor turns; undefined: the protocol's default (as `simulate` decides it). */
  horizon?: number;
}

/** What every session of a server shares. */
export interface SessionContext {
  /** Task entries by name; the first is the default. */
  tasks: ReadonlyMap<string, TaskEntry>;
  /** Default reward protocol. */
  protocol: Protocol;
  /**
   * The simulator's language roles, the judge of one judgment and its repeat count: `resolveRoles(…).env`
   * (src/roles), what every job builds its environments from with `createEnv`.
   */
  env: Required<Pick<EnvSpec, 'roles' | 'judge' | 'judgeRepeats'>>;
  routeSampling?: 'stochastic' | 'deterministic';
  /** Checkpoint sealing key, shared by the server's processes. */
  sealKey: Buffer;
}

/** The OpenEnv reply of reset/step: observation (with metadata), reward, done. */
export interface WireStep {
  observation: Observation & { userUtterance: string | null; metadata: Record<string, unknown> };
  reward: number | null;
  done: boolean;
}

/** An episode's identity, carried in checkpoint tokens. */
interface EpisodeMeta {
  task: string;
  protocol: Protocol;
  seedId: string;
  repeat: number;
  rngSeed: number;
  episodeId: string | null;
  stepCount: number;
  lastUser: string | null;
}

interface SealedCheckpoint {
  v: 1;
  simulatorVersion: string;
  meta: EpisodeMeta;
  env: EnvCheckpoint;
}

/** One session: reset / step / state / checkpoint / restore over a `DialogueEnv`. */
export class Session {
  private env: DialogueEnv | null = null;
  private meta: EpisodeMeta | null = null;
  private done = false;
  /** Environments by task and protocol, made on first use (a session may switch task between episodes). */
  private readonly envs = new Map<string, DialogueEnv>();

  constructor(
    private readonly ctx: SessionContext,
    /** `policy` or `critic` (the caller checks that the server allows the latter). */
    readonly scope: Scope,
  ) {}

  /** Whether an episode is running (reset and not done). */
  get active(): boolean {
    return this.env !== null && !this.done;
  }

  /**
   * Starts an episode from its key, or from a checkpoint token (a fork).
   * @throws ServerProtocolError (UNKNOWN_SEED) for a task the server does not serve or an unknown seed id; ServerProtocolError (CHECKPOINT_INVALID).
   */
  reset(req: ResetRequest): WireStep {
    if (req.checkpoint !== undefined) return this.restore(req.checkpoint);
    const entry = this.entry(req.task);
    const protocol = req.protocol ?? this.ctx.protocol;
    let seed: Seed;
    let repeat: number;
    if (req.index !== undefined) {
      const slot = seedSlot(req.index, entry.seeds.length);
      seed = entry.seeds[slot.seedIndex] as Seed;
      repeat = slot.repeat;
    } else {
      const found =
        req.seed_id === undefined ? entry.seeds[0] : entry.seeds.find((s) => s.id === req.seed_id);
      if (found === undefined)
        throw new ServerProtocolError(
          'UNKNOWN_SEED',
          `no seed "${String(req.seed_id)}" for ${entry.name} (${entry.seeds.length} seeds, e.g. ${entry.seeds
            .slice(0, 3)
            .map((s) => s.id)
            .join(', ')})`,
        );
      seed = found;
      repeat = req.repeat ?? 0;
    }
    const rngSeed = req.seed ?? 0;
    const { simSeed } = caseStreams({
      rngSeed,
      task: entry.family,
      caseId: seed.id,
      randomSeed: seed.randomSeed,
      repeat,
    });
    const env = this.envFor(entry, protocol);
    const { observation } = env.reset({ seed, rngSeed: simSeed });
    this.env = env;
    this.done = false;
    this.meta = {
      task: entry.name,
      protocol,
      seedId: seed.id,
      repeat,
      rngSeed,
      episodeId: req.episode_id ?? null,
      stepCount: 0,
      lastUser: null,
    };
    return this.reply(observation, null, false, { terminated: false, truncated: false, endReason: null });
  }

  /**
   * Plays one actor turn. The action's strategy is one of the task's labels (`getTask(task).strategies`; case,
   * spaces, `-` and `_` aside, stored as the task spells it) or empty (no label).
   * @throws ServerProtocolError (SESSION_ERROR) before reset or after the end; InputError (ENV_ACTION_INVALID) for a
   *   strategy the task lacks (the message lists the task's labels) or an empty utterance; errors of language roles.
   */
  async step(action: WireAction): Promise<WireStep> {
    const env = this.env;
    const meta = this.meta;
    if (env === null || meta === null)
      throw new ServerProtocolError('SESSION_ERROR', 'step before reset: send reset first');
    if (this.done)
      throw new ServerProtocolError(
        'SESSION_ERROR',
        'the episode has ended: send reset (or restore a checkpoint)',
      );
    const strategy = taskStrategy(this.ctx.tasks.get(meta.task), action.strategy);
    const step: StepResult = await env.step({ strategy, utterance: action.utterance });
    meta.stepCount += 1;
    meta.lastUser = step.info.sim.userUtterance;
    this.done = step.terminated || step.truncated;
    const extra: Record<string, unknown> = {
      terminated: step.terminated,
      truncated: step.truncated,
      endReason: step.info.endReason,
    };
    if (step.info.turnJudgment) extra.turnJudgment = step.info.turnJudgment;
    if (step.info.terminal) extra.terminal = step.info.terminal;
    if (step.info.warnings) extra.warnings = step.info.warnings;
    if (this.scope === 'critic') extra.critic = { state: step.info.state, sim: step.info.sim };
    return this.reply(step.observation, step.reward, this.done, extra);
  }

  /** OpenEnv's state: episode id and step count, the episode key, and (critic scope) the simulator's state. */
  state(): WireState {
    const meta = this.meta;
    const out: WireState = {
      episode_id: meta?.episodeId ?? null,
      step_count: meta?.stepCount ?? 0,
      task: meta?.task ?? null,
      seed_id: meta?.seedId ?? null,
      repeat: meta?.repeat ?? null,
      seed: meta?.rngSeed ?? null,
      protocol: meta?.protocol ?? this.ctx.protocol,
      done: this.done,
      scope: this.scope,
      simulator_version: SIMULATOR_VERSION,
    };
    if (this.scope === 'critic' && this.env !== null) out.sim_state = this.env.checkpoint().sim;
    return out;
  }

  /** A sealed token of the whole episode state. @throws ServerProtocolError (SESSION_ERROR) before reset. */
  checkpoint(): { checkpoint: string; step_count: number } {
    if (this.env === null || this.meta === null)
      throw new ServerProtocolError('SESSION_ERROR', 'checkpoint before reset: send reset first');
    const sealed: SealedCheckpoint = {
      v: 1,
      simulatorVersion: SIMULATOR_VERSION,
      meta: { ...this.meta },
      env: this.env.checkpoint(),
    };
    return { checkpoint: seal(this.ctx.sealKey, sealed), step_count: this.meta.stepCount };
  }

  /**
   * Continues from a token (this session's or another's: a fork).
   * @throws ServerProtocolError (CHECKPOINT_INVALID) for a token of another server, simulator version, or a task not served.
   */
  restore(token: string): WireStep {
    const sealed = unseal(this.ctx.sealKey, token) as SealedCheckpoint;
    if (sealed.v !== 1 || sealed.simulatorVersion !== SIMULATOR_VERSION)
      throw new ServerProtocolError('CHECKPOINT_INVALID', 'checkpoint token of another simulator version');
    const entry = this.ctx.tasks.get(sealed.meta.task);
    if (entry === undefined)
      throw new ServerProtocolError(
        'CHECKPOINT_INVALID',
        `checkpoint token of task ${sealed.meta.task}, not served here`,
      );
    const env = this.envFor(entry, sealed.meta.protocol);
    const { observation } = env.restore(sealed.env);
    this.env = env;
    this.meta = { ...sealed.meta };
    this.done = sealed.env.done;
    // A finished episode's end as the environment decided it (a PPDPP success on the horizon turn reads as cut).
    const ended = sealed.env.sim.ended;
    const truncated = this.done && (ended === 'horizon' || ended === 'stale');
    return this.reply(observation, null, this.done, {
      terminated: this.done && !truncated,
      truncated,
      endReason: ended,
      restored: true,
    });
  }

  private entry(task: string | undefined): TaskEntry {
    const name = task ?? (this.ctx.tasks.keys().next().value as string);
    const entry = this.ctx.tasks.get(name);
    if (entry === undefined)
      throw new ServerProtocolError(
        'UNKNOWN_SEED',
        `task ${name} is not served here; served: ${[...this.ctx.tasks.values()]
          .map((e) => (e.seedSet !== undefined ? `${e.name} (a seed set of ${e.family})` : e.name))
          .join(', ')}`,
      );
    return entry;
  }

  private envFor(entry: TaskEntry, protocol: Protocol): DialogueEnv {
    const key = `${entry.name}|${protocol}`;
    let env = this.envs.get(key);
    if (env === undefined) {
      // As the simulate job builds it (src/jobs/simulate.ts): states are serialised, never mutated, here.
      env = createEnv(entry.family, {
        ...this.ctx.env,
        protocol,
        ...(this.ctx.routeSampling ? { routeSampling: this.ctx.routeSampling } : {}),
        ...(entry.horizon !== undefined ? { horizon: entry.horizon } : {}),
      });
      this.envs.set(key, env);
    }
    return env;
  }

  private reply(
    observation: Observation,
    reward: number | null,
    done: boolean,
    extra: Record<string, unknown>,
  ): WireStep {
    const meta = this.meta as EpisodeMeta;
    return {
      observation: {
        ...observation,
        userUtterance: meta.lastUser,
        metadata: { episode_id: meta.episodeId, step_count: meta.stepCount, ...extra },
      },
      reward,
      done,
    };
  }
}

/**
 * `label` as the task of `entry` spells it (empty stays empty: no label). Labels are compared as the dataset loaders
 * compare them (`normalizeLabel`: case, spaces, `-` and `_` aside).
 * @throws InputError (ENV_ACTION_INVALID) for a label the task lacks, naming the task's labels.
 */
function taskStrategy(entry: TaskEntry | undefined, label: string): string {
  if (label === '' || entry === undefined) return label;
  const labels = getTask(entry.family).strategies;
  const key = normalizeLabel(label);
  const found = labels.find((l) => normalizeLabel(l) === key);
  if (found !== undefined) return found;
  const task = entry.name === entry.family ? entry.family : `${entry.name} (${entry.family})`;
  throw new InputError(
    'ENV_ACTION_INVALID',
    `unknown strategy "${label}" for ${task}: use one of ${labels.join(', ')}, or leave it empty for no label`,
    { expected: `one of ${labels.join(', ')} or empty`, got: label },
  );
}
