/**
 * EmoLLM's Stage II (EmoLLM paper §3.2.2, appendices A and B.2): the Stage II rewards, trajectory-level GRPO
 * of the trained heads (reasoning gate, response strategy, candidate scorer) over the frozen ARG actor and
 * reverse-perspective predictor, and its persistence.
 */
export * from './config';
export * from './errors';
export * from './rewards';
export * from './rewards-trajectory';
export * from './rewards-judge';
export * from './networks';
export * from './objective';
export * from './rollout';
export * from './trainer';
export * from './store';
export * from './idb';
export * from './session';
export * from './language';
export * from './evaluate';
