/** Agents: policies, realizers and strategy proposers, and the episode rollout. */
export * from './types';
export * from './realizer';
export * from './policies';
export * from './rollout';
export * from './llm';
