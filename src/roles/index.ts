/**
 * Role resolution (docs/architecture.md "Roles and what each may see"): which backend plays each language
 * role — template, WebLLM, a local OpenAI-compatible server or replay, in any mix — and episode jobs that run
 * with them.
 */
export * from './config';
export * from './counting';
export * from './resolve';
export * from './job';
