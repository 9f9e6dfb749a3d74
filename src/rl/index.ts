/**
 * CSTPO (paper §3.3, appendices B–C; docs/architecture.md "CSTPO"): the trainable strategy policy, utterance
 * scorer and hierarchical critic in tfjs, sparse complete-branch sampling, the CSTPO update, SFT
 * initialisation, training sessions with IndexedDB persistence, and evaluation. Browser-safe; the Node file
 * store is in `./node`.
 */
export * from './params';
export * from './adam';
export * from './networks';
export * from './actor';
export * from './prior';
export * from './sampling';
export * from './counting';
export * from './rollout';
export * from './branching';
export * from './advantages';
export * from './batch';
export * from './update';
export * from './sft';
export * from './config';
export * from './context';
export * from './executor';
export * from './pool';
export * from './trainer';
export * from './store';
export * from './session';
export * from './evaluate';
export * from './plot';
