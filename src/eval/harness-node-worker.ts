/** Node worker-thread entry of the evaluation pool: exposes the worker API over the parent port (Comlink). */
import { EvalWorkerError } from './errors';
import { parentPort } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/umd/node-adapter.js';
import { createEvalWorkerApi } from './harness-worker';

if (!parentPort) throw new EvalWorkerError('harness-node-worker must run in a worker thread');
Comlink.expose(createEvalWorkerApi(), nodeEndpoint(parentPort));
