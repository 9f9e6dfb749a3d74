/**
 * Role resolution (issue 3, item 5): which backend plays each language role — template, WebLLM, a local
 * OpenAI-compatible server or replay, in any mix. The simulate job (src/jobs/simulate.ts) plays episodes with them.
 */
export * from './config';
export * from './counting';
export * from './resolve';
