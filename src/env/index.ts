/** The dialogue environment (reset / step / checkpoint / restore) and the judges. */
export * from './env';
export * from './judge';
export * from './llm-judge';
export * from './prompts/judge';
export * from './factory';
