/** Types of the parts of `ml-logistic-regression` (mljs, v2) that the traits-only baseline uses. */
declare module 'ml-logistic-regression' {
  import type { Matrix } from 'ml-matrix';

  /** One-vs-all logistic regression trained by batch gradient ascent (no intercept: add a column of ones). */
  export default class LogisticRegression {
    constructor(options?: { numSteps?: number; learningRate?: number });
    /** One binary classifier per class index; `classifiers[c].testScores(X)` is P(class ≠ c) per row. */
    classifiers: { testScores(features: Matrix): number[] }[];
    /** @param Y a column vector of class indices 0..k−1. */
    train(X: Matrix, Y: Matrix): void;
    predict(X: Matrix): number[];
  }
}
