/**
 * Strategy prediction against human labels (Principles paper §4.1 and Table 2;
 * docs/architecture.md "Evaluation and statistics"): at each human-labelled actor turn of ESConv and
 * annotated P4G, the policy sees the dialogue up to that turn as its observation, and its first action's
 * strategy is compared with the human label — macro and weighted F1, and the entropy of the predicted labels.
 * Free-form strategies (open-ended baselines in LLM form) are mapped to the closest label first (appendix
 * D.1).
 */
import type { Policy } from '../agents/types';
import type { LabelMapper } from '../baselines/label-mapper';
import { NO_STRATEGY } from '../baselines/common';
import { hashKey32 } from '../data/hash';
import type { Observation } from '../env/env';
import { Rng } from '../rng';
import { getTask } from '../tasks';
import type { ActorView, Seed, TaskId, Turn } from '../tasks/seed';
import { unmappedStrategyError } from './errors';
import { classificationReport, strategyEntropy, type ClassificationReport } from '../stats/classification';

/** Tasks with human strategy annotations. */
export const F1_TASKS = ['esconv', 'p4g'] as const satisfies readonly TaskId[];

/** One labelled actor turn: the dialogue before it (the observation) and the human label. */
export interface F1Context {
  task: TaskId;
  /** Dialogue (or seed) id. */
  dialogueId: string;
  /** Index of the labelled turn in its dialogue. */
  turnIndex: number;
  actorView: ActorView;
  /** The turns before the labelled one. */
  history: Turn[];
  /** The human label (a label of the task). */
  label: string;
  /**
   * The human labels from this turn on (`label` first), as a seed's `reference.strategies` holds the labels
   * after its cut: what the policy's episode context carries, so that `replay` predicts the human's label
   * (accuracy and weighted F1 = 1 by construction; macro F1, averaged over every label of the task, can be lower)
   * instead of falling back to random labels.
   */
  reference: string[];
}

/** A dialogue with its human labels, as the F1 contexts are cut from it. */
export interface LabelledDialogue {
  id: string;
  task: TaskId;
  actorView: ActorView;
  turns: Turn[];
}

/** Contexts of every actor turn of a dialogue that carries a label of the task. */
export function f1ContextsFromDialogue(d: LabelledDialogue): F1Context[] {
  return labelledContexts(d, []);
}

/**
 * The contexts of {@link f1ContextsFromDialogue}; `after` holds human labels that follow the dialogue's last
 * turn (a seed's remaining reference labels) and ends every context's `reference`.
 */
function labelledContexts(d: LabelledDialogue, after: readonly string[]): F1Context[] {
  const labels = getTask(d.task).strategies;
  const labelled = d.turns.flatMap((t, i) =>
    t.speaker === 'actor' && t.strategy !== undefined && labels.includes(t.strategy)
      ? [{ index: i, label: t.strategy }]
      : [],
  );
  return labelled.map(({ index, label }, k) => ({
    task: d.task,
    dialogueId: d.id,
    turnIndex: index,
    actorView: d.actorView,
    history: d.turns.slice(0, index),
    label,
    reference: [...labelled.slice(k).map((l) => l.label), ...after],
  }));
}

/**
 * Contexts of seeds, which hold the dataset's text only up to the cut: the labelled actor turns of the prefix,
 * and the first reference label after it (observed with the whole prefix).
 */
export function f1ContextsFromSeeds(seeds: readonly Seed[]): F1Context[] {
  return seeds.flatMap((seed) => {
    const [first, ...rest] = seed.reference?.strategies ?? [];
    const turns: Turn[] = [
      ...seed.prefix,
      ...(first !== undefined ? [{ speaker: 'actor' as const, text: '', strategy: first }] : []),
    ];
    return labelledContexts({ id: seed.id, task: seed.task, actorView: seed.actorView, turns }, rest);
  });
}

/** The observation of a context: its history, no events, turn = actor turns so far. */
export function contextObservation(c: F1Context, horizon = getTask(c.task).horizon): Observation {
  const turn = c.history.filter((t) => t.speaker === 'actor').length;
  return {
    task: c.task,
    seedId: c.dialogueId,
    actorView: structuredClone(c.actorView),
    history: structuredClone(c.history),
    events: [],
    turn,
    remaining: Math.max(1, horizon - turn),
  };
}

/** Strategy prediction scores of one policy on one task. */
export interface F1Result {
  /** Number of labelled turns scored. */
  contexts: number;
  /** How many predictions were free text mapped to a label. */
  mapped: number;
  report: ClassificationReport;
  /** Entropy (nats) of the predicted labels. */
  entropy: number;
}

/** Options of {@link scoreStrategyPrediction}. */
export interface F1Options {
  /** Base of the per-context policy streams (`hashKey32("<baseSeed>|f1|<task>|<dialogue>|<turn>")`). */
  baseSeed: number;
  /** Maps free-form strategies to labels; without one, a free-form prediction is an error. */
  mapper?: LabelMapper;
}

/**
 * Score a policy's first action at each context against the human label. Returns null when the policy plans
 * no strategy (Standard): F1 does not apply to it.
 * @throws InputError (EVAL_STRATEGY_UNMAPPED) when a prediction is free text and no mapper is given; InputError (EVAL_INPUT_INVALID) from the metrics.
 */
export async function scoreStrategyPrediction(
  policy: Policy,
  contexts: readonly F1Context[],
  options: F1Options,
): Promise<F1Result | null> {
  const truth: string[] = [];
  const predicted: string[] = [];
  let mapped = 0;
  for (const c of contexts) {
    const rng = Rng.fromSeed(hashKey32(`${options.baseSeed}|f1|${c.task}|${c.dialogueId}|${c.turnIndex}`));
    policy.begin?.({ seedId: c.dialogueId, reference: { strategies: [...c.reference] } });
    const { strategy } = await policy.act(contextObservation(c), rng);
    if (strategy === NO_STRATEGY) return null;
    let label = strategy;
    if (!getTask(c.task).strategies.includes(label)) {
      if (!options.mapper) throw unmappedStrategyError(policy.name, strategy);
      label = await options.mapper.map(c.task, strategy, rng);
      mapped++;
    }
    truth.push(c.label);
    predicted.push(label);
  }
  const task = contexts[0]?.task;
  return {
    contexts: contexts.length,
    mapped,
    report: classificationReport(truth, predicted, task ? { labels: getTask(task).strategies } : {}),
    entropy: strategyEntropy(predicted),
  };
}
