/**
 * Online construction (Principles paper §6, "Online Construction Setting"): while a policy is deployed, every
 * turn whose per-turn critic reward beats the previous one is written into the memory as a principle of origin
 * `online`, at once, so that later turns and episodes can retrieve it. There is no backtracking (a deployed
 * dialogue cannot be replayed), so failures teach nothing and no "rather than" is written.
 *
 * It is an environment: `OnlineConstructionEnv` is a {@link DialogueEnv} (protocol `ppdpp`) whose `step` also
 * writes the principle, so any rollout (`runEpisode`, `runEpisodes`) with any policy — typically a
 * {@link PrinciplesPlanner} over the same memory — constructs online.
 */

import {
  DialogueEnv,
  type Action,
  type DialogueEnvOptions,
  type EnvCheckpoint,
  type Observation,
  type StepResult,
} from '../env/env';
import type { SimState } from '../sim/types';
import type { Seed, TaskId } from '../tasks/seed';
import { BASELINE_REWARD } from './construct';
import type { PrincipleMemory } from './memory';
import { makePrinciple, type Principle } from './principle';
import type { PrincipleWriter } from './types';
import { InputError } from '../errors';

/** Options of {@link OnlineConstructionEnv}. */
export interface OnlineOptions {
  memory: PrincipleMemory;
  writer: PrincipleWriter;
  /** r_0 of each episode (default −0.5, the critic's "same"). */
  baselineReward?: number;
}

/** A PPDPP-protocol environment that writes a principle after every improving turn; see the module comment. */
export class OnlineConstructionEnv extends DialogueEnv {
  /** Principles written (and offered to the memory) since construction, in order. */
  readonly written: Principle[] = [];
  private previous = BASELINE_REWARD;
  private observation: Observation | null = null;
  private seedId = '';

  /** @throws InputError (MEMORY_CONSTRUCTION_INVALID) when `protocol` is not `ppdpp`; InputError (MEMORY_TASK_MISMATCH) for a memory of another task. */
  constructor(
    task: TaskId,
    private readonly online: OnlineOptions,
    options: DialogueEnvOptions = {},
  ) {
    if (options.protocol !== undefined && options.protocol !== 'ppdpp')
      throw new InputError(
        'MEMORY_CONSTRUCTION_INVALID',
        `online construction needs per-turn critic rewards: protocol ppdpp, not ${options.protocol}`,
      );
    super(task, { ...options, protocol: 'ppdpp' });
    if (online.memory.task !== task)
      throw new InputError(
        'MEMORY_TASK_MISMATCH',
        `memory ${online.memory.name} is for ${online.memory.task}, not ${task}`,
      );
  }

  override reset(args: { seed: Seed; rngSeed?: number }): {
    observation: Observation;
    info: { state: SimState };
  } {
    const result = super.reset(args);
    this.previous = this.online.baselineReward ?? BASELINE_REWARD;
    this.observation = result.observation;
    this.seedId = args.seed.id;
    return result;
  }

  /** Continues from a checkpoint; the previous reward stays the last one seen (online mode never backtracks). */
  override restore(checkpoint: EnvCheckpoint): { observation: Observation } {
    const result = super.restore(checkpoint);
    this.observation = result.observation;
    return result;
  }

  override async step(action: Action): Promise<StepResult> {
    const before = this.observation;
    const result = await super.step(action);
    if (before && result.reward > this.previous) {
      const success = {
        strategy: action.strategy,
        utterance: action.utterance,
        userUtterance: result.info.sim.userUtterance,
        reward: result.reward,
      };
      const draft = await this.online.writer.fromSuccess(
        { observation: before, rewardBefore: this.previous },
        success,
      );
      const principle = makePrinciple(draft, action.strategy, [], {
        task: this.task.id,
        seedId: this.seedId,
        turn: before.turn,
        origin: 'online',
        rewardBefore: this.previous,
        rewardAfter: result.reward,
        attempts: 0,
        utterance: action.utterance,
      });
      this.written.push(principle);
      await this.online.memory.add([principle]);
    }
    this.previous = result.reward;
    this.observation = result.observation;
    return result;
  }
}
