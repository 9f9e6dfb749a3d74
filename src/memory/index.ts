/**
 * Principles (paper: "Principles: Synthetic Strategy Memory for Proactive Dialogue Agents"): a strategy memory
 * built by self-play with backtracking revision, stored as memory files in the text store (IndexedDB, a folder,
 * memory), retrieved by L2 distance of embedded
 * When clauses, reinterpreted for the current turn, and used by a planner policy; online construction while
 * deployed. The tfjs retrieval index lives in `./knn-tfjs` (import it only where tfjs is loaded).
 */
export * from './principle';
export * from './situation';
export * from './knn';
export type { RowPrecision } from './knn-wasm';
export { HALF_MAX, roundToHalves, toHalf } from './half';
export * from './file';
export * from './memory';
export * from './types';
export * from './template';
export * from './llm';
export * from './construct';
export * from './online';
export * from './planner';
export * from './store';
