/**
 * CSTPO's advantages and critic targets (paper §3.3, §B.1, §C.2; docs/architecture.md "CSTPO"), as pure
 * functions over one RL step's batch.
 *
 * Advantages use the frozen previous critic (its values are computed before this step's critic update):
 * - strategy level: A_K = Û(X, K) − V(X);
 * - utterance level: A_U = G − Û(X, K);
 * where G is the main path's return-to-go (γ = 1) and Û(X, K) is the mean return of the main strategy's
 * continuations when the decision is a branching checkpoint (the main continuation and the extra
 * realizations of K — averaging over wordings), else the critic's U(X, K). The two sum to G − V(X).
 * In the "V only" ablation (no hierarchical critic) both are G − V(X).
 *
 * Critic objective (§B.1): the main loss fits V(X_t) and U(X_t, K_t) to G_t on every main-path decision; the
 * branch loss fits U(X_c, K_b) to the return G_b of each non-main continuation b at checkpoint c. Only the
 * strategies actually sampled at c get a target — no zero target for the others — and the main continuation
 * is counted only in the main loss. Loss = mean_main (V − G)² + mean_main (U − G)² + mean_branch (U − G_b)².
 * "V only": mean_main (V − G)² + mean_branch (V(X_c) − G_b)².
 */

/** Which critic: V and U heads (CSTPO), or V only (ablation). */
export type CriticMode = 'hierarchical' | 'v-only';

/** One main-path decision as the advantage computation sees it. */
export interface AdvantageRow {
  /** Return-to-go G_t of the main path from this decision (γ = 1). */
  returnToGo: number;
  /** Frozen critic's V(X_t). */
  v: number;
  /** Frozen critic's U(X_t, K_t) for the taken strategy (ignored in "V only"). */
  u: number;
  /**
   * When this decision is a checkpoint: the returns of every continuation with the main strategy K_t there,
   * the main continuation included. Absent (or empty) elsewhere.
   */
  mainStrategyReturns?: readonly number[];
}

/** Advantages per row, and the Û(X, K) each used. */
export interface Advantages {
  strategy: number[];
  utterance: number[];
  uHat: number[];
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Strategy and utterance advantages of each row (see the module comment). */
export function computeAdvantages(rows: readonly AdvantageRow[], mode: CriticMode): Advantages {
  const out: Advantages = { strategy: [], utterance: [], uHat: [] };
  for (const row of rows) {
    if (mode === 'v-only') {
      const a = row.returnToGo - row.v;
      out.strategy.push(a);
      out.utterance.push(a);
      out.uHat.push(row.v);
      continue;
    }
    const branch = row.mainStrategyReturns;
    const uHat = branch && branch.length > 0 ? mean(branch) : row.u;
    out.strategy.push(uHat - row.v);
    out.utterance.push(row.returnToGo - uHat);
    out.uHat.push(uHat);
  }
  return out;
}

/** A main-path decision as the critic targets see it. */
export interface TargetRow {
  strategy: number;
  returnToGo: number;
}

/** A continuation at a checkpoint: the row of the checkpoint's decision, the strategy played and its return. */
export interface BranchReturn {
  row: number;
  strategy: number;
  return: number;
  /** The main trajectory's own continuation (skipped: it is in the main loss). */
  main: boolean;
}

/** One squared-error term of the critic loss: weight · (head(X_row)[strategy] − target)². */
export interface CriticTarget {
  row: number;
  head: 'v' | 'u';
  /** The label index for the U head; −1 for V. */
  strategy: number;
  target: number;
  weight: number;
  source: 'main' | 'branch';
}

/**
 * The critic's regression targets for one batch (see the module comment). Weights make each mean: 1 / (number
 * of main rows) for main terms, 1 / (number of non-main continuations) for branch terms.
 */
export function criticTargets(
  rows: readonly TargetRow[],
  branches: readonly BranchReturn[],
  mode: CriticMode,
): CriticTarget[] {
  const out: CriticTarget[] = [];
  const wMain = rows.length > 0 ? 1 / rows.length : 0;
  rows.forEach((r, row) => {
    out.push({ row, head: 'v', strategy: -1, target: r.returnToGo, weight: wMain, source: 'main' });
    if (mode === 'hierarchical') {
      out.push({ row, head: 'u', strategy: r.strategy, target: r.returnToGo, weight: wMain, source: 'main' });
    }
  });
  const tails = branches.filter((b) => !b.main);
  const wBranch = tails.length > 0 ? 1 / tails.length : 0;
  for (const b of tails) {
    out.push(
      mode === 'hierarchical'
        ? { row: b.row, head: 'u', strategy: b.strategy, target: b.return, weight: wBranch, source: 'branch' }
        : { row: b.row, head: 'v', strategy: -1, target: b.return, weight: wBranch, source: 'branch' },
    );
  }
  return out;
}
