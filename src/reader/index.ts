/** The actor-side reader of text, independent of the simulator's perception (see `reader.ts`). */
export * from './reader';
