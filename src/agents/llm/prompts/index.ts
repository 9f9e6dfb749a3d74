/** Prompt templates of the actor's language roles: strategy proposer and realizer. */
export * from './strategy';
export * from './realizer';
