/**
 * One RL step's training batch: the main-path decisions of every seed flattened into rows, with their
 * returns-to-go, the main-strategy continuation returns of checkpoint rows (for Û) and the branch returns
 * (for the critic's branch loss). Also a digest of the batch's inputs, to compare two runs step by step.
 */
import type { BranchReturn } from './advantages';
import type { SeedRollout } from './branching';
import type { Decision } from './rollout';

/** A flattened batch (rows are main-path decisions in seed order, then path order, then turn order). */
export interface TrainingBatch {
  decisions: Decision[];
  returnsToGo: number[];
  /** Per row: returns of the main strategy's continuations when the row is a checkpoint, else undefined. */
  mainStrategyReturns: (number[] | undefined)[];
  /** Continuations at checkpoints, with `row` indexing `decisions`. */
  branches: BranchReturn[];
  /** Final returns of the main paths (one per main path). */
  mainReturns: number[];
  /** Number of sampled returns: main paths plus non-main continuations. */
  returns: number;
}

/** Flatten rollouts into a {@link TrainingBatch}. */
export function buildBatch(rollouts: readonly SeedRollout[]): TrainingBatch {
  const batch: TrainingBatch = {
    decisions: [],
    returnsToGo: [],
    mainStrategyReturns: [],
    branches: [],
    mainReturns: [],
    returns: 0,
  };
  for (const r of rollouts) {
    r.mains.forEach((main, m) => {
      const offset = batch.decisions.length;
      batch.decisions.push(...main.decisions);
      batch.returnsToGo.push(...main.returnsToGo);
      batch.mainStrategyReturns.push(...main.decisions.map(() => undefined));
      batch.mainReturns.push(main.return);
      batch.returns += 1;
      if (m !== 0) return;
      for (const cp of r.checkpoints) {
        const row = offset + cp.turn;
        const strategy = (main.decisions[cp.turn] as Decision).strategy;
        batch.mainStrategyReturns[row] = cp.continuations
          .filter((c) => c.strategy === strategy)
          .map((c) => c.return);
        for (const c of cp.continuations) {
          batch.branches.push({ row, strategy: c.strategy, return: c.return, main: c.main });
          if (!c.main) batch.returns += 1;
        }
      }
    });
  }
  return batch;
}

/**
 * SHA-256 (hex) of everything the update reads from a batch: every row's features, prior, probabilities at
 * sampling time, actions and reward, the returns and the branch returns. Equal digests mean equal inputs.
 */
export async function batchDigest(batch: TrainingBatch): Promise<string> {
  const parts: ArrayBufferView[] = [];
  for (const d of batch.decisions) {
    parts.push(d.obs, d.cog, d.strategyProbs, d.utteranceProbs, ...d.candidates);
    if (d.prior) parts.push(d.prior);
    parts.push(Float64Array.of(d.strategy, d.utterance, d.reward));
  }
  parts.push(Float64Array.from(batch.returnsToGo), Float64Array.from(batch.mainReturns));
  for (const b of batch.branches) parts.push(Float64Array.of(b.row, b.strategy, b.return, b.main ? 1 : 0));
  const total = parts.reduce((s, p) => s + p.byteLength, 0);
  const bytes = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    bytes.set(new Uint8Array(p.buffer, p.byteOffset, p.byteLength), o);
    o += p.byteLength;
  }
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('');
}
