/** `simulate` with language backends: replay from the command line, validation of the backend options. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HELP, main, parseSimulateArgs, type SimulateReport } from '../../../cli/simulate';
import { fixtureSeed } from '../../fixtures/llm/seeds';
import p4gFixture from '../../fixtures/llm/episodes/p4g.replay.json';

const dir = mkdtempSync(join(tmpdir(), 'pdl-roles-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const seeds = join(dir, 'p4g-seed.jsonl');
writeFileSync(seeds, JSON.stringify(fixtureSeed('p4g')) + '\n');
const FIXTURE = 'tests/fixtures/llm/episodes/p4g.replay.json';

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    isTTY: false,
  });
  return { code, stdout, stderr };
}

const REPLAY = ['--task', 'p4g', '--seeds', seeds, '--policy', 'llm', '--episodes', '1'];

describe('simulate --backend', () => {
  it('runs a whole episode with every role on replay and reports calls and tokens per role', async () => {
    const r = await run([...REPLAY, '--backend', 'replay', '--fixtures', FIXTURE, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as SimulateReport;
    expect(report.summary.successRate.mean).toBe(1);
    const recorded = p4gFixture.expected.episodeUsage[0]!;
    expect(report.llm!.perEpisode).toEqual({
      calls: recorded.calls,
      promptTokens: recorded.promptTokens,
      completionTokens: recorded.completionTokens,
    });
    expect(report.llm!.roles.filter((u) => u.calls > 0).map((u) => u.role)).toEqual([
      'strategy',
      'realizer',
      'mode',
      'proposer',
      'responder',
      'judge',
    ]);
  });

  it('mixes backends per role: replay everywhere but a template judge', async () => {
    const r = await run([
      ...REPLAY,
      '--backend',
      'replay',
      '--backend',
      'judge=template',
      '--fixtures',
      FIXTURE,
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/LLM per episode\s+36\.0 calls/);
    expect(r.stdout).not.toMatch(/^\s+judge/m);
    const opts = parseSimulateArgs([
      ...REPLAY,
      '--backend',
      'replay',
      '--backend',
      'judge=template',
      '--fixtures',
      FIXTURE,
    ]);
    expect(opts).toMatchObject({
      language: { default: { kind: 'replay' }, roles: { judge: { kind: 'template' } } },
      fixtures: FIXTURE,
    });
  });

  it('refuses WebLLM in Node with a clear error', async () => {
    const r = await run([
      '--task',
      'esconv',
      '--backend',
      'webllm',
      '--model',
      'Qwen2.5-0.5B-Instruct-q4f32_1-MLC',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/WebLLM runs only in a browser/);
    expect(r.stderr).toMatch(/openai backend with a local server/);
  });

  it('validates the backend options', async () => {
    const cases: [string[], RegExp][] = [
      [['--backend', 'replay'], /needs --fixtures/],
      [['--fixtures', FIXTURE], /only read by the replay backend/],
      [['--backend', 'sim=gpt4'], /unknown backend "gpt4"/],
      [['--backend', 'critic=replay', '--fixtures', FIXTURE], /unknown role "critic"/],
      [['--backend', 'openai', '--model', 'm'], /--base-url: backend openai needs its server URL/],
      [['--backend', 'openai', '--base-url', 'http://127.0.0.1:8080/v1'], /model/],
      [['--backend', 'judge=openai', '--base-url', 'http://example.com/v1', '--model', 'm'], /non-loopback/],
      [['--model', 'm'], /only used with --backend webllm, openai or llamacpp/],
      [
        ['--backend', 'llamacpp', '--model', 'm.gguf', '--base-url', 'http://127.0.0.1:1/v1'],
        /--base-url is only/,
      ],
      [['--backend', 'replay', '--fixtures', FIXTURE, '--timeout', '5'], /--timeout and --max-answer-bytes/],
      [
        ['--backend', 'llamacpp', '--model', 'm.gguf', '--timeout', '0'],
        /--timeout must be a positive integer/,
      ],
      [['--backend', 'llamacpp', '--model', 'm.gguf', '--concurrency', '65'], /at most 64/],
      [['--backend', 'llamacpp'], /model/],
      [
        ['--backend', 'replay', '--fixtures', FIXTURE, '--candidates', '0'],
        /--candidates must be an integer in 1 to 16, got "0"/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await run(['--task', 'cb', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
    expect(
      parseSimulateArgs([
        '--task',
        'cb',
        '--backend',
        'openai',
        '--base-url',
        'http://example.com/v1',
        '--model',
        'm',
        '--allow-remote',
      ]),
    ).toMatchObject({ language: { default: { kind: 'openai', allowRemote: true } } });
  });

  it('reports a fixture file that is not JSON, naming it (a data error: exit 1)', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{ not json');
    const r = await run([...REPLAY, '--backend', 'replay', '--fixtures', bad]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(bad);
  });

  it('documents every backend option in --help', async () => {
    const r = await run(['--help']);
    expect(r.stdout).toBe(HELP + '\n');
    for (const flag of [
      '--backend',
      '--model',
      '--base-url',
      '--allow-remote',
      '--fixtures',
      '--candidates',
      '--lookahead',
    ]) {
      expect(HELP).toContain(flag);
    }
    expect(HELP).toMatch(/llm\s+strategy proposer \+ realizer roles/);
  });
});
