import { InputError } from '../errors';
/**
 * Cohen's kappa: chance-corrected agreement of two raters on nominal labels (Cohen, 1960).
 *
 * κ = (p_o − p_e) / (1 − p_e), with p_o the observed share of agreeing items and p_e = Σ_c p_A(c) · p_B(c) the
 * agreement expected from the raters' marginal label shares. κ = 1 for perfect agreement, 0 for agreement at
 * chance, negative below it. When p_e = 1 (both raters give one and the same label to every item) κ is undefined;
 * this module returns 0 there (no agreement beyond chance can be shown), as scikit-learn does for a constant pair.
 */

/**
 * Cohen's kappa of `a` and `b` (item `i` of one against item `i` of the other), in [−1, 1].
 * @throws InputError (STATS_INPUT_INVALID) when the arrays are empty or differ in length.
 */
export function cohenKappa(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0) throw new InputError('STATS_INPUT_INVALID', 'cohenKappa: no items');
  if (a.length !== b.length)
    throw new InputError('STATS_INPUT_INVALID', `cohenKappa: ${a.length} labels against ${b.length}`);
  const n = a.length;
  const countA = new Map<string, number>();
  const countB = new Map<string, number>();
  let agree = 0;
  for (let i = 0; i < n; i++) {
    const x = a[i] as string;
    const y = b[i] as string;
    if (x === y) agree++;
    countA.set(x, (countA.get(x) ?? 0) + 1);
    countB.set(y, (countB.get(y) ?? 0) + 1);
  }
  const po = agree / n;
  let pe = 0;
  for (const [label, ca] of countA) pe += (ca / n) * ((countB.get(label) ?? 0) / n);
  if (pe >= 1) return 0;
  return (po - pe) / (1 - pe);
}
