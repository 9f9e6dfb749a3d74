/**
 * Statistics (docs/architecture.md "Evaluation and statistics"; CSTPO paper §E.2): case-clustered bootstrap
 * intervals, episode summaries, strategy classification metrics and entropy, agreement of repeated judgments.
 * A leaf: it imports only `rng`.
 */
export * from './bootstrap';
export * from './intervals';
export * from './metrics';
export * from './classification';
export * from './agreement';
export * from './kappa';
export * from './auc';
export * from './cluster-bootstrap';
