import { InputError } from '../errors';
/**
 * Ridge (L2-penalised least squares) regression on a few dense inputs, solved exactly through the normal
 * equations (Gaussian elimination with partial pivoting): the CB seller's counter-offer model.
 */

/** A fitted linear model: y ≈ intercept + Σ coef·x. */
export interface LinearModel {
  intercept: number;
  coef: number[];
}

/**
 * Fit y ≈ b + w·x minimising Σ(y − b − w·x)² + l2·‖w‖² (the intercept is not penalised).
 * @throws InputError (FIT_INPUT_INVALID) for no rows or rows of unequal width.
 */
export function fitRidge(x: readonly (readonly number[])[], y: readonly number[], l2: number): LinearModel {
  const n = x.length;
  if (n === 0 || y.length !== n)
    throw new InputError('FIT_INPUT_INVALID', 'fitRidge: need as many targets as rows, at least one');
  const d = (x[0] as readonly number[]).length;
  if (x.some((r) => r.length !== d))
    throw new InputError('FIT_INPUT_INVALID', 'fitRidge: rows of unequal width');
  const p = d + 1;
  const a = Array.from({ length: p }, () => new Array<number>(p + 1).fill(0));
  for (let i = 0; i < n; i++) {
    const row = [1, ...(x[i] as readonly number[])];
    for (let r = 0; r < p; r++) {
      for (let c = 0; c < p; c++) (a[r] as number[])[c]! += (row[r] as number) * (row[c] as number);
      (a[r] as number[])[p]! += (row[r] as number) * (y[i] as number);
    }
  }
  for (let r = 1; r < p; r++) (a[r] as number[])[r]! += l2;
  for (let col = 0; col < p; col++) {
    let pivot = col;
    for (let r = col + 1; r < p; r++)
      if (Math.abs((a[r] as number[])[col]!) > Math.abs((a[pivot] as number[])[col]!)) pivot = r;
    [a[col], a[pivot]] = [a[pivot] as number[], a[col] as number[]];
    const pv = (a[col] as number[])[col]!;
    if (Math.abs(pv) < 1e-12) continue;
    for (let r = 0; r < p; r++) {
      if (r === col) continue;
      const f = (a[r] as number[])[col]! / pv;
      for (let c = col; c <= p; c++) (a[r] as number[])[c]! -= f * (a[col] as number[])[c]!;
    }
  }
  const beta = a.map((row, i) => (Math.abs(row[i]!) < 1e-12 ? 0 : row[p]! / row[i]!));
  return { intercept: beta[0] as number, coef: beta.slice(1) };
}

/** The prediction of a linear model. */
export function predictLinear(m: LinearModel, x: readonly number[]): number {
  let s = m.intercept;
  for (let i = 0; i < m.coef.length; i++) s += (m.coef[i] as number) * (x[i] ?? 0);
  return s;
}
