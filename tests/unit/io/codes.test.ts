/**
 * The record of every stable error code (docs/architecture.md "Errors"): each code that src/errors/classes.ts
 * declares is thrown here by the library's own builder or constructor, as an instance of the class that
 * declares it, with that class's name; no code belongs to two classes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { unknownPolicyError, policyUnavailableError } from '../../../src/agents/errors';
import {
  AbortedError,
  BackendError,
  CheckpointError,
  ConfigError,
  DataFormatError,
  ExecutionError,
  FixtureMissingError,
  InputError,
  LabError,
  LockHeldError,
  ModelFileError,
  PolicySpecError,
  RoleOutputError,
  ServerProtocolError,
  SERVER_STATUS,
  StateUpdateRejectedError,
  StorageError,
  TimeoutError,
} from '../../../src/errors';
import { unmappedStrategyError } from '../../../src/eval/errors';
import { noBackendError } from '../../../src/gpu/backend';
import { grpoSnapshotError } from '../../../src/grpo/errors';
import {
  diskFullError,
  downloadUnavailableError,
  fileDamagedError,
  fileReadError,
  outputConflictError,
  outputPathError,
  pathKindError,
  writerClosedError,
} from '../../../src/io/errors';
import {
  finishedEpisodeMismatchError,
  storedRunExistsError,
  trainResumeConflictError,
} from '../../../src/jobs/errors';
import { roleOutputError } from '../../../src/llm/call';
import {
  answerTooLargeError,
  contextTooSmallError,
  httpError,
  missingPackageError,
  modelFileError,
  modelLoadError,
  modelTooLargeError,
  privacyError,
  redirectRefusedError,
  structuredOutputError,
  unsupportedModelError,
} from '../../../src/llm/errors';
import { constructionCheckpointError } from '../../../src/memory/construct';
import { memoryFileError } from '../../../src/memory/file';
import { memoryExistsError, memoryNotFoundError } from '../../../src/memory/store';
import { runIdError } from '../../../src/rl/errors';
import { corruptWeightsError } from '../../../src/rl/params';
import { runNotFoundError, storedRunError } from '../../../src/rl/store';
import { snapshotError } from '../../../src/rl/trainer';
import { damagedRunFileError, runKindError } from '../../../src/runs/errors';
import { badMessageError, portInUseError } from '../../../src/server/errors';
import { proposalRejectedError } from '../../../src/sim/errors';
import {
  storageBlockedError,
  storageClosedError,
  storageDeniedError,
  storageQuotaError,
  storageVersionError,
} from '../../../src/store/errors';

const simple = {
  ConfigError: [
    'JOB_CONFIG_INVALID',
    'ARG_PARSE',
    'ARG_OPTION_INVALID',
    'AGENT_OPTION_INVALID',
    'AGENT_STRATEGY_UNKNOWN',
    'ACTOR_OPTION_INVALID',
    'DATA_OPTION_INVALID',
    'EMBED_OPTION_INVALID',
    'EVAL_CONFIG_INVALID',
    'FEATURE_OPTION_INVALID',
    'MEMORY_OPTION_INVALID',
    'POOL_OPTION_INVALID',
    'PPDPP_OPTION_INVALID',
    'RL_OPTION_INVALID',
    'RNG_INVALID_ARGUMENT',
    'SEEDING_INVALID_ARGUMENT',
    'SEED_SET_UNKNOWN',
    'SERVER_OPTION_INVALID',
    'TASK_UNKNOWN',
  ],
  InputError: [
    'ENV_ACTION_INVALID',
    'ENV_SEED_MISMATCH',
    'EVAL_INPUT_INVALID',
    'FIT_INPUT_INVALID',
    'GRPO_INPUT_INVALID',
    'JUDGE_INPUT_INVALID',
    'LLM_INVALID_REQUEST',
    'MEMORY_CONSTRUCTION_INVALID',
    'MEMORY_INPUT_INVALID',
    'MEMORY_TASK_MISMATCH',
    'RL_INPUT_INVALID',
    'STATS_INPUT_INVALID',
    'SUCCESS_INPUT',
    'TASK_INPUT_INVALID',
    'VALIDITY_INPUT',
  ],
  StateUpdateRejectedError: ['SIM_DIALOGUE_ENDED', 'ENV_STATE_INVALID'],
  RoleOutputError: ['REALIZER_EMPTY'],
  BackendError: [
    'LLM_BACKEND_UNAVAILABLE',
    'LLM_DEVICE_LOST',
    'LLM_GENERATION_FAILED',
    'LLM_MALFORMED_RESPONSE',
    'LLM_WORKER_CRASHED',
  ],
  AbortedError: ['LLM_ABORTED', 'JOB_ABORTED'],
  ModelFileError: ['EMBED_MODEL_UNAVAILABLE', 'PPDPP_MODEL_INVALID'],
  DataFormatError: [
    'EVAL_STORED_EPISODE_INVALID',
    'MEMORY_PRINCIPLE_UNPARSABLE',
    'SIM_FITTED_PARAMS_INVALID',
  ],
  StorageError: ['MEMORY_VERSION', 'STORAGE_UNAVAILABLE'],
  CheckpointError: [
    'ENV_CHECKPOINT_INVALID',
    'RL_WEIGHTS_MISMATCH',
    'RUN_FLOAT32_INVALID',
    'TRAIN_RUN_INVALID',
  ],
  ExecutionError: ['WORKER_FAILED', 'EVAL_WORKER_MISUSE', 'BASELINE_FAILED'],
} as const;

const classes = {
  ConfigError,
  InputError,
  StateUpdateRejectedError,
  RoleOutputError,
  BackendError,
  AbortedError,
  ModelFileError,
  DataFormatError,
  StorageError,
  CheckpointError,
  ExecutionError,
} as const;

const built: LabError[] = [
  ...Object.entries(simple).flatMap(([name, codes]) =>
    codes.map(
      (code) =>
        new (classes[name as keyof typeof classes] as new (c: string, m: string) => LabError)(code, 'm'),
    ),
  ),
  ...Object.keys(SERVER_STATUS)
    .filter((code) => code !== 'VALIDATION_ERROR')
    .map((code) => new ServerProtocolError(code as keyof typeof SERVER_STATUS, 'm')),
  badMessageError('m', [{ path: ['a'], message: 'x' }]),
  portInUseError('127.0.0.1', 8000),
  contextTooSmallError('m', 10, 20, 16),
  runIdError('a/b'),
  unknownPolicyError('p', ['random']),
  policyUnavailableError('p', ['random'], 'm'),
  new PolicySpecError('POLICY_SPEC_INVALID', 'm', { policy: 'p', known: [] }),
  unmappedStrategyError('p', 's'),
  downloadUnavailableError(),
  proposalRejectedError('unknown record "x"'),
  writerClosedError('p'),
  structuredOutputError(['a'], ['bad']),
  roleOutputError('judge', 'a', structuredOutputError([], [])),
  httpError(500, 'u', 'b'),
  answerTooLargeError(10, 'u'),
  missingPackageError('node-llama-cpp', 'the llamacpp backend'),
  noBackendError([{ name: 'webgpu', reason: 'no adapter' }] as never),
  new TimeoutError(1, 'w'),
  modelLoadError('x', 'm'),
  modelFileError('x.gguf', 'm'),
  modelTooLargeError('x', 'm'),
  unsupportedModelError('x', 'r'),
  privacyError('http://x/'),
  redirectRefusedError('http://127.0.0.1:1/', 'http://x/'),
  new FixtureMissingError('k', 'd'),
  DataFormatError.record('DATASET_INVALID', 'f.jsonl', 3, 'bad'),
  DataFormatError.record('EMOLLM_SEED_INVALID', 'f.jsonl', 3, 'bad'),
  fileDamagedError('p', 'r'),
  memoryFileError('m'),
  fileReadError('p', 'r'),
  pathKindError('p', 'p', 'folder', 'memory file'),
  outputPathError('p', 'r'),
  outputConflictError('p', 'a file'),
  storedRunExistsError('r'),
  memoryExistsError('m'),
  new LockHeldError('p', 'pid 1', 'p.lock'),
  diskFullError('p'),
  storageQuotaError('d'),
  memoryNotFoundError('m'),
  runNotFoundError('r'),
  storageBlockedError('d', 1, 2),
  storageClosedError('d', 1, 2),
  storageDeniedError('d', 'x'),
  storageVersionError('d', 1),
  finishedEpisodeMismatchError(0, 'r'),
  grpoSnapshotError('m'),
  constructionCheckpointError('s', 1, 'r'),
  storedRunError('r', 's', 'x'),
  snapshotError('m'),
  corruptWeightsError('t', 'r'),
  damagedRunFileError('f', 'r'),
  runKindError('f', 'grpo-emollm', 'cstpo'),
  trainResumeConflictError('f', []),
];

/** Each class of src/errors/classes.ts with the codes its `…Code` union (or its `code` literal) declares. */
function declaredCodes(): Map<string, string[]> {
  const text = readFileSync('src/errors/classes.ts', 'utf8');
  const unions = new Map<string, string[]>();
  for (const m of text.matchAll(/export type (\w+) =([^;]+);/g))
    unions.set(
      m[1] as string,
      [...(m[2] as string).matchAll(/'([A-Z0-9_]+)'/g)].map((c) => c[1] as string),
    );
  unions.set('ServerProtocolCode', Object.keys(SERVER_STATUS));
  const found = new Map<string, string[]>();
  for (const m of text.matchAll(
    /export class (\w+) extends LabError \{[\s\S]*?override readonly code(?:: (\w+)| = '(\w+)');/g,
  ))
    found.set(m[1] as string, m[2] ? (unions.get(m[2]) ?? []) : [m[3] as string]);
  return found;
}

describe('error codes', () => {
  it('every declared code is thrown by its class, with the class name, and by no other class', () => {
    const declared = declaredCodes();
    expect(declared.size).toBeGreaterThanOrEqual(20);
    const owner = new Map<string, string>();
    for (const [cls, codes] of declared)
      for (const code of codes) {
        expect(owner.get(code), `${code} in ${cls} and ${owner.get(code)}`).toBeUndefined();
        owner.set(code, cls);
      }
    const thrown = new Map(built.map((e) => [e.code, e]));
    expect(thrown.size).toBe(built.length);
    expect([...thrown.keys()].sort()).toEqual([...owner.keys()].sort());
    for (const [code, error] of thrown) {
      expect(error).toBeInstanceOf(LabError);
      expect(error.name, code).toBe(owner.get(code));
      expect(error.name).toBe(error.constructor.name);
      expect(code).toMatch(/^[A-Z][A-Z0-9_]+$/);
    }
  });
});
