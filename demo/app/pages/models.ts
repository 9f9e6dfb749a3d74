/**
 * Models: the WebGPU probe's findings (src/gpu/probe.ts) in plain words; choosing what plays the language roles
 * (template rules, a WebLLM model from the prebuilt list, or a local OpenAI-compatible server) and for which
 * roles; loading (downloading) a WebLLM model with progress and Stop; the models in the browser's cache, with
 * deletion. The choice is kept in localStorage (models/choice.ts) for the other pages, and in the URL. The probe
 * is imported when this page opens, WebLLM and the backends when they are used, never on first load.
 *
 * The library does the refusing: `WebLlmBackend.load` refuses an f16 model without shader-f16 before starting a
 * worker or downloading anything, `OpenAiBackend` refuses a non-loopback URL without `allowRemote`; this page
 * says why in plain words. A choice is stored only once it has been checked (a WebLLM model: loaded; a server:
 * its address accepted), so a failure leaves the stored choice as it was.
 *
 * Opening the page loads the probe and WebLLM's model list (its summary, src/gpu/webllm-models.ts), not WebLLM:
 * the library is imported when a model is loaded or the cache is checked.
 */
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import type { GpuLike, GpuReport, Recommendation } from '../../../src/gpu/probe';
import type { LoadProgress, WebLlmBackend } from '../../../src/llm/webllm';
import { Field, Term } from '../glossary';
import { ModelCache } from '../models/cache';
import {
  MODEL_ROLES,
  readModelChoice,
  ROLE_WORDS,
  saveModelChoice,
  type ModelChoice,
  type ModelRole,
} from '../models/choice';
import { explainModelError } from '../models/explain';
import { param, setParams } from '../router';

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

/** A short description of a stored choice, for messages. */
export function describeChoice(c: ModelChoice): string {
  if (c.kind === 'template') return 'template mode (no language model)';
  const roles = c.roles.map((r) => ROLE_WORDS[r].replace(/ \(.*$/, '')).join(', ');
  return c.kind === 'webllm'
    ? `the WebLLM model ${c.model} for ${roles}`
    : `the model ${c.model} of the server ${c.baseUrl} for ${roles}`;
}

/** Inline styles of a checkbox or radio beside its words (the app's stylesheet stacks label contents). */
const ROW = 'display: flex; flex-direction: row; align-items: center; gap: 0.4rem';
const COLUMN = 'display: flex; flex-direction: column; gap: 0.3rem';

/** The three kinds of backend offered, with their words and glossary term. */
const KINDS = [
  { kind: 'template', label: 'Template rules (no language model)', term: 'template mode' },
  { kind: 'webllm', label: 'A model in this browser (WebLLM)', term: 'WebLLM' },
  { kind: 'openai', label: 'A local server (OpenAI-compatible)', term: 'local server' },
] as const;

type Found = { report: GpuReport; rec: Recommendation; models: { id: string; mb: number; f16: boolean }[] };

/** The form's choice from the URL (class mode), else the stored one. */
function initialChoice(): ModelChoice {
  const stored = readModelChoice();
  const kind = param('llm', stored.kind);
  const roles = param('roles', stored.kind === 'template' ? 'actor' : stored.roles.join(','))
    .split(',')
    .filter((r): r is ModelRole => (MODEL_ROLES as readonly string[]).includes(r));
  if (kind === 'webllm')
    return { kind, model: param('model', stored.kind === 'webllm' ? stored.model : ''), roles };
  if (kind === 'openai')
    return {
      kind,
      model: param('model', stored.kind === 'openai' ? stored.model : ''),
      baseUrl: param('url', stored.kind === 'openai' ? stored.baseUrl : 'http://127.0.0.1:11434/v1'),
      allowRemote: param('remote', stored.kind === 'openai' && stored.allowRemote ? '1' : '') === '1',
      roles,
    };
  return { kind: 'template' };
}

export default function Models() {
  const [found, setFound] = useState<Found | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<ModelChoice>(readModelChoice);
  const [form, setForm] = useState<ModelChoice>(initialChoice);
  const [loading, setLoading] = useState<{ progress: LoadProgress | null; abort: AbortController } | null>(
    null,
  );
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        // WebLLM's model list comes from its summary in src/gpu: WebLLM itself loads only with a model.
        const { probeGpu, recommendModels, requiresShaderF16, WEBLLM_MODELS } =
          await import('../../../src/gpu/probe');
        const nav = navigator as Navigator & { gpu?: GpuLike; deviceMemory?: number };
        const report = await probeGpu(nav.gpu);
        const rec = recommendModels(report, nav.deviceMemory ? { deviceMemoryGiB: nav.deviceMemory } : {});
        const models = WEBLLM_MODELS.filter((r) => r.model_type === undefined || r.model_type === 0).map(
          (r) => ({
            id: r.model_id,
            mb: r.vram_required_MB ?? 0,
            f16: requiresShaderF16(r.model_id, r),
          }),
        );
        if (live) setFound({ report, rec, models });
      } catch (e) {
        if (live) setError(`The GPU probe failed: ${(e as Error).message}`);
      }
    })();
    return () => {
      live = false;
    };
  }, []);

  const edit = (next: ModelChoice) => {
    setForm(next);
    setMessage(null);
    setParams(
      next.kind === 'template'
        ? { llm: 'template', model: '', url: '', remote: '', roles: '' }
        : {
            llm: next.kind,
            model: next.model,
            roles: next.roles.join(','),
            url: next.kind === 'openai' ? next.baseUrl : '',
            remote: next.kind === 'openai' && next.allowRemote ? '1' : '',
          },
    );
  };
  const store = (c: ModelChoice, text: string) => {
    saveModelChoice(c);
    setSaved(c);
    setMessage({ error: false, text });
  };
  const fail = (text: string) =>
    setMessage({
      error: true,
      text: `${text} The choice was not changed: pages keep using ${describeChoice(saved)}.`,
    });

  const loadWebLlm = async (c: ModelChoice & { kind: 'webllm' }) => {
    const abort = new AbortController();
    setLoading({ progress: null, abort });
    let backend: WebLlmBackend | undefined;
    try {
      const { WebLlmBackend } = await import('../../../src/llm/webllm');
      backend = await WebLlmBackend.create({ modelId: c.model, gpu: (navigator as { gpu?: GpuLike }).gpu });
      backend.onProgress((p) => setLoading({ progress: p, abort }));
      await backend.load({ signal: abort.signal });
      store(c, `Loaded ${c.model}; it is now in this browser’s cache. Pages use ${describeChoice(c)}.`);
    } catch (e) {
      fail(explainModelError(e, c.model));
    } finally {
      await backend?.unload();
      setLoading(null);
    }
  };
  const use = async (e: Event) => {
    e.preventDefault();
    setMessage(null);
    const c = form;
    if (c.kind === 'template') return store(c, 'Pages use template mode: no language model.');
    if (!c.model) return fail('Choose a model first.');
    if (c.roles.length === 0) return fail('Tick at least one role that should use the model.');
    if (c.kind === 'webllm') return loadWebLlm(c);
    try {
      const { OpenAiBackend } = await import('../../../src/llm/openai');
      new OpenAiBackend({
        baseUrl: c.baseUrl,
        model: c.model,
        ...(c.allowRemote ? { allowRemote: true } : {}),
      });
      store(
        c,
        `Pages use ${describeChoice(c)}.${c.allowRemote ? ' Dialogue text is sent to that computer.' : ''}`,
      );
    } catch (err) {
      fail(explainModelError(err, `The server ${c.baseUrl}`, true));
    }
  };
  const checkServer = async () => {
    if (form.kind !== 'openai') return;
    const c = form;
    setMessage(null);
    try {
      const { OpenAiBackend } = await import('../../../src/llm/openai');
      const backend = new OpenAiBackend({
        baseUrl: c.baseUrl,
        model: c.model,
        maxRetries: 0,
        timeoutMs: 15_000,
        ...(c.allowRemote ? { allowRemote: true } : {}),
      });
      const r = await backend.complete({ messages: [{ role: 'user', content: 'Say OK.' }], max_tokens: 8 });
      setMessage({ error: false, text: `The server answered: “${r.choices[0]?.message.content ?? ''}”.` });
    } catch (err) {
      setMessage({ error: true, text: explainModelError(err, `The server ${c.baseUrl}`, true) });
    }
  };

  const noF16 = found?.report.adapter ? !found.report.adapter.shaderF16 : true;
  const roles = form.kind === 'template' ? [] : form.roles;
  const setRole = (r: ModelRole, on: boolean) =>
    form.kind !== 'template' &&
    edit({ ...form, roles: MODEL_ROLES.filter((x) => (x === r ? on : roles.includes(x))) });
  const kindOf = (k: string): ModelChoice =>
    k === 'webllm'
      ? { kind: 'webllm', model: found?.rec.modelIds[0] ?? '', roles: roles.length ? roles : ['actor'] }
      : k === 'openai'
        ? {
            kind: 'openai',
            model: '',
            baseUrl: 'http://127.0.0.1:11434/v1',
            allowRemote: false,
            roles: roles.length ? roles : ['actor'],
          }
        : { kind: 'template' };
  const p = loading?.progress;

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
      <h2 id="choose">Choosing a <${Term} term="language model" /></h2>
      <p role="status" class="current">Pages now use ${describeChoice(saved)}.</p>
      <form onSubmit=${use}>
        <fieldset disabled=${loading !== null}>
          <legend>What plays the language roles</legend>
          <div class="choice-kinds" role="radiogroup" aria-label="Backend" style=${COLUMN}>
            ${KINDS.map(
              (k) =>
                html`<span style=${ROW}
                  ><label style=${ROW}
                    ><input
                      type="radio"
                      name="llm"
                      value=${k.kind}
                      checked=${form.kind === k.kind}
                      onChange=${() => edit(kindOf(k.kind))}
                    />${k.label}</label
                  ><${Term} term=${k.term} label="?"
                /></span>`,
            )}
          </div>
          ${
            form.kind === 'webllm' &&
            html`<${Field} id="m-model" label="WebLLM model" term="shader-f16">
              <select id="m-model" value=${form.model}
                onChange=${(e: Event) => edit({ ...form, model: (e.target as HTMLSelectElement).value })}>
                <option value="">choose a model…</option>
                ${(found?.models ?? []).map(
                  (m) =>
                    html`<option value=${m.id}>
                      ${m.id} · ${Math.round(m.mb)}
                      MB${m.f16 && noF16 ? ' · needs shader-f16 (not here)' : ''}
                    </option>`,
                )}
              </select>
            </${Field}>`
          }
          ${
            form.kind === 'openai' &&
            html`<${Field} id="m-url" label="Server address (API base URL)" term="loopback">
                <input id="m-url" type="url" value=${form.baseUrl} size="40"
                  onChange=${(e: Event) => edit({ ...form, baseUrl: (e.target as HTMLInputElement).value.trim() })} />
              </${Field}>
              <${Field} id="m-name" label="Model name on the server">
                <input id="m-name" value=${form.model} placeholder="qwen2.5:0.5b"
                  onChange=${(e: Event) => edit({ ...form, model: (e.target as HTMLInputElement).value.trim() })} />
              </${Field}>
              <label style=${ROW}><input type="checkbox" checked=${form.allowRemote}
                onChange=${(e: Event) => edit({ ...form, allowRemote: (e.target as HTMLInputElement).checked })} />
                Allow a server on another computer (dialogue text then leaves this machine)</label>`
          }
          ${
            form.kind !== 'template' &&
            html`<fieldset>
              <legend>
                Roles that use the model (<${Term} term="language role" label="what are roles?" />)
              </legend>
              ${MODEL_ROLES.map(
                (r) =>
                  html`<label style=${ROW}
                    ><input
                      type="checkbox"
                      checked=${roles.includes(r)}
                      onChange=${(e: Event) => setRole(r, (e.target as HTMLInputElement).checked)}
                    />
                    ${ROLE_WORDS[r]}</label
                  >`,
              )}
              <p class="muted">Unticked roles keep the template rules.</p>
            </fieldset>`
          }
          <button type="submit">
            ${form.kind === 'webllm' ? 'Download, load and use' : 'Use this choice'}
          </button>
          ${form.kind === 'openai' && html`<button type="button" onClick=${checkServer}>Check the server</button>`}
        </fieldset>
      </form>
      ${
        loading &&
        html`<div class="progress" role="status" aria-live="polite">
          <label
            >Loading ${form.kind === 'webllm' ? form.model : ''}:
            ${p ? `${Math.round(p.progress * 100)}%` : 'starting'}
            <progress max="1" value=${p?.progress ?? 0}></progress
          ></label>
          ${p && html`<span class="muted">${p.text}</span>`}
          <button type="button" onClick=${() => loading.abort.abort()}>Stop</button>
        </div>`
      }
      ${message && html`<p role=${message.error ? 'alert' : 'status'} class=${message.error ? 'error model-message' : 'model-message'}>${message.text}</p>`}
    </section>
    ${found && html`<${ModelCache} modelIds=${found.models.map((m) => m.id)} />`}`;
}
