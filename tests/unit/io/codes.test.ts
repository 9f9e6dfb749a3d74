/**
 * Every error class listed below is a LabError with a stable, distinct code and its
 * own class name.
 */
import { describe, expect, it } from 'vitest';
import { EnvStateError } from '../../../src/env/env';
import { LabError } from '../../../src/errors';
import * as io from '../../../src/io';
import * as llm from '../../../src/llm/errors';
import { RoleOutputError } from '../../../src/llm/call';
import { ConstructionCheckpointError, ConstructionError } from '../../../src/memory/construct';
import { MemoryFileError } from '../../../src/memory/file';
import { PrincipleParseError } from '../../../src/memory/principle';
import { MemoryExistsError, MemoryNotFoundError, MemoryVersionError } from '../../../src/memory/store';
import { CorruptWeightsError, WeightMismatchError } from '../../../src/rl/params';
import { RunNotFoundError, StoredRunError } from '../../../src/rl/store';
import { SnapshotError } from '../../../src/rl/trainer';
import { Float32PayloadError } from '../../../src/runs/errors';
import { StatsInputError } from '../../../src/stats';
import * as store from '../../../src/store';

const instances: LabError[] = [
  new io.OutputConflictError('p', 'a file'),
  new io.OutputPathError('p', 'r'),
  new io.FileReadError('p', 'r'),
  new io.FileDamagedError('p', 'r'),
  new io.WriterClosedError('p'),
  new llm.LlmError('m'),
  new llm.InvalidRequestError('m'),
  new llm.BackendUnavailableError('m'),
  new llm.ModelLoadError('x', 'm'),
  new llm.UnsupportedModelError('x', 'r'),
  new llm.TimeoutError(1, 'w'),
  new llm.AbortedError('m'),
  new llm.HttpError(500, 'u', 'b'),
  new llm.MalformedResponseError('m'),
  new llm.StructuredOutputError([], []),
  new llm.GenerationError('m'),
  new llm.WorkerCrashedError('m'),
  new llm.DeviceLostError('m'),
  new llm.PrivacyError('http://x/'),
  new llm.RedirectRefusedError('http://127.0.0.1:1/', 'http://x/'),
  new llm.FixtureMissingError('k', 'd'),
  new RoleOutputError('judge', 'a', new llm.StructuredOutputError([], [])),
  new store.StoreError('m'),
  new store.StorageBlockedError('d', 1, 2),
  new store.StorageQuotaError('d'),
  new store.StorageUnavailableError('m'),
  new store.StorageVersionError('d', 1),
  new store.StorageDeniedError('d', 'x'),
  new store.StorageClosedError('d', 1, 2),
  new MemoryNotFoundError('m'),
  new MemoryExistsError('m'),
  new MemoryVersionError('m'),
  new MemoryFileError('m'),
  new PrincipleParseError('m'),
  new ConstructionError('m'),
  new ConstructionCheckpointError('s', 1, 'r'),
  new WeightMismatchError('m'),
  new CorruptWeightsError('t', 'r'),
  new RunNotFoundError('r'),
  new StoredRunError('r', 's', 'x'),
  new SnapshotError('m'),
  new Float32PayloadError('m'),
  new StatsInputError('m'),
  new EnvStateError('m'),
];

describe('LabError conversion', () => {
  it('gives every class a distinct stable code and its own name', () => {
    const codes = instances.map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const e of instances) {
      expect(e).toBeInstanceOf(LabError);
      expect(e.code).toMatch(/^[A-Z][A-Z0-9_]+$/);
      expect(e.name).toBe(e.constructor.name);
    }
  });
});
