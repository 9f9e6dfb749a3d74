/**
 * EmoLLM's appraisal reasoning (docs/architecture.md "EmoLLM appraisal reasoning"): the ARG trace, the ARG
 * actor and the reverse-perspective predictor (LLM and template), the n-step lookahead and the ARG policy.
 */

export * from './types';
export * from './trace';
export * from './roles';
export * from './llm';
export * from './template';
export * from './lookahead';
export * from './policy';
export * from './prompts';
