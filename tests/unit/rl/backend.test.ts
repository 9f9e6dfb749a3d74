import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { CPU_BACKEND_PREFERENCE, selectBackend, type TfBackendApi } from '../../../src/gpu/backend';

/** A tfjs-like namespace: `factories` lists registered backends and what initialising each does. */
function fakeTf(factories: Record<string, 'ok' | 'false' | 'throw'>): TfBackendApi & { active: string } {
  return {
    active: 'none',
    // tfjs's setBackend swallows a factory's error (it only logs it); a failing factory here throws its cause.
    findBackendFactory: (name) =>
      name in factories
        ? () => {
            if (factories[name] === 'false') throw new TypeError(`${name}: no context could be created`);
            return {};
          }
        : null,
    async setBackend(name) {
      if (factories[name] === 'throw') throw new Error(`${name} adapter lost`);
      if (factories[name] === 'false') return false;
      this.active = name;
      return true;
    },
    getBackend() {
      return this.active;
    },
  };
}

describe('selectBackend', () => {
  it('skips unregistered, failing and throwing backends with their reasons', async () => {
    const tfLike = fakeTf({ webgl: 'false', wasm: 'throw', cpu: 'ok' });
    const choice = await selectBackend(tfLike);
    expect(choice.backend).toBe('cpu');
    expect(choice.attempts).toEqual([
      { name: 'webgpu', ok: false, reason: 'not registered' },
      {
        name: 'webgl',
        ok: false,
        reason: 'initialisation failed: TypeError: webgl: no context could be created',
      },
      { name: 'wasm', ok: false, reason: 'initialisation threw: wasm adapter lost' },
      { name: 'cpu', ok: true },
    ]);
    expect(choice.summary).toMatch(
      /^cpu \(skipped webgpu: not registered; webgl: .*; wasm: .*adapter lost\)$/,
    );
  });

  it('CPU work takes wasm where it initialises, else cpu with the reason recorded', async () => {
    const withWasm = await selectBackend(fakeTf({ webgpu: 'ok', wasm: 'ok', cpu: 'ok' }), {
      prefer: CPU_BACKEND_PREFERENCE,
    });
    expect(withWasm).toMatchObject({ backend: 'wasm', summary: 'wasm' });
    const without = await selectBackend(fakeTf({ cpu: 'ok' }), { prefer: CPU_BACKEND_PREFERENCE });
    expect(without).toMatchObject({ backend: 'cpu', summary: 'cpu (skipped wasm: not registered)' });
  });

  it('takes the first backend that initialises', async () => {
    const choice = await selectBackend(fakeTf({ webgpu: 'ok', cpu: 'ok' }));
    expect(choice).toMatchObject({ backend: 'webgpu', summary: 'webgpu' });
  });

  it('throws BackendError listing every reason when none works', async () => {
    const err = await selectBackend(fakeTf({ webgpu: 'false' }), { prefer: ['webgpu', 'cpu'] }).catch(
      (e) => e,
    );
    expect(err).toMatchObject({ name: 'BackendError', code: 'GPU_NO_BACKEND' });
    expect(err.tried).toHaveLength(2);
    expect(err.message).toMatch(/webgpu .*cpu \(not registered\)/);
  });

  it('records the cause even when a retried factory succeeds, and disposes what it made', async () => {
    let disposed = 0;
    const tfLike = {
      ...fakeTf({ cpu: 'ok' }),
      findBackendFactory: (name: string) => (name === 'webgl' ? () => ({ dispose: () => disposed++ }) : null),
      async setBackend(name: string) {
        return name !== 'webgl';
      },
    };
    const err = await selectBackend(tfLike, { prefer: ['webgl'] }).catch((e) => e);
    expect(err).toMatchObject({ name: 'BackendError', code: 'GPU_NO_BACKEND' });
    expect(err.code).toBe('GPU_NO_BACKEND');
    expect(err.tried[0].reason).toMatch(/cause not reported: a second initialisation succeeded/);
    expect(disposed).toBe(1);
  });

  it('ends on the cpu backend in Node with the real tfjs', async () => {
    const choice = await selectBackend(tf);
    expect(choice.backend).toBe('cpu');
    expect(tf.getBackend()).toBe('cpu');
    expect(choice.attempts.find((a) => a.name === 'webgpu')).toEqual({
      name: 'webgpu',
      ok: false,
      reason: 'not registered',
    });
  });
});
