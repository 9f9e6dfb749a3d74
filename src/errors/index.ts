/**
 * The project-wide errors: the base {@link LabError} (base.ts) and the classes every library function throws
 * (classes.ts), grouped by what the user must do; each error's stable `code` says exactly what went wrong.
 */
export * from './base';
export * from './classes';
