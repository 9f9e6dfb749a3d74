/**
 * Language backends (docs/architecture.md "Language backends"): the ChatBackend contract and its
 * implementations.
 */
export * from './errors';
export * from './types';
export * from './usage';
export * from './replay';
export * from './openai';
export * from './structured';
export * from './webllm';
export * from './wllama';
export * from './call';
