/**
 * File input/output helpers (browser-safe part): typed file errors, strict UTF-8 decoding, JSON parsing that
 * names the file and line, and the browser-download form of the atomic writer. The Node part (atomic file and
 * folder writes, output guards, streaming JSONL writer) is `src/io/node`, not exported here.
 */
export * from './errors';
export * from './json';
export * from './download';
