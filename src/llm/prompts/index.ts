/**
 * Prompt templates of the language roles (DESIGN.md "The language backends"), one file per role, with the zod
 * schema of each role's structured answer and the shared call helper.
 */
export * from './call';
export * from './common';
export * from './utterance';
export * from './mode';
export * from './change-proposer';
export * from './responder';
export * from './strategy';
export * from './realizer';
export * from './judge';
export * from './arg-actor';
export * from './reverse-perspective';
