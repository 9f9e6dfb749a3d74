/**
 * The summary of WebLLM's prebuilt model list (src/gpu/webllm-models.ts, written by scripts/webllm-models.ts) is
 * the installed WebLLM's list, field for field, and the recommendation made from it is the one made from
 * WebLLM's own records; the probe module reaches the summary without importing WebLLM.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { recommendModels, type GpuReport } from '../../../src/gpu';
import { summarizeModelRecord } from '../../../src/gpu/model-record';
import { WEBLLM_MODELS, WEBLLM_MODELS_VERSION } from '../../../src/gpu/webllm-models';

const root = join(__dirname, '../../..');

describe('WebLLM model list summary', () => {
  it('is the installed WebLLM’s prebuilt list (rerun scripts/webllm-models.ts after an upgrade)', () => {
    const installed = JSON.parse(
      readFileSync(join(root, 'node_modules/@mlc-ai/web-llm/package.json'), 'utf8'),
    ) as { version: string };
    expect(WEBLLM_MODELS_VERSION).toBe(installed.version);
    expect(WEBLLM_MODELS).toEqual(prebuiltAppConfig.model_list.map(summarizeModelRecord));
  });

  it('recommends the same models as WebLLM’s own records, on hardware and on a software adapter', () => {
    const adapter = (software: boolean, shaderF16: boolean): GpuReport => ({
      webgpu: true,
      adapter: {
        vendor: 'v',
        architecture: software ? 'swiftshader' : 'ampere',
        device: '',
        description: '',
        isFallbackAdapter: false,
        software,
        shaderF16,
        features: shaderF16 ? ['shader-f16'] : [],
        limits: {
          maxBufferSize: 2 ** 30,
          maxStorageBufferBindingSize: 2 ** 30,
          maxComputeWorkgroupStorageSize: 32768,
          maxComputeInvocationsPerWorkgroup: 256,
          maxComputeWorkgroupSizeX: 256,
          maxStorageBuffersPerShaderStage: 8,
        },
      },
    });
    for (const report of [adapter(false, true), adapter(false, false), adapter(true, false)]) {
      for (const deviceMemoryGiB of [undefined, 8]) {
        const options = deviceMemoryGiB === undefined ? {} : { deviceMemoryGiB };
        const fromSummary = recommendModels(report, options);
        expect(fromSummary.modelIds.length).toBeGreaterThan(0);
        expect(fromSummary).toEqual(
          recommendModels(report, { ...options, modelList: prebuiltAppConfig.model_list }),
        );
      }
    }
  });

  it('the probe and the model list import no WebLLM code (only its types)', () => {
    for (const file of ['probe.ts', 'model-record.ts', 'webllm-models.ts']) {
      const source = readFileSync(join(root, 'src/gpu', file), 'utf8');
      const imports = source.match(/^import\s(?!type\b).*$/gm) ?? [];
      expect(
        imports.filter((l) => /web-llm/.test(l)),
        file,
      ).toEqual([]);
    }
  });
});
