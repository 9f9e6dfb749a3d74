/** Prompt templates of EmoLLM's roles: the ARG actor and the reverse-perspective predictor. */
export * from './arg-actor';
export * from './reverse-perspective';
