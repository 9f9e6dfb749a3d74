import { prebuiltAppConfig, type ModelRecord } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import {
  probeGpu,
  quantizationOf,
  recommendModels,
  requiresShaderF16,
  type AdapterLike,
  type GpuLike,
} from '../../../src/gpu';

/** A GPU object with one adapter, shaped like WebGPU's (features is a set-like, limits an object). */
function fakeGpu(adapter: (Partial<AdapterLike> & { featureList?: string[] }) | null): GpuLike {
  return {
    requestAdapter: async () =>
      adapter && {
        features: new Set(adapter.featureList ?? []),
        limits: adapter.limits ?? { maxBufferSize: 2 ** 31, maxStorageBufferBindingSize: 2 ** 30 },
        info: adapter.info,
      },
  };
}

const hardware = fakeGpu({
  featureList: ['shader-f16', 'timestamp-query'],
  info: {
    vendor: 'nvidia',
    architecture: 'ampere',
    device: '',
    description: 'RTX',
    isFallbackAdapter: false,
  },
});
const swiftshader = fakeGpu({
  featureList: ['timestamp-query'],
  info: {
    vendor: 'google',
    architecture: 'swiftshader',
    device: '',
    description: '',
    isFallbackAdapter: false,
  },
  limits: { maxBufferSize: 2 ** 30, maxStorageBufferBindingSize: 2 ** 27 },
});

describe('probeGpu', () => {
  it('reports adapter info, shader-f16 and the key limits', async () => {
    const report = await probeGpu(hardware);
    expect(report.adapter).toMatchObject({
      vendor: 'nvidia',
      architecture: 'ampere',
      software: false,
      shaderF16: true,
      features: ['shader-f16', 'timestamp-query'],
      limits: { maxBufferSize: 2 ** 31, maxStorageBufferBindingSize: 2 ** 30, maxComputeWorkgroupSizeX: 0 },
    });
  });

  it('flags SwiftShader as a software adapter without shader-f16', async () => {
    const report = await probeGpu(swiftshader);
    expect(report.adapter).toMatchObject({ software: true, shaderF16: false });
  });

  it('explains a missing WebGPU, a missing adapter and a failing requestAdapter, naming alternatives', async () => {
    for (const gpu of [
      undefined,
      fakeGpu(null),
      { requestAdapter: () => Promise.reject(new Error('blocked')) } satisfies GpuLike,
    ]) {
      const report = await probeGpu(gpu);
      expect(report.adapter).toBeNull();
      if (report.adapter === null) {
        expect(report.message).toMatch(/another browser|browser with WebGPU/);
        expect(report.message).toMatch(/OpenAI-compatible server/);
        expect(report.message).toMatch(/template mode/);
      }
    }
    expect(await probeGpu(undefined)).toMatchObject({ webgpu: false });
  });
});

describe('requiresShaderF16', () => {
  it('decides by quantisation code and declared features, not by any "F16" in the id', () => {
    expect(quantizationOf('Qwen2.5-0.5B-Instruct-q4f16_1-MLC')).toBe('q4f16_1');
    expect(requiresShaderF16('Qwen2.5-0.5B-Instruct-q4f16_1-MLC')).toBe(true);
    expect(requiresShaderF16('Llama-3-70B-Instruct-q3f16_1-MLC')).toBe(true);
    expect(requiresShaderF16('Qwen3-0.6B-q0f16-MLC')).toBe(true);
    expect(requiresShaderF16('Qwen2.5-0.5B-Instruct-q4f32_1-MLC')).toBe(false);
    expect(requiresShaderF16('Ministral-3-3B-Instruct-2512-BF16-q4f32_1-MLC')).toBe(false);
    expect(requiresShaderF16('my-model', { required_features: ['shader-f16'] })).toBe(true);
    expect(requiresShaderF16('my-model')).toBe(false);
  });

  it('classifies every prebuilt record with a quantisation code', () => {
    for (const r of prebuiltAppConfig.model_list) expect(quantizationOf(r.model_id)).not.toBeNull();
  });
});

describe('recommendModels', () => {
  it('without shader-f16 recommends only f32 chat models within budget, smallest first on software', async () => {
    const rec = recommendModels(await probeGpu(swiftshader));
    expect(rec.modelIds.length).toBeGreaterThan(3);
    const byId = new Map(prebuiltAppConfig.model_list.map((r) => [r.model_id, r]));
    const sizes = rec.modelIds.map((id) => byId.get(id)!.vram_required_MB!);
    expect([...sizes].sort((a, b) => a - b)).toEqual(sizes);
    for (const id of rec.modelIds) {
      expect(id).toMatch(/f32/);
      expect(byId.get(id)!.vram_required_MB).toBeLessThanOrEqual(2048);
      expect(byId.get(id)!.model_type ?? 0).toBe(0);
      expect(id).not.toMatch(/Coder|Math|embed|vision/i);
    }
    expect(rec.reason).toMatch(/software adapter/);
  });

  it('with shader-f16 and 8 GiB puts the largest fitting model first, f16 allowed', async () => {
    const rec = recommendModels(await probeGpu(hardware), { deviceMemoryGiB: 8 });
    expect(rec.budgetMB).toBe(4096);
    const byId = new Map(prebuiltAppConfig.model_list.map((r) => [r.model_id, r]));
    const sizes = rec.modelIds.map((id) => byId.get(id)!.vram_required_MB!);
    expect([...sizes].sort((a, b) => b - a)).toEqual(sizes);
    expect(sizes.every((s) => s <= 4096)).toBe(true);
    expect(rec.modelIds.some((id) => /f16/.test(id))).toBe(true);
  });

  it('respects maxBufferSize and reports when nothing fits', async () => {
    const list: ModelRecord[] = [
      {
        model: 'x',
        model_id: 'big-buf-q4f32_1-MLC',
        model_lib: 'x',
        vram_required_MB: 100,
        buffer_size_required_bytes: 2 ** 31,
      },
      { model: 'x', model_id: 'ok-q4f32_1-MLC', model_lib: 'x', vram_required_MB: 100 },
    ];
    expect(recommendModels(await probeGpu(swiftshader), { modelList: list }).modelIds).toEqual([
      'ok-q4f32_1-MLC',
    ]);
    const none = recommendModels(await probeGpu(swiftshader), { modelList: list, deviceMemoryGiB: 0.1 });
    expect(none.modelIds).toEqual([]);
    expect(none.reason).toMatch(/no model fits/);
    expect(recommendModels(await probeGpu(undefined)).modelIds).toEqual([]);
  });
});

describe('probeGpu with an unreadable adapter', () => {
  it('reports it as unavailable with the cause instead of throwing a bare TypeError', async () => {
    const broken: GpuLike = {
      requestAdapter: async () =>
        ({
          get features(): AdapterLike['features'] {
            throw new TypeError("Cannot read properties of undefined (reading 'forEach')");
          },
          limits: {},
        }) as AdapterLike,
    };
    const report = await probeGpu(broken);
    expect(report.adapter).toBeNull();
    expect(report.webgpu).toBe(true);
    expect((report as { message: string }).message).toMatch(
      /features or limits cannot be read \(TypeError: Cannot read properties of undefined.*\); treated as no adapter\. Alternatives:/,
    );
    expect(recommendModels(report).modelIds).toEqual([]);
  });
});
