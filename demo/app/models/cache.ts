/**
 * The models in this browser’s caches: WebLLM’s ({@link ModelCache}) and the GGUF files of the CPU engine
 * ({@link GgufCache}). The WebLLM models: each model of WebLLM's prebuilt list is checked with
 * `hasModelInCache` (through `WebLlmBackend.isCached`, which reads the browser's Cache API / IndexedDB only and
 * downloads nothing), and a cached one can be deleted (`deleteModelAllInfoInCache`: weights, tokenizer, config
 * and wasm).
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { Term } from '../glossary';
import { explainModelError } from './explain';

/** The cached model ids of `modelIds` (in order). */
export async function cachedModels(modelIds: readonly string[]): Promise<string[]> {
  const { WebLlmBackend } = await import('../../../src/entries/models');
  const found = await Promise.all(
    modelIds.map((modelId) => new WebLlmBackend({ modelId, gpu: undefined }).isCached()),
  );
  return modelIds.filter((_, i) => found[i]);
}

async function deleteCached(modelId: string): Promise<void> {
  const { WebLlmBackend } = await import('../../../src/entries/models');
  await new WebLlmBackend({ modelId, gpu: undefined }).deleteFromCache();
}

/** The cache section: check the cache on request, list the cached models, delete one. */
export function ModelCache({ modelIds }: { modelIds: readonly string[] }) {
  const [cached, setCached] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const check = async () => {
    setBusy(true);
    setMessage(null);
    try {
      setCached(await cachedModels(modelIds));
    } catch (e) {
      setMessage({ error: true, text: explainModelError(e, 'Reading the model cache') });
    } finally {
      setBusy(false);
    }
  };
  const remove = async (id: string) => {
    setBusy(true);
    try {
      await deleteCached(id);
      setMessage({ error: false, text: `Deleted ${id} from the cache.` });
      setCached(await cachedModels(modelIds));
    } catch (e) {
      setMessage({ error: true, text: explainModelError(e, `Deleting ${id}`) });
    } finally {
      setBusy(false);
    }
  };
  return html`<section aria-labelledby="cache-title">
    <h2 id="cache-title">Models in this browser’s <${Term} term="model cache" label="cache" /></h2>
    <button type="button" disabled=${busy} onClick=${check}>Check the cache</button>
    ${message && html`<p role=${message.error ? 'alert' : 'status'} class=${message.error ? 'error' : ''}>${message.text}</p>`}
    ${
      cached &&
      (cached.length === 0
        ? html`<p role="status" class="cache-empty">No model is in this browser’s cache.</p>`
        : html`<ul class="cached">
            ${cached.map(
              (id) =>
                html`<li>
                  <code>${id}</code>
                  <button
                    type="button"
                    disabled=${busy}
                    aria-label=${`Delete ${id} from the cache`}
                    onClick=${() => remove(id)}
                  >
                    Delete
                  </button>
                </li>`,
            )}
          </ul>`)
    }
  </section>`;
}

/** The GGUF models in this browser's wllama cache (downloads and picked files), each deletable. */
export function GgufCache() {
  const [cached, setCached] = useState<{ model: string; bytes: number }[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const list = async () => (await import('../../../src/entries/models')).listCachedGguf();
  const check = async () => {
    setBusy(true);
    setMessage(null);
    try {
      setCached(await list());
    } catch (e) {
      setMessage({ error: true, text: explainModelError(e, 'Reading the GGUF cache') });
    } finally {
      setBusy(false);
    }
  };
  const remove = async (model: string) => {
    setBusy(true);
    try {
      await (await import('../../../src/entries/models')).deleteCachedGguf(model);
      setMessage({ error: false, text: `Deleted ${model} from the cache.` });
      setCached(await list());
    } catch (e) {
      setMessage({ error: true, text: explainModelError(e, `Deleting ${model}`) });
    } finally {
      setBusy(false);
    }
  };
  return html`<section aria-labelledby="gguf-cache-title">
    <h2 id="gguf-cache-title">GGUF models in this browser’s cache (wllama)</h2>
    <button type="button" disabled=${busy} onClick=${check}>Check the GGUF cache</button>
    ${message && html`<p role=${message.error ? 'alert' : 'status'} class=${message.error ? 'error' : ''}>${message.text}</p>`}
    ${
      cached &&
      (cached.length === 0
        ? html`<p role="status" class="gguf-cache-empty">No GGUF model is in this browser’s cache.</p>`
        : html`<ul class="cached-gguf">
            ${cached.map(
              (m) =>
                html`<li>
                  <code>${m.model}</code> · ${Math.round(m.bytes / 2 ** 20)} MB
                  <button
                    type="button"
                    disabled=${busy}
                    aria-label=${`Delete ${m.model} from the cache`}
                    onClick=${() => remove(m.model)}
                  >
                    Delete
                  </button>
                </li>`,
            )}
          </ul>`)
    }
  </section>`;
}
