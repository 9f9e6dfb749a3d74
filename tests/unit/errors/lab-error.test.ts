/**
 * The project-wide error base (docs/architecture.md "Errors"): every error class of a converted folder is a
 * LabError with its own name and a stable code, and the ESLint rule that keeps bare built-in errors out of
 * those folders fires.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import {
  AgentOptionError,
  PolicySpecError,
  PolicyUnavailableError,
  UnknownPolicyError,
  UnknownStrategyError,
} from '../../../src/agents/errors';
import {
  EnvActionError,
  EnvCheckpointError,
  EnvSeedMismatchError,
  JudgeInputError,
} from '../../../src/env/errors';
import { EvalWorkerError } from '../../../src/eval/errors';
import { StoredRunExistsError } from '../../../src/jobs/errors';
import { StoredEpisodeError } from '../../../src/eval/harness-node';
import { FeatureOptionError } from '../../../src/features/errors';
import { FitInputError } from '../../../src/fit/errors';
import { MemoryInputError, MemoryOptionError, MemoryTaskMismatchError } from '../../../src/memory/errors';
import { PoolOptionError } from '../../../src/pool/errors';
import { SeedingError } from '../../../src/seeding/errors';
import { DialogueEndedError, FittedParamsError, ProposalRejectedError } from '../../../src/sim/errors';
import { TaskInputError } from '../../../src/tasks/errors';
import { ValidityInputError } from '../../../src/validity/errors';
import { caseStreams } from '../../../src/seeding';
import { describe, expect, it } from 'vitest';
import { ActorOptionError, EmptyRealizationError } from '../../../src/agents/llm/errors';
import { ArgOptionError, ArgParseError } from '../../../src/appraisal/errors';
import { BaselineError, PpdppModelError, PpdppOptionError } from '../../../src/baselines/errors';
import { DatasetError } from '../../../src/data/errors';
import { EmbedOptionError } from '../../../src/embed/errors';
import { LabError } from '../../../src/errors';
import { RngError } from '../../../src/rng/errors';
import { UnknownTaskError } from '../../../src/tasks/errors';
import { getTask } from '../../../src/tasks';
import { HashedNgramEmbedder } from '../../../src/embed';
import * as lab from '../../../src/entries/errors';
import * as labNode from '../../../src/node';
import * as labTraining from '../../../src/entries/training';
import * as labEvalNode from '../../../src/entries/evaluation-node';

/** Class → its stable code. Changing a code is a breaking change: this table is the record of them. */
const CODES: [new (...args: never[]) => LabError, string, unknown[]][] = [
  [RngError, 'RNG_INVALID_ARGUMENT', ['m']],
  [UnknownTaskError, 'TASK_UNKNOWN', ['m']],
  [DatasetError, 'DATASET_INVALID', ['f.jsonl', 3, 'bad']],
  [EmbedOptionError, 'EMBED_OPTION_INVALID', ['m']],
  [BaselineError, 'BASELINE_FAILED', ['m']],
  [PpdppOptionError, 'PPDPP_OPTION_INVALID', ['m']],
  [PpdppModelError, 'PPDPP_MODEL_INVALID', ['m']],
  [ArgParseError, 'ARG_PARSE', ['m']],
  [ArgOptionError, 'ARG_OPTION_INVALID', ['m']],
  [EmptyRealizationError, 'REALIZER_EMPTY', ['m']],
  [ActorOptionError, 'ACTOR_OPTION_INVALID', ['m']],
  [AgentOptionError, 'AGENT_OPTION_INVALID', ['m']],
  [UnknownStrategyError, 'AGENT_STRATEGY_UNKNOWN', ['m']],
  [PolicySpecError, 'POLICY_SPEC_INVALID', ['p', ['random'], 'm']],
  [UnknownPolicyError, 'POLICY_UNKNOWN', ['p', ['random']]],
  [PolicyUnavailableError, 'POLICY_UNAVAILABLE', ['p', ['random'], 'm']],
  [FeatureOptionError, 'FEATURE_OPTION_INVALID', ['m']],
  [ValidityInputError, 'VALIDITY_INPUT', ['m']],
  [FitInputError, 'FIT_INPUT_INVALID', ['m']],
  [ProposalRejectedError, 'SIM_PROPOSAL_REJECTED', ['unknown record "x"']],
  [DialogueEndedError, 'SIM_DIALOGUE_ENDED', ['m']],
  [FittedParamsError, 'SIM_FITTED_PARAMS_INVALID', ['m']],
  [EnvSeedMismatchError, 'ENV_SEED_MISMATCH', ['m']],
  [EnvActionError, 'ENV_ACTION_INVALID', ['m']],
  [EnvCheckpointError, 'ENV_CHECKPOINT_INVALID', ['m']],
  [JudgeInputError, 'JUDGE_INPUT_INVALID', ['m']],
  [PoolOptionError, 'POOL_OPTION_INVALID', ['m']],
  [SeedingError, 'SEEDING_INVALID_ARGUMENT', ['m']],
  [MemoryOptionError, 'MEMORY_OPTION_INVALID', ['m']],
  [MemoryInputError, 'MEMORY_INPUT_INVALID', ['m']],
  [MemoryTaskMismatchError, 'MEMORY_TASK_MISMATCH', ['m']],
  [TaskInputError, 'TASK_INPUT_INVALID', ['m']],
  [EvalWorkerError, 'EVAL_WORKER_MISUSE', ['m']],
  [StoredEpisodeError, 'EVAL_STORED_EPISODE_INVALID', ['m']],
  [StoredRunExistsError, 'TRAIN_RUN_EXISTS', ['r']],
];

describe('LabError subclasses', () => {
  it.each(CODES)('%o has its name and a stable code', (Class, code, args) => {
    const error = new (Class as unknown as new (...a: unknown[]) => LabError)(...args);
    expect(error).toBeInstanceOf(LabError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe(Class.name);
    expect(error.code).toBe(code);
  });

  it('codes are distinct upper-case identifiers', () => {
    const codes = CODES.map(([, code]) => code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^[A-Z][A-Z0-9_]*$/);
  });

  it('public functions throw them', () => {
    expect(() => getTask('chess')).toThrow(UnknownTaskError);
    expect(() => getTask('chess')).toThrow(/known tasks: esconv, p4g, cb/);
    expect(() => new HashedNgramEmbedder({ dim: 0 })).toThrow(EmbedOptionError);
    expect(() => caseStreams({ rngSeed: -1, task: 'cb', caseId: 's', randomSeed: 1, repeat: 0 })).toThrow(
      SeedingError,
    );
    expect(new ProposalRejectedError('unknown record "x"')).toMatchObject({
      reason: 'unknown record "x"',
      message: 'proposal rejected: unknown record "x"',
    });
    const dataset = new DatasetError('seeds.jsonl', 4, 'duplicate seed id');
    expect(dataset.message).toBe('seeds.jsonl:4: duplicate seed id');
    expect(dataset).toMatchObject({ file: 'seeds.jsonl', line: 4, reason: 'duplicate seed id' });
  });
});

describe('no bare built-in errors in the library (eslint.config.js)', () => {
  // The texts are virtual files, which the type-checked promise rules cannot load into the TypeScript project;
  // the rule under test needs no type information, so those rules are off here.
  const eslint = new ESLint({
    overrideConfig: {
      languageOptions: { parserOptions: { projectService: false } },
      rules: {
        '@typescript-eslint/no-floating-promises': 'off',
        '@typescript-eslint/no-misused-promises': 'off',
        '@typescript-eslint/await-thenable': 'off',
      },
    },
  });
  const lint = async (text: string, filePath: string) =>
    (await eslint.lintText(text, { filePath }))[0]?.messages.filter(
      (m) => m.ruleId === 'no-restricted-syntax',
    ) ?? [];

  it('reports new Error / RangeError / TypeError anywhere under src/', async () => {
    const text =
      "export function f(): never {\n  throw new Error('x');\n}\nexport const e = [new RangeError('y'), TypeError('z')];\n";
    expect(await lint(text, 'src/rng/example.ts')).toHaveLength(3);
    expect(await lint(text, 'src/agents/llm/example.ts')).toHaveLength(3);
    expect(await lint(text, 'src/gpu/example.ts')).toHaveLength(3);
  });

  it('leaves LabError subclasses, and code outside the library (CLIs, benches), alone', async () => {
    const ok =
      "import { RngError } from './errors';\nexport function f(): never {\n  throw new RngError('x');\n}\n";
    expect(await lint(ok, 'src/rng/example.ts')).toHaveLength(0);
    const bare = "throw new Error('x');\n";
    expect(await lint(bare, 'cli/example.ts')).toHaveLength(0);
    expect(await lint(bare, 'bench/example.ts')).toHaveLength(0);
    expect(await lint(bare, 'src/tasks/success.ts')).toHaveLength(1);
  });
});

/** Every `export class …Error` declared under src/ (the file each is in). */
function declaredErrorClasses(): Map<string, string> {
  const found = new Map<string, string>();
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith('.ts'))
        for (const m of readFileSync(path, 'utf8').matchAll(/^export class (\w+Error)\b/gm))
          found.set(m[1] as string, path);
    }
  };
  visit('src');
  return found;
}

describe('typed errors are exported from the package entries', () => {
  const errors = lab as unknown as Record<string, unknown>;
  const node = labNode as unknown as Record<string, unknown>;
  const training = { ...labTraining, ...labEvalNode } as unknown as Record<string, unknown>;

  it('every error class under src/ is a LabError exported from /errors, /node, /training (the tfjs modules’ five) or /evaluation/node', () => {
    const declared = declaredErrorClasses();
    expect(declared.size).toBeGreaterThan(80);
    const missing = [...declared].filter(
      ([name]) => !(name in errors) && !(name in node) && !(name in training),
    );
    expect(missing.map(([name, file]) => `${name} (${file})`)).toEqual([]);
    declared.delete('LabError');
    for (const name of declared.keys()) {
      const Class = (errors[name] ?? node[name] ?? training[name]) as abstract new (
        ...args: never[]
      ) => unknown;
      expect(Class.prototype, name).toBeInstanceOf(LabError);
    }
  });

  it('the storage, redirect, file and backend errors come from the browser-safe /errors entry', () => {
    for (const name of [
      'StorageVersionError',
      'StorageDeniedError',
      'StorageClosedError',
      'RedirectRefusedError',
      'OutputConflictError',
      'OutputPathError',
      'FileDamagedError',
      'FileReadError',
      'WriterClosedError',
      'DownloadUnavailableError',
      'NoBackendError',
    ])
      expect(errors[name], name).toBeTypeOf('function');
    expect(new lab.NoBackendError([{ name: 'webgpu', reason: 'no adapter' }] as never).code).toBe(
      'GPU_NO_BACKEND',
    );
    expect(new lab.FileDamagedError('a.json', 'cut short', 3).message).toBe(
      'a.json line 3 is damaged: cut short',
    );
  });
});
