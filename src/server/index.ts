/** The environment server: OpenEnv's wire protocol over `DialogueEnv`, for distributed trainers. */
export * from './errors';
export * from './limit';
export * from './protocol';
export * from './seal';
export * from './server';
export * from './session';
export * from './tasks';
export * from './export';
