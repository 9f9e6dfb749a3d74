/**
 * The project-wide errors (docs/architecture.md "Errors"): the base LabError with its settings and rendering,
 * `hasCode`, public functions throwing the classes with their codes and structured fields, the ESLint rule that
 * keeps bare built-in errors out of the library, and every error class exported from the package's /errors entry.
 * The record of every code is tests/unit/io/codes.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { unknownPolicyError } from '../../../src/agents/errors';
import { HashedNgramEmbedder } from '../../../src/embed';
import {
  CheckpointError,
  ConfigError,
  DataFormatError,
  hasCode,
  InputError,
  LabError,
  PolicySpecError,
} from '../../../src/errors';
import { storedRunExistsError } from '../../../src/jobs/errors';
import { caseStreams } from '../../../src/seeding';
import { proposalRejectedError } from '../../../src/sim/errors';
import { getTask } from '../../../src/tasks';
import * as lab from '../../../src/entries/errors';
import * as labMain from '../../../src';
import * as labNode from '../../../src/node';
import * as labTraining from '../../../src/entries/training';
import * as labEvalNode from '../../../src/entries/evaluation-node';

describe('LabError', () => {
  it('is an Error with a name, a stable code, and no settings unless its message names some', () => {
    const plain = new LabError('m', { cause: 'c' });
    expect(plain).toBeInstanceOf(Error);
    expect([plain.name, plain.code, plain.message, plain.cause]).toEqual(['LabError', 'LAB_ERROR', 'm', 'c']);
    expect(plain.settings).toEqual([]);
    expect(plain.render((s) => `--${s}`)).toBe('m');
  });

  it('renders the settings its message names in the words of a front end', () => {
    const exists = storedRunExistsError('r1');
    expect(exists.settings).toEqual(['resume', 'overwrite']);
    expect(exists.message).toBe(
      'a run "r1" is stored; pass resume to continue it or overwrite to replace it',
    );
    expect(exists.render((s) => `--${s}`)).toBe(
      'a run "r1" is stored; pass --resume to continue it or --overwrite to replace it',
    );
    const config = ConfigError.fromIssues('simulate', [
      { path: 'episodes', message: 'must be ≥ 1' },
      { path: '', message: 'bad' },
    ]);
    expect(config).toMatchObject({ code: 'JOB_CONFIG_INVALID', job: 'simulate' });
    expect(config.settings).toEqual(['episodes']);
    expect(config.message).toBe('simulate: episodes: must be ≥ 1; config: bad');
    expect(config.render((s) => `--${s}`)).toBe('simulate: --episodes: must be ≥ 1; config: bad');
  });

  it('hasCode tells one case of a class from the others', () => {
    const error: unknown = new CheckpointError('TRAIN_RESUME_CONFLICT', 'm');
    expect(hasCode(error, CheckpointError)).toBe(true);
    expect(hasCode(error, CheckpointError, 'TRAIN_RESUME_CONFLICT', 'TRAIN_RUN_INVALID')).toBe(true);
    expect(hasCode(error, CheckpointError, 'RL_RUN_DAMAGED')).toBe(false);
    expect(hasCode(error, InputError)).toBe(false);
    expect(hasCode(new Error('x'), LabError)).toBe(false);
  });
});

describe('public functions throw the classes with their codes and fields', () => {
  it('options, tasks, policies, proposals and data records', () => {
    expect(() => getTask('chess')).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'TASK_UNKNOWN' }),
    );
    expect(() => getTask('chess')).toThrow(/known tasks: esconv, p4g, cb/);
    expect(() => new HashedNgramEmbedder({ dim: 0 })).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'EMBED_OPTION_INVALID' }),
    );
    expect(() => caseStreams({ rngSeed: -1, task: 'cb', caseId: 's', randomSeed: 1, repeat: 0 })).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'SEEDING_INVALID_ARGUMENT' }),
    );
    expect(unknownPolicyError('p', ['random'])).toMatchObject({
      name: 'PolicySpecError',
      code: 'POLICY_UNKNOWN',
      policy: 'p',
      known: ['random'],
      message: 'unknown policy "p"; valid policies: random',
    });
    expect(unknownPolicyError('p', [])).toBeInstanceOf(PolicySpecError);
    expect(proposalRejectedError('unknown record "x"')).toMatchObject({
      name: 'StateUpdateRejectedError',
      code: 'SIM_PROPOSAL_REJECTED',
      reason: 'unknown record "x"',
      message: 'proposal rejected: unknown record "x"',
    });
    const dataset = DataFormatError.record('DATASET_INVALID', 'seeds.jsonl', 4, 'duplicate seed id');
    expect(dataset.message).toBe('seeds.jsonl:4: duplicate seed id');
    expect(dataset).toMatchObject({ path: 'seeds.jsonl', line: 4, reason: 'duplicate seed id' });
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
      "import { ConfigError } from '../errors';\nexport function f(): never {\n  throw new ConfigError('RNG_INVALID_ARGUMENT', 'x');\n}\n";
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

  it('about twenty-five error classes, all in src/errors, each a LabError exported from the browser-safe /errors entry', () => {
    const declared = declaredErrorClasses();
    expect(declared.size).toBeGreaterThanOrEqual(20);
    expect(declared.size).toBeLessThanOrEqual(30);
    expect([...declared.values()].filter((file) => !file.startsWith(join('src', 'errors')))).toEqual([]);
    expect([...declared.keys()].filter((name) => !(name in errors))).toEqual([]);
    declared.delete('LabError');
    for (const name of declared.keys()) {
      const Class = errors[name] as abstract new (...args: never[]) => unknown;
      expect(Class.prototype, name).toBeInstanceOf(LabError);
    }
    expect(labMain.LabError).toBe(LabError);
  });

  it('the Node, training and evaluation entries add no error classes of their own', () => {
    for (const entry of [labNode, labTraining, labEvalNode]) {
      const classes = Object.entries(entry).filter(
        ([, v]) => typeof v === 'function' && (v as { prototype?: unknown }).prototype instanceof Error,
      );
      expect(classes.map(([name]) => name)).toEqual([]);
    }
  });
});
