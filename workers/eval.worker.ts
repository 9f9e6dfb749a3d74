/**
 * Web Worker entry point of the evaluation pool (src/eval/harness-browser.ts): runs template-mode evaluation
 * episodes off the main thread, exposed with Comlink (API: src/eval/harness-worker.ts).
 */
import * as Comlink from 'comlink';
import { createEvalWorkerApi } from '../src/entries/evaluation';
import { sendErrorFields } from '../src/worker';

sendErrorFields();
Comlink.expose(createEvalWorkerApi());
