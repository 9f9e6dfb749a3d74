/**
 * Role resolution (docs/architecture.md "Roles and what each may see"): which backend plays each language
 * role — template, WebLLM, a local OpenAI-compatible server or replay, in any mix. The simulate job
 * (src/jobs/simulate.ts) plays episodes with them.
 */
export * from './config';
export * from './counting';
export * from './resolve';
