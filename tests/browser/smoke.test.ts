import { afterEach, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from './harness';

describe('browser harness smoke test', () => {
  let p: OpenedPage | undefined;
  afterEach(async () => {
    await p?.close();
    p = undefined;
  });

  it('headless chromium exposes a WebGPU adapter (SwiftShader, no shader-f16)', async () => {
    p = await openPage('smoke');
    const report = await p.run<{ webgpu: boolean; features: string[]; architecture: string; vendor: string }>(
      {
        kind: 'adapter',
      },
    );
    expect(report.webgpu).toBe(true);
    expect(report.architecture).toBe('swiftshader');
    expect(report.features).not.toContain('shader-f16');
  });

  it('round-trips a structured message through a module worker', async () => {
    p = await openPage('smoke');
    const value = { text: 'hello', n: [1, 2, 3] };
    expect(await p.run({ kind: 'echo', value })).toEqual({ echoed: value, inWorker: true });
    expect(p.requests.some((u) => /echo\.worker.*\.js$/.test(u))).toBe(true);
  });

  it('rethrows page-side errors with their name, message and primitive fields', async () => {
    p = await openPage('smoke');
    await expect(
      p.run({ kind: 'throw', name: 'CustomError', message: 'boom', code: 7 }),
    ).rejects.toMatchObject({
      name: 'CustomError',
      message: 'boom',
      details: { code: 7 },
    });
  });
});
