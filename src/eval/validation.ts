/**
 * Simulator validation by dose–response (CSTPO paper §5.1 and §E.3;
 * docs/architecture.md "Simulator validation"): from one checkpoint per seed, the simulator receives the
 * ordered levels of a dose ladder (src/eval/ladders.ts, several paraphrases each) with deterministic routes,
 * and a valid simulator's outcome quantity rises with the level. This is the one dose–response check of the
 * project: `validate-sim` and `evaluate --validate` both report it (src/eval/dose.ts).
 *
 * Any simulator can be run: it is given as SimRoles (Cog-Sim's template roles by default). Also here:
 * distinct-n of a set of texts, for the variety of the user's replies.
 */
import type { StepResult } from '../env/env';
import { createEnv } from '../env/factory';
import type { SimRoles } from '../sim/roles';
import { TASK_RULES } from '../sim/rules';
import type { Seed, TaskId } from '../tasks/seed';
import { getTask } from '../tasks/registry';
import { parsed } from '../text/features';

import { DEFAULT_LADDERS, levelUtterance, type DoseLadder } from './ladders';
import { InputError } from '../errors';

/** A simulator to validate: a name and a factory of its roles. */
export interface SimulatorUnderTest {
  name: string;
  roles: () => SimRoles;
}

/**
 * The task's outcome quantity after one step from a checkpoint, read from the simulator's state and the turn's
 * public events: ESConv — the user's valence in [-1, 1]; P4G — the donation intention's strength in [0, 4];
 * CB — the seller's acceptance in [0, 1]: 1 when it accepts the offer, 0 when it quits, otherwise the offer
 * divided by its counter-offer (how close the offer came), 0 when no offer was read.
 */
export function doseOutcome(task: TaskId, step: StepResult): number {
  const state = step.info.state;
  if (task === 'esconv') return state.cognitive.affect.valence;
  if (task === 'p4g')
    return state.cognitive.intentions.find((r) => r.id === TASK_RULES.p4g.goalIntention)?.strength ?? 0;
  const events = step.info.sim.events;
  if (events.some((e) => e.type === 'accept' && e.by === 'user')) return 1;
  if (events.some((e) => e.type === 'quit' && e.by === 'user')) return 0;
  const offer = events.find((e) => e.type === 'offer' && e.by === 'actor')?.price;
  const counter = events.find((e) => e.type === 'offer' && e.by === 'user')?.price;
  if (offer === undefined || counter === undefined || counter <= 0) return 0;
  return Math.min(1, Math.max(0, offer / counter));
}

/** Options of {@link ladderDoseResponse}. */
export interface LadderDoseOptions {
  task: TaskId;
  /** One checkpoint per seed: the state right after the seed's prefix. */
  seeds: readonly Seed[];
  /** Default: {@link DEFAULT_LADDERS}[task]. */
  ladder?: DoseLadder;
  /** Default: Cog-Sim with its template roles. */
  simulator?: SimulatorUnderTest;
}

/** Dose–response of a ladder (see {@link ladderDoseResponse}). */
export interface LadderDoseResult {
  task: TaskId;
  simulator: string;
  seeds: number;
  /** Per level (lowest first): the mean over seeds of the paraphrase-averaged outcome quantity. */
  levelMeans: number[];
  /**
   * Share of seeds on which the outcome is monotone: never falls from one level to the next (tolerance 1e-9) and
   * ends strictly above where it started. In [0, 1].
   */
  monotoneShare: number;
  /** Per seed id, the paraphrase-averaged outcome of each level. */
  perSeed: Record<string, number[]>;
}

/** Whether a sequence never falls (tolerance 1e-9) and ends strictly above its start. */
export function isMonotoneRise(xs: readonly number[]): boolean {
  if (xs.length < 2) return false;
  for (let i = 1; i < xs.length; i++) if ((xs[i] as number) < (xs[i - 1] as number) - 1e-9) return false;
  return (xs[xs.length - 1] as number) > (xs[0] as number) + 1e-9;
}

/**
 * Run a dose ladder (src/eval/ladders.ts) from one checkpoint per seed with deterministic routes: every
 * paraphrase of every level starts from the same restored checkpoint (dialogue, state, random stream), so the
 * outcomes differ only through the input. Reports the mean outcome quantity ({@link doseOutcome}) per level and
 * the share of seeds on which it rises monotonically.
 * @throws InputError (EVAL_INPUT_INVALID) without seeds, for a seed of another task, or for a CB seed without a list price.
 */
export async function ladderDoseResponse(options: LadderDoseOptions): Promise<LadderDoseResult> {
  const { task, seeds } = options;
  if (seeds.length === 0) throw new InputError('EVAL_INPUT_INVALID', 'ladderDoseResponse: no seeds');
  const bad = seeds.find((s) => s.task !== task);
  if (bad)
    throw new InputError(
      'EVAL_INPUT_INVALID',
      `ladderDoseResponse: seed "${bad.id}" is for ${bad.task}, not ${task}`,
    );
  const ladder = options.ladder ?? DEFAULT_LADDERS[task];
  const env = createEnv(task, {
    routeSampling: 'deterministic',
    ...(options.simulator ? { roles: options.simulator.roles() } : {}),
  });
  const perSeed: Record<string, number[]> = {};
  for (const seed of seeds) {
    const listPrice = seed.actorView.listPrice;
    if (getTask(task).capabilities.prices && listPrice === undefined)
      throw new InputError(
        'EVAL_INPUT_INVALID',
        `ladderDoseResponse: CB seed "${seed.id}" has no list price`,
      );
    env.reset({ seed });
    const checkpoint = env.checkpoint();
    perSeed[seed.id] = [];
    for (const level of ladder.levels) {
      let sum = 0;
      for (const text of level.utterances) {
        env.restore(checkpoint);
        const step = await env.step({ strategy: '', utterance: levelUtterance(text, level, listPrice) });
        sum += doseOutcome(task, step);
      }
      (perSeed[seed.id] as number[]).push(sum / level.utterances.length);
    }
  }
  const rows = Object.values(perSeed);
  return {
    task,
    simulator: options.simulator?.name ?? 'cog-sim',
    seeds: rows.length,
    levelMeans: ladder.levels.map((_, l) => rows.reduce((s, r) => s + (r[l] as number), 0) / rows.length),
    monotoneShare: rows.filter(isMonotoneRise).length / rows.length,
    perSeed,
  };
}

/**
 * distinct-n of a set of texts (Li et al. 2016): distinct word n-grams over all n-grams, in [0, 1] (0 without any
 * n-gram). Words are wink's lower-cased normal forms without punctuation.
 */
export function distinctN(texts: readonly string[], n: number): number {
  if (!Number.isInteger(n) || n < 1)
    throw new InputError('EVAL_INPUT_INVALID', `distinctN: n must be a positive integer, got ${n}`);
  const seen = new Set<string>();
  let total = 0;
  for (const text of texts) {
    const words = parsed(text)
      .tokens.filter((t) => t.pos !== 'PUNCT')
      .map((t) => t.normal);
    for (let i = 0; i + n <= words.length; i++) {
      seen.add(words.slice(i, i + n).join(' '));
      total++;
    }
  }
  return total === 0 ? 0 : seen.size / total;
}
