/**
 * Models: the WebGPU probe's findings (src/gpu/probe.ts) in plain words, and the WebLLM models the probe's
 * recommendation says would run here. The probe module (and WebLLM's model list with it) is imported when this
 * page opens, never on first load. Choosing, downloading and deleting a model is not built yet: the page says so.
 */
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import type { GpuLike, GpuReport, Recommendation } from '../../../src/gpu/probe';
import { Term } from '../glossary';
import { NotBuilt } from '../notbuilt';

const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20).toLocaleString('en')} MB`;

/** The probe's report as sentences a student can read. */
export function describeGpu(report: GpuReport): string[] {
  if (!report.adapter) return [report.message];
  const a = report.adapter;
  const name = [a.vendor, a.architecture, a.description].filter(Boolean).join(' · ') || 'an unnamed adapter';
  return [
    `Your browser offers WebGPU, with ${name}.`,
    a.software
      ? 'It is a software adapter (the graphics work runs on the CPU), so language models would be very slow here; template mode is the better choice.'
      : 'It is a hardware adapter: small language models can run in this page.',
    a.shaderF16
      ? 'It supports 16-bit floating point in shaders (shader-f16), so both f16 and f32 model builds can load.'
      : 'It does not support 16-bit floating point in shaders (shader-f16): only f32 model builds can load, and the lab refuses f16 ones before any download.',
    `The largest single GPU buffer it allows is ${mb(a.limits.maxBufferSize)}, and the largest storage binding ${mb(a.limits.maxStorageBufferBindingSize)}.`,
  ];
}

export default function Models() {
  const [found, setFound] = useState<{ report: GpuReport; rec: Recommendation } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const { probeGpu, recommendModels } = await import('../../../src/gpu/probe');
        const nav = navigator as Navigator & { gpu?: GpuLike; deviceMemory?: number };
        const report = await probeGpu(nav.gpu);
        const rec = recommendModels(report, nav.deviceMemory ? { deviceMemoryGiB: nav.deviceMemory } : {});
        if (live) setFound({ report, rec });
      } catch (e) {
        if (live) setError(`The GPU probe failed: ${(e as Error).message}`);
      }
    })();
    return () => {
      live = false;
    };
  }, []);
  return html`<section aria-labelledby="gpu">
      <h2 id="gpu">Your graphics hardware</h2>
      ${error && html`<p role="alert" class="error">${error}</p>`}
      ${!found && !error && html`<p class="muted" aria-live="polite">Asking the browser about WebGPU…</p>`}
      ${
        found &&
        html`<div role="status" class="gpu-findings">
          ${describeGpu(found.report).map((s) => html`<p>${s}</p>`)}
          ${
            found.report.adapter &&
            html`<h3>Models that should run here</h3>
              <p>${found.rec.reason}</p>
              ${
                found.rec.modelIds.length > 0 &&
                html`<ol>
                  ${found.rec.modelIds.slice(0, 5).map((id) => html`<li><code>${id}</code></li>`)}
                </ol>`
              }`
          }
        </div>`
      }
    </section>
    <section aria-labelledby="choose">
      <h2 id="choose">Choosing a model</h2>
      <${NotBuilt}
        >Picking a WebLLM model or a local OpenAI-compatible server, its download progress, the cache list and
        deletion are not built in this page yet. Every page works in <${Term} term="template mode" /> without a
        model.</${NotBuilt}
      >
    </section>`;
}
