/**
 * The Principles planner (Principles paper §3.2, "Principles-driven Strategy Planning"): at each turn it
 * embeds the current state, retrieves the top-k principles by L2 distance of their When clauses (k = 3),
 * reinterprets them for the current context, chooses the next strategy from them and realises it.
 *
 * Choice: each reinterpreted principle i, at retrieval distance d_i, has weight w_i = 1 / (1 + d_i); a label
 * scores Σ w_i over the principles that recommend it, minus `ratherThanWeight` × Σ w_i over those that advise
 * against it ("rather than"). The best positive score wins (ties drawn from the random stream); with no
 * positive score — an empty memory, or only warnings — the fallback policy acts. Realisation: the realizer's
 * candidates for the chosen label, less those the actor already said word for word in this dialogue (unless
 * nothing else is left: a principle is adapted to the current context, not replayed), and of these the one
 * nearest (L2 of embeddings, summed with weights w_i) to the example utterances of the principles recommending
 * the label, so the principle's "how" carries over, not just its label. The planner reads only the observation.
 */

import { REALIZATIONS_PER_STRATEGY, TemplateRealizer } from '../agents/realizer';
import type { Policy, Realizer } from '../agents/types';
import type { Action, Observation } from '../env/env';
import type { Rng } from '../rng';
import { getTask } from '../tasks';
import type { PrincipleMemory, Retrieved } from './memory';
import { describeSituation } from './situation';
import { TemplateReinterpreter } from './template';
import type { Reinterpreted, Reinterpreter } from './types';
import { RoleOutputError, ConfigError } from '../errors';

/** Options of {@link PrinciplesPlanner}. */
export interface PlannerOptions {
  memory: PrincipleMemory;
  /** Acts when the memory gives no usable principle. */
  fallback: Policy;
  /** Default: {@link TemplateReinterpreter}. */
  reinterpreter?: Reinterpreter;
  /** Default: the template realizer. */
  realizer?: Realizer;
  /** Principles retrieved per turn (default 3). */
  k?: number;
  /** Weight of a "rather than" against a label, relative to a recommendation (default 0.5). */
  ratherThanWeight?: number;
  /**
   * Retrieved principles farther than this L2 distance are not used (default Infinity: the top-k always count,
   * as in the paper). A small memory — online construction early on — retrieves far, unrelated principles.
   */
  maxDistance?: number;
  /** The text embedded as the current state (default {@link describeSituation}). */
  stateText?: (observation: Observation) => string;
}

/** What the planner did at its last turn (for logs, demos and tests). */
export interface PlannerDecision {
  query: string;
  retrieved: Retrieved[];
  reinterpreted: Reinterpreted[];
  /** Score of every label that got a vote. */
  scores: Record<string, number>;
  action: Action;
  /** True when the fallback policy acted. */
  fallback: boolean;
}

/** The Principles planner policy; see the module comment. */
export class PrinciplesPlanner implements Policy {
  readonly name: string;
  /** The decision of the latest `act` call, or null before the first. */
  lastDecision: PlannerDecision | null = null;
  private readonly reinterpreter: Reinterpreter;
  private readonly realizer: Realizer;
  private readonly k: number;
  private readonly ratherThanWeight: number;
  private readonly stateText: (observation: Observation) => string;

  /** @throws ConfigError (MEMORY_OPTION_INVALID) for k < 1 or a negative rather-than weight. */
  constructor(private readonly options: PlannerOptions) {
    this.name = `principles:${options.memory.name}`;
    this.reinterpreter = options.reinterpreter ?? new TemplateReinterpreter();
    this.realizer = options.realizer ?? new TemplateRealizer();
    this.k = options.k ?? 3;
    this.ratherThanWeight = options.ratherThanWeight ?? 0.5;
    this.stateText = options.stateText ?? describeSituation;
    if (!Number.isInteger(this.k) || this.k < 1)
      throw new ConfigError('MEMORY_OPTION_INVALID', `k must be a positive integer, got ${this.k}`);
    if (!(this.ratherThanWeight >= 0))
      throw new ConfigError('MEMORY_OPTION_INVALID', 'ratherThanWeight must be ≥ 0');
  }

  begin(context: Parameters<NonNullable<Policy['begin']>>[0]): void {
    this.options.fallback.begin?.(context);
  }

  async act(observation: Observation, rng: Rng): Promise<Action> {
    const { memory } = this.options;
    const query = this.stateText(observation);
    const maxDistance = this.options.maxDistance ?? Infinity;
    const retrieved = (await memory.retrieve(query, this.k)).filter((r) => r.distance <= maxDistance);
    const reinterpreted = await this.reinterpreter.reinterpret(observation, retrieved, rng);
    const labels = getTask(observation.task).strategies;
    const scores: Record<string, number> = {};
    for (const r of reinterpreted) {
      const w = 1 / (1 + r.source.distance);
      if (labels.includes(r.strategy)) scores[r.strategy] = (scores[r.strategy] ?? 0) + w;
      for (const f of r.failedStrategies)
        if (labels.includes(f)) scores[f] = (scores[f] ?? 0) - this.ratherThanWeight * w;
    }
    const top = Math.max(0, ...Object.values(scores));
    const best = labels.filter((l) => (scores[l] ?? 0) === top && top > 0);
    let action: Action;
    if (best.length === 0) {
      action = await this.options.fallback.act(observation, rng);
    } else {
      const strategy = best.length === 1 ? (best[0] as string) : rng.pick(best);
      const supporters = reinterpreted.filter((r) => r.strategy === strategy);
      action = { strategy, utterance: await this.realize(observation, strategy, supporters, rng) };
    }
    this.lastDecision = { query, retrieved, reinterpreted, scores, action, fallback: best.length === 0 };
    return action;
  }

  /** The fresh candidate nearest to the supporting principles' example utterances (first on ties). */
  private async realize(
    observation: Observation,
    strategy: string,
    supporters: readonly Reinterpreted[],
    rng: Rng,
  ): Promise<string> {
    const all = await this.realizer.realize(observation, strategy, REALIZATIONS_PER_STRATEGY, rng);
    if (all.length === 0)
      throw new RoleOutputError('REALIZER_EMPTY', `realizer gave no utterance for strategy "${strategy}"`);
    const said = new Set(observation.history.filter((t) => t.speaker === 'actor').map((t) => t.text.trim()));
    const fresh = all.filter((c) => !said.has(c.trim()));
    const candidates = fresh.length > 0 ? fresh : all;
    if (candidates.length === 1) return candidates[0] as string;
    const examples = supporters.map((s) => s.source.principle.provenance.utterance);
    const vectors = await this.options.memory.embedder.embed([...candidates, ...examples]);
    let bestIndex = 0;
    let bestCost = Infinity;
    candidates.forEach((_, c) => {
      const v = vectors[c] as Float32Array;
      let cost = 0;
      supporters.forEach((s, i) => {
        const e = vectors[candidates.length + i] as Float32Array;
        let d = 0;
        for (let j = 0; j < v.length; j++) d += ((v[j] as number) - (e[j] as number)) ** 2;
        cost += Math.sqrt(d) / (1 + s.source.distance);
      });
      if (cost < bestCost) [bestIndex, bestCost] = [c, cost];
    });
    return candidates[bestIndex] as string;
  }
}
