/** GPU capability probing and backend/model selection (see probe.ts). */
export * from './probe';
