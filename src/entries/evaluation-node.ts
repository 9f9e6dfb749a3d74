/**
 * `proactive-dialogue-lab/evaluation/node`: the evaluation harness in Node — the worker-thread pool and a
 * resumable output folder (the browser's pool: `createBrowserPool` in `proactive-dialogue-lab/evaluation`).
 */
export { createNodePool, prepareOutputFolder, trajectoryFile, FileEpisodeStore } from '../eval/harness-node';
