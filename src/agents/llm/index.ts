/** LLM implementations of the actor's roles: strategy proposer, realizer, and a policy built from them. */
export * from './strategy';
export * from './realizer';
export * from './policy';
export * from './prompts';
