/**
 * proactive-dialogue-lab: train and test proactive dialogue policies in the browser.
 * Public entry point; each concept lives in its own folder under `src/`.
 */
export * from './rng';
export * from './tasks';
