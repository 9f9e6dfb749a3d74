/** The command line's shared parts: the one number parser, ranges in --help, messages in option names. */
import { describe, expect, it } from 'vitest';
import { HELP as EVALUATE_HELP, main as evaluateMain } from '../../../cli/evaluate';
import { parseArgs } from 'node:util';
import {
  cliMessage,
  cliSetting,
  parseArgsMessage,
  parseCommandLine,
  parseNumber,
  UsageError,
} from '../../../cli/options';
import { outputConflictError } from '../../../src/io/errors';
import { storedRunExistsError } from '../../../src/jobs/errors';
import { privacyError, redirectRefusedError } from '../../../src/llm/errors';
import { constructionCheckpointError } from '../../../src/memory/construct';
import { memoryExistsError } from '../../../src/memory/store';
import {
  HELP as PRINCIPLES_HELP,
  main as principlesMain,
  parsePrinciplesArgs,
} from '../../../cli/principles';
import { parseValidateArgs } from '../../../cli/validate-sim';
import { HELP as SIMULATE_HELP } from '../../../cli/simulate';
import { HELP as TRAIN_HELP, parseTrainArgs } from '../../../cli/train';
import { ConfigError } from '../../../src/errors';

const io = () => {
  const err: string[] = [];
  return { err, io: { stdout: () => {}, stderr: (s: string) => void err.push(s), isTTY: false } };
};

describe('parseNumber (every numeric option)', () => {
  it('integers: plain digits only, in range', () => {
    const spec = { integer: true, min: 1, max: 16 };
    expect(parseNumber('k', '12', spec)).toBe(12);
    expect(parseNumber('k', '+3', spec)).toBe(3);
    for (const bad of ['1.5', '1e3', '1e1', '0x10', '1_0', '', ' ', 'ten', '17', '0', 'Infinity'])
      expect(() => parseNumber('k', bad, spec), bad).toThrow(UsageError);
    expect(() => parseNumber('k', '1e1', spec)).toThrow('--k must be an integer in 1 to 16, got "1e1"');
  });

  it('numbers: plain decimals; exclusive bounds refused and written as such', () => {
    const spec = { integer: false, min: 0, max: 1, minExclusive: true, maxExclusive: true };
    expect(parseNumber('f', '0.25', spec)).toBe(0.25);
    expect(parseNumber('f', '.5', spec)).toBe(0.5);
    for (const bad of ['0', '1', '1e-1', '-0.5', 'NaN'])
      expect(() => parseNumber('f', bad, spec), bad).toThrow(UsageError);
    expect(() => parseNumber('f', '1', spec)).toThrow('--f must be a number > 0 and < 1, got "1"');
  });
});

describe('parseArgsMessage', () => {
  it("keeps Node's first sentence for a command with positionals, not its advice on '--' (with its uneven quotes)", () => {
    const options = { out: { type: 'string' } } as const;
    let err: unknown;
    try {
      parseArgs({ args: ['query', '--outt'], options, strict: true, allowPositionals: true });
    } catch (e) {
      err = e;
    }
    expect((err as Error).message).toContain('positional');
    expect(parseArgsMessage(err, options)).toBe("Unknown option '--outt' (did you mean --out?)");
  });
});

describe('parseCommandLine', () => {
  const options = {
    task: { type: 'string' },
    backend: { type: 'string', multiple: true },
    json: { type: 'boolean' },
  } as const;
  it('refuses a single-value option given twice, in either spelling, instead of keeping the last', () => {
    expect(() => parseCommandLine(['--task', 'esconv', '--task', 'p4g'], options)).toThrow(
      new UsageError('--task is given twice; give it once'),
    );
    expect(() => parseCommandLine(['--task=esconv', '--task', 'p4g'], options)).toThrow(
      /--task is given twice/,
    );
    expect(() => parseCommandLine(['--json', '--json'], options)).toThrow(/--json is given twice/);
  });
  it('validate-sim and principles, which parse their own command lines, refuse one too', () => {
    expect(() => parseValidateArgs(['--task', 'cb', '--task', 'p4g'])).toThrow(
      '--task is given twice; give it once',
    );
    expect(() => parsePrinciplesArgs(['query', '--k', '2', '--k', '3'])).toThrow('--k is given twice');
  });
  it('keeps every value of a repeatable option', () => {
    expect(parseCommandLine(['--backend', 'a', '--backend', 'b', '--task', 'cb'], options)).toMatchObject({
      backend: ['a', 'b'],
      task: 'cb',
    });
  });
});

describe('--help ranges match the checks', () => {
  it('an enum option lists its values once: in its description when that names them, else after it', () => {
    const task = SIMULATE_HELP.split('\n').find((l) => l.trimStart().startsWith('--task')) ?? '';
    expect(task.match(/esconv/g)).toHaveLength(1);
    const seedSet = SIMULATE_HELP.split('\n').find((l) => l.trimStart().startsWith('--seed-set')) ?? '';
    expect(seedSet.match(/emollm-iclr/g)).toHaveLength(1);
    expect(SIMULATE_HELP).toMatch(/--route MODE +.*\(stochastic \| deterministic; default stochastic\)/);
  });

  it('train --eval-fraction: exclusive in help and check', () => {
    expect(TRAIN_HELP).toMatch(/--eval-fraction F[\s\S]*?range > 0 and < 1/);
    expect(() => parseTrainArgs(['--task', 'cb', '--out', 'x', '--eval-fraction', '1'])).toThrow(
      '--eval-fraction must be a number > 0 and < 1, got "1"',
    );
    expect(() => parseTrainArgs(['--task', 'cb', '--out', 'x', '--steps', '1.5'])).toThrow(UsageError);
    expect(() => parseTrainArgs(['--task', 'cb', '--out', 'x', '--steps', '1e3'])).toThrow(UsageError);
  });

  it('evaluate --workers: the documented range is the checked one (values above the cores are capped)', async () => {
    expect(EVALUATE_HELP).toMatch(
      /--workers N +worker threads for template policies \(range 1 to 1,000,000, capped/,
    );
    for (const bad of ['0', '1.5', '1000001']) {
      const { err, io: out } = io();
      expect(await evaluateMain(['--task', 'cb', '--policy', 'random', '--workers', bad], out), bad).toBe(2);
      expect(err.join('')).toContain(`--workers must be an integer in 1 to 1,000,000, got "${bad}"`);
    }
  });
});

describe('principles --help: every numeric option has its range, and the range is the one checked', () => {
  it('documents the ranges', () => {
    for (const [flag, range] of [
      ['build-size', '1 to 1,000,000'],
      ['split-seed', '0 to 4,294,967,295'],
      ['episodes', '1 to 100,000'],
      ['max-attempts', '0 to 20'],
      ['rng-seed', '0 to 4,294,967,295'],
      ['k', '1 to 100'],
    ])
      expect(PRINCIPLES_HELP, flag).toMatch(new RegExp(`--${flag} N [\\s\\S]*?\\(range ${range}[;)]`));
  });

  it('an out-of-range value exits 2 with the plain message, not the job schema text', async () => {
    for (const [argv, message] of [
      [['build', '--episodes', '100001'], '--episodes must be an integer in 1 to 100,000, got "100001"'],
      [['build', '--max-attempts', '21'], '--max-attempts must be an integer in 0 to 20, got "21"'],
      [
        ['query', '--memory', 'm.json', '--text', 'x', '--k', '101'],
        '--k must be an integer in 1 to 100, got "101"',
      ],
    ] as const) {
      const { err, io: out } = io();
      expect(await principlesMain([...argv, '--task', 'cb', '--out', 'never.json'], out), argv[1]).toBe(2);
      expect(err.join('')).toBe(`error: ${message}\nRun with --help for the options.\n`);
      expect(err.join('')).not.toMatch(/build-principles:|Too big/);
    }
  });
});

describe('messages name command-line options, not library fields', () => {
  it('an error that names a setting is rendered with its option; its own message keeps the library words', () => {
    const run = outputConflictError('x', 'a run', { pass: ['resume', 'overwrite'] });
    expect(run.message).toBe(
      'output x already holds a run; pass resume to continue it or overwrite to replace it',
    );
    expect(run.settings).toEqual(['resume', 'overwrite']);
    expect(cliMessage(run)).toBe(
      'output x already holds a run; pass --resume to continue it or --overwrite to replace it',
    );
    const file = outputConflictError('f', 'a file (3 bytes)', {
      pass: ['overwrite'],
      orElse: 'choose another path',
    });
    expect(cliMessage(file)).toBe(
      'output f already holds a file (3 bytes); pass --overwrite to replace it or choose another path',
    );
    expect(cliMessage(outputConflictError('d', 'a file', 'give the path of a folder'))).toBe(
      'output d already holds a file; give the path of a folder',
    );
    const remote = privacyError('http://10.0.0.2/v1');
    expect(remote.message).toContain('or pass allowRemote: true');
    expect(cliMessage(remote)).toMatch(
      /use a local server \(127\.0\.0\.1, localhost, \[::1\]\) or pass --allow-remote$/,
    );
    expect(cliMessage(redirectRefusedError('http://127.0.0.1:8/v1', 'http://example.com/'))).toContain(
      'nothing was sent there (pass --allow-remote to follow redirects to remote hosts)',
    );
    expect(cliMessage(memoryExistsError('m'))).toBe(
      'a principle memory named "m" already exists; pass --overwrite to overwrite it',
    );
    expect(cliMessage(storedRunExistsError('r1'))).toBe(
      'a run "r1" is stored; pass --resume to continue it or --overwrite to replace it',
    );
  });

  it('a job configuration error names each failing field by its option, or by its key when it has none', () => {
    const error = ConfigError.fromIssues('simulate', [
      { path: 'language.default.model', message: 'backend openai needs a model' },
      { path: 'language.roles.judge.baseUrl', message: 'invalid URL' },
      { path: 'cstpo.clipRatio', message: 'too big' },
      { path: '', message: 'unknown key' },
    ]);
    expect(error.message).toBe(
      'simulate: language.default.model: backend openai needs a model; language.roles.judge.baseUrl: invalid URL; ' +
        'cstpo.clipRatio: too big; config: unknown key',
    );
    expect(cliMessage(error)).toBe(
      'simulate: --model: backend openai needs a model; --base-url: invalid URL; cstpo.clipRatio: too big; ' +
        'config: unknown key',
    );
    expect(new ConfigError('JOB_CONFIG_INVALID', 'evaluate: drop the worker pool').render(cliSetting)).toBe(
      'evaluate: drop the worker pool',
    );
  });

  it('a principles checkpoint of another build names the option that differs', () => {
    const mismatch = (key: string, found: string, expected: string) =>
      constructionCheckpointError('b.jsonl', 1, `made by another build: ${key} is …`, {
        key,
        found,
        expected,
      });
    expect(cliMessage(mismatch('maxAttempts', '2', '3'))).toBe(
      'b.jsonl line 1: made by another build: --max-attempts is 2, this build has 3',
    );
    expect(cliMessage(mismatch('seedIds', '["a"]', '["b"]'))).toBe(
      'b.jsonl line 1: made by another build: the seed list (--seeds, --split) is ["a"], this build has ["b"]',
    );
    expect(cliMessage(mismatch('simulatorVersion', '"cogsim-0"', '"cogsim-1"'))).toContain(
      'made by another build: simulatorVersion is "cogsim-0"',
    );
  });

  it('errors that name no setting, and other errors, keep their message', () => {
    expect(cliMessage(new UsageError('--k must be an integer'))).toBe('--k must be an integer');
    expect(cliMessage(new Error('plain'))).toBe('plain');
    expect(cliMessage('text')).toBe('text');
    expect(cliSetting('default.kind')).toBe('--backend');
    expect(cliSetting('overwrite')).toBe('--overwrite');
    expect(cliSetting('horizon')).toBe('horizon');
  });
});

describe('train --seeds [TASK=]PATH|bundled', () => {
  const data = '../shared/data/cb/craigslistbargain-valid.jsonl';
  it('takes a bare path, TASK=PATH for the task, bundled; refuses another task and a missing path', () => {
    const parse = (...more: string[]) => parseTrainArgs(['--task', 'cb', '--out', 'x', ...more]);
    expect(parse('--seeds', data)).toMatchObject({ seeds: data });
    expect(parse('--seeds', `cb=${data}`)).toMatchObject({ seeds: data });
    expect(parse('--seeds', 'bundled', '--eval-seeds', `cb=${data}`)).toMatchObject({
      seeds: 'bundled',
      evalSeeds: data,
    });
    expect(() => parse('--seeds', `esconv=${data}`)).toThrow('--seeds esconv=');
    expect(() => parse('--eval-seeds', 'cb=nope.jsonl')).toThrow('--eval-seeds: no such file or folder');
    // Resuming without --task: TASK=PATH or a bare path (compared with the stored run's source).
    expect(parseTrainArgs(['--resume', '--out', 'x', '--seeds', `cb=${data}`])).toMatchObject({
      seeds: data,
    });
    expect(parseTrainArgs(['--resume', '--out', 'x', '--seeds', data])).toMatchObject({ seeds: data });
  });
});

describe('parseArgs errors in the commands’ words', () => {
  const options = {
    policy: { type: 'string' },
    episodes: { type: 'string' },
    task: { type: 'string' },
  } as const;
  it('an unknown option near a known one suggests it; one far from all does not', () => {
    expect(() => parseCommandLine(['--polcy', 'random'], options)).toThrow(
      new UsageError("Unknown option '--polcy' (did you mean --policy?)"),
    );
    expect(() => parseCommandLine(['--bogus'], options)).toThrow(new UsageError("Unknown option '--bogus'"));
    expect(() => parseValidateArgs(['--resampels', '100'])).toThrow(/did you mean --resamples\?/);
  });

  it('a missing value names the option', () => {
    expect(() => parseCommandLine(['--episodes'], options)).toThrow(
      new UsageError('--episodes needs a value'),
    );
  });
});
