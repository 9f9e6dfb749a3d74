/**
 * Evaluation statistics (docs/architecture.md "Evaluation and statistics"; CSTPO paper §E.2): case-clustered
 * bootstrap intervals, episode summaries, strategy classification metrics and entropy, agreement of repeated
 * judgments; and the evaluation harness (policies × tasks × seed sets × repeats, worker pools, resumable
 * stores), reports and simulator validation. Node-only parts (worker threads, output folders) are in
 * `./harness-node`.
 */
export * from './errors';
export * from './harness';
export * from './harness-run';
export * from './harness-outcome';
export * from './harness-f1';
export * from './harness-dialogues';
export * from './harness-evaluate';
export * from './harness-pool';
export * from './harness-browser';
export * from './harness-worker';
export * from './report';
export * from './report-format';
export * from './validation';
export * from './ladders';
