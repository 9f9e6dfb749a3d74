/**
 * Dose–response for the validity report: a ladder (`./ladder`) applied from one checkpoint per seed, with
 * deterministic routes; per level the mean of the task's outcome quantity (ESConv: the user's valence; P4G: the
 * donation intention; CB: the seller's acceptance — 1 on acceptance, 0 on quitting, else offer / counter-offer)
 * and the share of seeds on which it rises monotonically (never falls, ends above its start).
 *
 * Until the dose–response API of `src/eval/validation.ts` takes ladders (the sim-perception branch adds it), this
 * module runs the ladder itself; for the project's own four-level ladder it calls `doseResponse` there.
 */
import { doseResponse, type DoseResponseResult } from '../eval/validation';
import { DialogueEnv, type StepResult } from '../env/env';
import { goalIntentionStrength } from '../sim/simulator';
import type { Seed, TaskId } from '../tasks/seed';
import type { Ladder, LadderLevel } from './ladder';

/** The dose–response of one task in the report. */
export interface DoseRow {
  task: TaskId;
  /** `file` for a researcher's ladder, `default` for the project's. */
  ladder: 'file' | 'default';
  seeds: number;
  /** Per level, lowest first: the mean outcome quantity over seeds. */
  levelMeans: number[];
  /** Share of seeds on which the outcome rises monotonically, in [0, 1]. */
  monotoneShare: number;
}

function outcome(task: TaskId, step: StepResult): number {
  const state = step.info.state;
  if (task === 'esconv') return state.cognitive.affect.valence;
  if (task === 'p4g') return goalIntentionStrength(state);
  const events = step.info.sim.events;
  if (events.some((e) => e.type === 'accept')) return 1;
  if (events.some((e) => e.type === 'quit' && e.by === 'user')) return 0;
  const offer = events.find((e) => e.type === 'offer' && e.by === 'actor')?.price;
  const counter = events.find((e) => e.type === 'offer' && e.by === 'user')?.price;
  return offer === undefined || counter === undefined || counter <= 0 ? 0 : Math.min(1, offer / counter);
}

function utterance(text: string, level: LadderLevel, listPrice: number | undefined): string {
  if (level.priceFraction === undefined || listPrice === undefined) return text;
  return text.split('{price}').join(String(Math.round(level.priceFraction * listPrice)));
}

function monotone(xs: readonly number[]): boolean {
  for (let i = 1; i < xs.length; i++) if ((xs[i] as number) < (xs[i - 1] as number) - 1e-9) return false;
  return xs.length > 1 && (xs.at(-1) as number) > (xs[0] as number) + 1e-9;
}

/** Run a researcher's ladder on `seeds` (see the module comment). */
export async function ladderDose(task: TaskId, seeds: readonly Seed[], ladder: Ladder): Promise<DoseRow> {
  const env = new DialogueEnv(task, { routeSampling: 'deterministic' });
  const rows: number[][] = [];
  for (const seed of seeds) {
    env.reset({ seed });
    const checkpoint = env.checkpoint();
    const row: number[] = [];
    for (const level of ladder.levels) {
      let sum = 0;
      for (const text of level.utterances) {
        env.restore(checkpoint);
        sum += outcome(
          task,
          await env.step({ strategy: 'dose', utterance: utterance(text, level, seed.actorView.listPrice) }),
        );
      }
      row.push(sum / level.utterances.length);
    }
    rows.push(row);
  }
  return {
    task,
    ladder: 'file',
    seeds: rows.length,
    levelMeans: ladder.levels.map(
      (_, l) => rows.reduce((s, r) => s + (r[l] as number), 0) / Math.max(1, rows.length),
    ),
    monotoneShare: rows.filter(monotone).length / Math.max(1, rows.length),
  };
}

/** The project's own ladder through `doseResponse` (its level means and the per-seed monotone share). */
export async function defaultDose(task: TaskId, seeds: readonly Seed[]): Promise<DoseRow> {
  const r: DoseResponseResult = await doseResponse({ task, seeds, resamples: 200 });
  return {
    task,
    ladder: 'default',
    seeds: r.checkpoints,
    levelMeans: r.levelMeans,
    monotoneShare: r.monotonicity,
  };
}
