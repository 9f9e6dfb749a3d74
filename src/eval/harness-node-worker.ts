/** Node worker-thread entry of the evaluation pool: exposes the worker API over the parent port (Comlink). */

import { parentPort } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/umd/node-adapter.js';
import { createEvalWorkerApi } from './harness-worker';
import { ExecutionError } from '../errors';

if (!parentPort)
  throw new ExecutionError('EVAL_WORKER_MISUSE', 'harness-node-worker must run in a worker thread');
Comlink.expose(createEvalWorkerApi(), nodeEndpoint(parentPort));
