/** Prompt templates of the simulator's language roles and the prompt pieces shared by every role's prompt. */
export * from './common';
export * from './mode';
export * from './change-proposer';
export * from './responder';
