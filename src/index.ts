/**
 * proactive-dialogue-lab: train and test proactive dialogue policies in the browser.
 * Public entry point; each concept lives in its own folder under `src/` (see README "Layout").
 */
export * from './errors';
export * from './rng';
export * from './tasks';
export * from './tasks/defaults';
export * from './text/features';
export * from './data';
export * from './sim';
export * from './env';
export * from './agents';
export * from './embed';
export * from './store';
export * from './stats';
export * from './eval';
export * from './llm';
export * from './gpu';
export * from './appraisal';
export * from './roles';
export * from './baselines';
export * from './memory';
