import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const MARK = 'WEBLLM-LOADED';

/**
 * Runs `script` (an ES module body) in a fresh Node process with tsx, like the CLIs, and says whether any file
 * of `@mlc-ai/web-llm` was resolved (a module-resolution hook writes a mark to stderr for each one).
 */
function loadsWebLlm(script: string): boolean {
  const hook =
    'data:text/javascript,' +
    encodeURIComponent(
      'export async function resolve(s, c, next) { const r = await next(s, c);' +
        ` if (r.url.includes('@mlc-ai/web-llm')) process.stderr.write('${MARK}\\n'); return r; }`,
    );
  const register = `data:text/javascript,import{register}from"node:module";register(${JSON.stringify(hook)})`;
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--import', register, '--input-type=module', '-e', script],
    { encoding: 'utf8', timeout: 60_000 },
  );
  if (run.status !== 0) throw new Error(`child failed (${run.status}): ${run.stderr}`);
  return run.stderr.includes(MARK);
}

describe('WebLLM is imported lazily (template runs do not pay for it)', () => {
  it('importing the llm folder, roles and the simulate job loads no WebLLM file; creating a backend does', () => {
    const imports =
      "const llm = await import('./src/llm/index.ts'); await import('./src/roles/index.ts');" +
      "await import('./src/jobs/simulate.ts');" +
      "new llm.WebLlmBackend({ modelId: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC', gpu: undefined });";
    expect(loadsWebLlm(imports)).toBe(false);
    // the control: the same check sees the import once a backend is really created
    const create =
      "const llm = await import('./src/llm/index.ts');" +
      "await llm.WebLlmBackend.create({ modelId: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC', gpu: undefined });";
    expect(loadsWebLlm(create)).toBe(true);
  }, 120_000);
});
