/**
 * Models: the WebGPU probe's findings (src/gpu/probe.ts) in plain words; choosing what plays the language roles
 * (template rules, a WebLLM model from the prebuilt list, a GGUF model on the CPU through wllama — from an
 * address the person gives, e.g. a file served on this computer, or a file they pick — or a local
 * OpenAI-compatible server) and for which roles; loading (downloading) a model with progress and Stop; the
 * models in the browser's caches, with deletion. WebLLM's list is grouped: the models that fit this device (the
 * probe's adapter limits, shader-f16 and memory budget), the recommended one preselected; the others only on
 * request. The choice is kept in localStorage (models/choice.ts) for the other pages, and in the URL. The probe
 * is imported when this page opens, WebLLM and the backends when they are used, never on first load.
 *
 * The library does the refusing: `WebLlmBackend.load` refuses an f16 model without shader-f16 before starting a
 * worker or downloading anything, `OpenAiBackend` refuses a non-loopback URL without `allowRemote`; this page
 * says why in plain words. A choice is stored only once it has been checked (a WebLLM model: loaded; a server:
 * its address accepted), so a failure leaves the stored choice as it was.
 *
 * Opening the page loads the probe and WebLLM's model list (its summary, src/gpu/webllm-models.ts), not WebLLM:
 * the library (about 6 MB of JavaScript, twice: page and engine worker) is imported when a model is loaded or
 * the cache is checked, and a load first checks that the model host answers, so an offline machine fetches none
 * of it. wllama is imported only for the CPU engine.
 *
 * Consent is never taken from a link: `remote=1` in the address proposes a remote server, but the "Allow a
 * server on another computer" box starts unticked (the page says that the link asked for it).
 */
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import type {
  GpuLike,
  GpuReport,
  Recommendation,
  LoadProgress,
  WebLlmBackend,
  WllamaBackend,
} from '../../../src/entries/models';
import { Field, Term } from '../glossary';
import { GgufCache, ModelCache } from '../models/cache';
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
import { unsupportedModelError } from '../../../src/entries/models';

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
  if (c.kind === 'webllm') return `the WebLLM model ${c.model} for ${roles}`;
  if (c.kind === 'wllama') return `the GGUF model ${c.model} on this computer’s CPU (wllama) for ${roles}`;
  return `the model ${c.model} of the server ${c.baseUrl} for ${roles}`;
}

/** Inline styles of a checkbox or radio beside its words (the app's stylesheet stacks label contents). */
const ROW = 'display: flex; flex-direction: row; align-items: center; gap: 0.4rem';
const COLUMN = 'display: flex; flex-direction: column; gap: 0.3rem';

/** The four kinds of backend offered, with their words and glossary term. */
const KINDS = [
  { kind: 'template', label: 'Template rules (no language model)', term: 'template mode' },
  {
    kind: 'webllm',
    label: 'A model in this browser on the graphics card (WebLLM, needs WebGPU)',
    term: 'WebLLM',
  },
  {
    kind: 'wllama',
    label: 'A GGUF model in this browser on the processor (wllama, no WebGPU needed)',
    term: 'backend',
  },
  { kind: 'openai', label: 'A local server (OpenAI-compatible)', term: 'local server' },
] as const;

/** One WebLLM model of the list: id, weights URL (for the reachability check), GPU memory, f16 build. */
type ListedModel = { id: string; url: string; mb: number; f16: boolean };
type Found = { report: GpuReport; rec: Recommendation; models: ListedModel[] };

/** Whether the address asked for a remote server (`remote=1`): shown, never taken as consent. */
function linkAskedRemote(): boolean {
  return param('remote', '') === '1';
}

/**
 * Checks that WebLLM's model host answers for `model` (a HEAD request for its `mlc-chat-config.json`) before
 * WebLLM's library is loaded. Returns why not, or null when it answers.
 */
async function modelHostProblem(model: ListedModel | undefined): Promise<string | null> {
  if (!model?.url) return null;
  const url = `${model.url.replace(/\/$/, '')}/resolve/main/mlc-chat-config.json`;
  try {
    const r = await fetch(url, { method: 'HEAD' });
    return r.ok ? null : `the model host answered HTTP ${r.status} for ${url}`;
  } catch (e) {
    return `the model host (${new URL(url).host}) cannot be reached: ${(e as Error).message}`;
  }
}

/** The form's choice from the URL (class mode), else the stored one. A link never sets `allowRemote`. */
function initialChoice(): ModelChoice {
  const stored = readModelChoice();
  const kind = param('llm', stored.kind);
  const roles = param('roles', stored.kind === 'template' ? 'actor' : stored.roles.join(','))
    .split(',')
    .filter((r): r is ModelRole => (MODEL_ROLES as readonly string[]).includes(r));
  if (kind === 'webllm' || kind === 'wllama')
    return { kind, model: param('model', stored.kind === kind ? stored.model : ''), roles };
  if (kind === 'openai') {
    const baseUrl = param('url', stored.kind === 'openai' ? stored.baseUrl : 'http://127.0.0.1:11434/v1');
    return {
      kind,
      model: param('model', stored.kind === 'openai' ? stored.model : ''),
      baseUrl,
      // Consent given earlier in this browser, for this very address, stays; an address's `remote=1` does not.
      allowRemote: stored.kind === 'openai' && stored.allowRemote && stored.baseUrl === baseUrl,
      roles,
    };
  }
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
  const [showAll, setShowAll] = useState(false);
  const [askedRemote] = useState(linkAskedRemote);
  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        // WebLLM's model list comes from its summary in src/gpu: WebLLM itself loads only with a model.
        const { probeGpu, recommendModels, requiresShaderF16, WEBLLM_MODELS } =
          await import('../../../src/entries/models');
        const nav = navigator as Navigator & { gpu?: GpuLike; deviceMemory?: number };
        const report = await probeGpu(nav.gpu);
        const rec = recommendModels(report, nav.deviceMemory ? { deviceMemoryGiB: nav.deviceMemory } : {});
        const models = WEBLLM_MODELS.filter((r) => r.model_type === undefined || r.model_type === 0).map(
          (r) => ({
            id: r.model_id,
            url: r.model ?? '',
            mb: r.vram_required_MB ?? 0,
            f16: requiresShaderF16(r.model_id, r),
          }),
        );
        if (!live) return;
        setFound({ report, rec, models });
        // The recommended model preselected when WebLLM is chosen without a model.
        setForm((f) =>
          f.kind === 'webllm' && !f.model && rec.modelIds[0] ? { ...f, model: rec.modelIds[0] } : f,
        );
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
      const listed = found?.models.find((m) => m.id === c.model);
      // An f16 build on an adapter without shader-f16 is refused first, before any request.
      if (listed?.f16 && !found?.report.adapter?.shaderF16) {
        fail(
          explainModelError(
            unsupportedModelError(c.model, 'this GPU adapter lacks the shader-f16 feature'),
            c.model,
          ),
        );
        return;
      }
      // WebLLM's library is loaded only once its model host answers: offline, nothing large is fetched.
      const problem = await modelHostProblem(listed);
      if (problem !== null) {
        fail(
          `${c.model} could not be downloaded: ${problem}. Nothing was downloaded, and WebLLM’s library was not ` +
            'loaded. Without a network connection, use a GGUF file on the processor (wllama) or template rules.',
        );
        return;
      }
      const { WebLlmBackend } = await import('../../../src/entries/models');
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
  const loadWllama = async (c: ModelChoice & { kind: 'wllama' }) => {
    const abort = new AbortController();
    setLoading({ progress: null, abort });
    let backend: WllamaBackend | undefined;
    try {
      const { WllamaBackend } = await import('../../../src/entries/models');
      backend = new WllamaBackend({ model: c.model });
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
  const pickFile = async (e: Event) => {
    const file = (e.target as HTMLInputElement).files?.[0];
    if (!file || form.kind !== 'wllama') return;
    const c = form;
    setMessage({ error: false, text: `Copying ${file.name} into this browser’s cache…` });
    try {
      const { importGgufFile } = await import('../../../src/entries/models');
      const model = await importGgufFile(file);
      edit({ ...c, model });
      setMessage({ error: false, text: `${file.name} is in this browser’s cache as ${model}.` });
    } catch (err) {
      setMessage({ error: true, text: explainModelError(err, file.name) });
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
    if (c.kind === 'wllama') return loadWllama(c);
    try {
      const { OpenAiBackend } = await import('../../../src/entries/models');
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
      const { OpenAiBackend } = await import('../../../src/entries/models');
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
  const fits = new Set(found?.rec.modelIds ?? []);
  const recommended = (found?.rec.modelIds ?? [])
    .map((id) => found?.models.find((m) => m.id === id))
    .filter((m): m is ListedModel => m !== undefined);
  const others = (found?.models ?? []).filter((m) => !fits.has(m.id));
  const option = (m: ListedModel) =>
    html`<option value=${m.id} selected=${form.kind === 'webllm' && form.model === m.id}>
      ${m.id} · ${Math.round(m.mb)} MB${m.f16 && noF16 ? ' · needs shader-f16 (not here)' : ''}
    </option>`;
  const roles = form.kind === 'template' ? [] : form.roles;
  const setRole = (r: ModelRole, on: boolean) =>
    form.kind !== 'template' &&
    edit({ ...form, roles: MODEL_ROLES.filter((x) => (x === r ? on : roles.includes(x))) });
  const kindOf = (k: string): ModelChoice =>
    k === 'webllm'
      ? { kind: 'webllm', model: found?.rec.modelIds[0] ?? '', roles: roles.length ? roles : ['actor'] }
      : k === 'wllama'
        ? { kind: 'wllama', model: '', roles: roles.length ? roles : ['sim'] }
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
            (!found.report.adapter || found.report.adapter.software) &&
            html`<p class="cpu-hint">
              Without a usable graphics adapter, a small GGUF model can still run on the processor: choose “A
              GGUF model in this browser on the processor (wllama)” below.
            </p>`
          }
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
                <optgroup label=${`Fit this device (${recommended.length}), recommended first`}>
                  ${recommended.map(option)}
                </optgroup>
                ${
                  showAll &&
                  html`<optgroup label=${`Too large or unsupported here (${others.length})`}>
                    ${others.map(option)}
                  </optgroup>`
                }
              </select>
            </${Field}>
            <label style=${ROW}><input type="checkbox" checked=${showAll}
              onChange=${(e: Event) => setShowAll((e.target as HTMLInputElement).checked)} />
              Also list the ${others.length} models that do not fit this device</label>`
          }
          ${
            form.kind === 'wllama' &&
            html`<${Field} id="m-gguf" label="Address of a .gguf model file (e.g. served on this computer)" term="loopback">
                <input id="m-gguf" type="url" value=${form.model.startsWith('local-file:') ? '' : form.model}
                  size="40" placeholder="http://127.0.0.1:8000/gemma-3-270m-q4_k_m.gguf"
                  onChange=${(e: Event) => edit({ ...form, model: (e.target as HTMLInputElement).value.trim() })} />
              </${Field}>
              <${Field} id="m-file" label="…or pick a .gguf file on this computer">
                <input id="m-file" type="file" accept=".gguf" onChange=${pickFile} />
              </${Field}>
              ${form.model.startsWith('local-file:') && html`<p class="muted">Using the picked file <code>${form.model}</code>.</p>`}
              <p class="muted">
                The model runs on the processor with llama.cpp compiled to WebAssembly; nothing is fetched from a model
                hub. Small models only (a few hundred MB): expect a few words per second.
              </p>`
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
                Allow a server on another computer (dialogue text then leaves this machine)</label>
              ${
                askedRemote &&
                html`<p role="note" class="link-remote">
                  The link that opened this page asked for a server on another computer. A link cannot give
                  that consent: tick the box yourself if you want dialogue text to leave this machine.
                </p>`
              }`
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
            ${form.kind === 'webllm' || form.kind === 'wllama' ? 'Download, load and use' : 'Use this choice'}
          </button>
          ${form.kind === 'openai' && html`<button type="button" onClick=${checkServer}>Check the server</button>`}
        </fieldset>
      </form>
      ${
        loading &&
        html`<div class="progress" role="status" aria-live="polite">
          <label
            >Loading ${form.kind === 'webllm' || form.kind === 'wllama' ? form.model : ''}:
            ${p ? `${Math.round(p.progress * 100)}%` : 'starting'}
            <progress max="1" value=${p?.progress ?? 0}></progress
          ></label>
          ${p && html`<span class="muted">${p.text}</span>`}
          <button type="button" onClick=${() => loading.abort.abort()}>Stop</button>
        </div>`
      }
      ${message && html`<p role=${message.error ? 'alert' : 'status'} class=${message.error ? 'error model-message' : 'model-message'}>${message.text}</p>`}
    </section>
    ${found && html`<${ModelCache} modelIds=${found.models.map((m) => m.id)} />`}
    <${GgufCache} />`;
}
