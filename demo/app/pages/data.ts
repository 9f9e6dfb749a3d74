/**
 * Data: load the person's own files — the library's seed JSONL, ESConv JSONL, CraigslistBargain JSONL, or the
 * PersuasionForGood CSVs together, or EmoLLM scenario descriptions — with a file picker or by dropping them on the
 * page. The library's loaders (src/data and src/tasks/emollm-loader.ts, as `--seeds` on the command line) run on
 * them in a worker (demo/app/data/loader.worker.ts); a bad
 * record is named with its file and line. Accepted seed sets, and the episode trajectories other pages keep, are
 * stored in this browser's IndexedDB (demo/app/data/store.ts), listed with their size, exportable as JSONL and
 * deletable. Nothing is uploaded.
 */
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import * as Comlink from 'comlink';
import { fileLine, type TextFile } from '../../../src/entries/simulator';
import { downloadText, formatBytes } from '../data/download';
import { DATASET_KINDS, groupFiles, type DatasetKind } from '../data/kinds';
import type { LoadOutcome } from '../data/load';
import type { LoaderWorkerApi } from '../data/loader.worker';
import { dataStore } from '../data/seedsets';
import type { DataSet } from '../data/store';
import { Field, Term } from '../glossary';
import { param, setParams } from '../router';

/** What became of one group of files: the seeds kept (and the stored set), or the loader's error. */
interface Checked {
  files: string;
  bytes: number;
  outcome: LoadOutcome | null;
  stored: DataSet | null;
  error: string | null;
}

const KIND_NAMES: Record<DatasetKind | 'auto', string> = {
  auto: 'tell from the content',
  seeds: 'the library’s seed JSONL',
  esconv: 'ESConv JSONL',
  cb: 'CraigslistBargain JSONL',
  p4g: 'PersuasionForGood CSVs (together)',
  emollm: 'EmoLLM scenario descriptions (JSONL)',
};

/** The page's loader worker, started on the first load and ended when the page closes. */
interface Loader {
  worker: Worker;
  api: Comlink.Remote<LoaderWorkerApi>;
}

function startLoader(): Loader {
  const worker = new Worker(new URL('../data/loader.worker.ts', import.meta.url), { type: 'module' });
  return { worker, api: Comlink.wrap<LoaderWorkerApi>(worker) };
}

/** Loads each group of files in the loader worker and stores every accepted seed set. */
async function loadAll(
  api: Comlink.Remote<LoaderWorkerApi>,
  files: File[],
  kind: DatasetKind | 'auto',
  skipInvalid: boolean,
): Promise<Checked[]> {
  const out: Checked[] = [];
  for (const group of groupFiles(files)) {
    const texts: TextFile[] = await Promise.all(
      group.map(async (f) => ({ name: f.name, text: await f.text() })),
    );
    const row: Checked = {
      files: group.map((f) => f.name).join(', '),
      bytes: group.reduce((n, f) => n + f.size, 0),
      outcome: null,
      stored: null,
      error: null,
    };
    out.push(row);
    try {
      row.outcome = await api.load({ files: texts, kind, skipInvalid });
      if (row.outcome.seeds.length > 0)
        row.stored = await (await dataStore()).save('seeds', row.files, row.outcome.task, row.outcome.seeds);
    } catch (e) {
      row.error = (e as Error).message;
    }
  }
  return out;
}

function Result({ c }: { c: Checked }) {
  if (c.error) return html`<td class="error" role="alert">${c.error}</td>`;
  const o = c.outcome as LoadOutcome;
  return html`<td>
    ${o.seeds.length} seeds accepted (${o.task})${c.stored ? ', kept in this browser' : ''}
    ${
      o.skipped.length > 0 &&
      html`<details>
        <summary>${o.skipped.length} records left out</summary>
        <ul>
          ${o.skipped.slice(0, 50).map((s) => html`<li>${s.file}:${s.line}: ${s.reason}</li>`)}
        </ul>
      </details>`
    }
    ${
      o.warnings.length > 0 &&
      html`<details>
        <summary>${o.warnings.length} warnings</summary>
        <ul>
          ${o.warnings.slice(0, 50).map((w) => html`<li>${fileLine(w.file, w.line)}: ${w.message}</li>`)}
        </ul>
      </details>`
    }
  </td>`;
}

export default function Data() {
  const kindParam = param('kind', 'auto');
  const kind = ((DATASET_KINDS as readonly string[]).includes(kindParam) ? kindParam : 'auto') as
    DatasetKind | 'auto';
  const skipInvalid = param('skip', '') === '1';
  const [checked, setChecked] = useState<Checked[]>([]);
  const [sets, setSets] = useState<DataSet[] | null>(null);
  const [storageError, setStorageError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [over, setOver] = useState(false);

  /** Runs a storage action; its error (quota, blocked upgrade, …) is shown, and the list is re-read. */
  async function withStore(f: () => Promise<unknown>) {
    setStorageError(null);
    try {
      await f();
    } catch (e) {
      setStorageError((e as Error).message);
    }
    try {
      setSets(await (await dataStore()).list());
    } catch (e) {
      setStorageError((e as Error).message);
    }
  }
  const [loader] = useState<{ current: Loader | null }>(() => ({ current: null }));
  useEffect(() => {
    void withStore(async () => undefined);
    return () => loader.current?.worker.terminate();
  }, []);

  async function take(files: File[]) {
    if (files.length === 0) return;
    setBusy(true);
    setChecked([]);
    await withStore(async () => {
      loader.current ??= startLoader();
      const results = await loadAll(loader.current.api, files, kind, skipInvalid);
      setChecked(results);
    });
    setBusy(false);
  }
  const exportSet = (s: DataSet) =>
    withStore(async () => {
      const text = await (await dataStore()).exportJsonl(s.id);
      if (text !== null) downloadText(`${s.name.replace(/[^\w.-]+/g, '_')}.${s.id}.jsonl`, text);
    });
  const deleteSet = (s: DataSet) => withStore(async () => (await dataStore()).delete(s.id));

  return html`<section aria-labelledby="load">
      <h2 id="load">Load your files</h2>
      <p>
        Choose files, or drop them on the box below: the library’s <${Term} term="seed" /> files (<code>.jsonl</code>,
        as <code>npm run simulate -- --seeds</code> reads them), ESConv or CraigslistBargain JSONL, or the
        PersuasionForGood CSV files together, or EmoLLM scenario descriptions. They are read in a worker in this page and kept in this browser;
        nothing is uploaded.
      </p>
      <div class="controls">
        <${Field} id="data-kind" label="What the files are">
          <select id="data-kind" value=${kind} onChange=${(e: Event) => setParams({ kind: (e.target as HTMLSelectElement).value })}>
            ${(['auto', ...DATASET_KINDS] as const).map((k) => html`<option value=${k}>${KIND_NAMES[k]}</option>`)}
          </select>
        </${Field}>
        <label class="inline"
          ><input
            type="checkbox"
            checked=${skipInvalid}
            onChange=${(e: Event) => setParams({ skip: (e.target as HTMLInputElement).checked ? '1' : '' })}
          />
          leave out bad records (each listed with its file and line) instead of refusing the file</label
        >
      </div>
      <div
        class=${`dropzone${over ? ' over' : ''}`}
        style=${`border: 2px dashed ${over ? '#1a4f8b' : '#888'}; padding: 0.5rem 1rem; border-radius: 6px`}
        onDragOver=${(e: DragEvent) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave=${() => setOver(false)}
        onDrop=${(e: DragEvent) => {
          e.preventDefault();
          setOver(false);
          void take([...(e.dataTransfer?.files ?? [])]);
        }}
      >
        <${Field} id="data-files" label="Seed files and dataset files">
          <input
            id="data-files"
            type="file"
            multiple
            accept=".jsonl,.json,.csv,.txt"
            disabled=${busy}
            onChange=${(e: Event) => {
              const input = e.target as HTMLInputElement;
              void take([...(input.files ?? [])]).then(() => (input.value = ''));
            }}
          />
        </${Field}>
        <p>…or drop files here.</p>
      </div>
      ${busy && html`<p role="status">Loading…</p>`}
      ${
        checked.length > 0 &&
        html`<table class="checked">
          <caption>
            What was loaded
          </caption>
          <thead>
            <tr>
              <th scope="col">files</th>
              <th scope="col">size</th>
              <th scope="col">result</th>
            </tr>
          </thead>
          <tbody>
            ${checked.map(
              (c) =>
                html`<tr>
                  <td>${c.files}</td>
                  <td>${formatBytes(c.bytes)}</td>
                  <${Result} c=${c} />
                </tr>`,
            )}
          </tbody>
        </table>`
      }
    </section>
    <section aria-labelledby="stored">
      <h2 id="stored">Kept in this browser</h2>
      <p>
        <${Term} term="seed set" label="Seed sets" /> you loaded, and the <${Term} term="trajectory" label="trajectories" />${' '}
        of the episodes Watch ran (each finished run is kept). Choose a seed set on Train, Watch, Evaluate or Play
        (their <em>Seeds</em> field), or put it in a class link: the same file gives the same id in every browser.
      </p>
      ${storageError && html`<p class="error" role="alert">${storageError}</p>`}
      ${sets && sets.length === 0 && html`<p>Nothing is kept yet.</p>`}
      ${
        sets &&
        sets.length > 0 &&
        html`<table class="sets">
          <caption>
            Stored sets
          </caption>
          <thead>
            <tr>
              <th scope="col">name</th>
              <th scope="col">holds</th>
              <th scope="col">task</th>
              <th scope="col">size</th>
              <th scope="col">id</th>
              <th scope="col">actions</th>
            </tr>
          </thead>
          <tbody>
            ${sets.map(
              (s) =>
                html`<tr>
                  <td>${s.name}</td>
                  <td>${s.count} ${s.kind === 'seeds' ? 'seeds' : 'trajectories'}</td>
                  <td>${s.task}</td>
                  <td class="size">${formatBytes(s.bytes)}</td>
                  <td><code>${s.id}</code></td>
                  <td>
                    <button
                      type="button"
                      aria-label=${`Export JSONL of ${s.name}`}
                      onClick=${() => exportSet(s)}
                    >
                      Export JSONL
                    </button>
                    <button type="button" aria-label=${`Delete ${s.name}`} onClick=${() => deleteSet(s)}>
                      Delete
                    </button>
                    ${
                      s.kind === 'seeds' &&
                      html`<a href=${`#/train?task=${s.task}&seedset=${s.id}`}>train on it</a>${' · '}
                        <a href=${`#/watch?task=${s.task}&seedset=${s.id}`}>watch it</a>`
                    }
                  </td>
                </tr>`,
            )}
          </tbody>
        </table>`
      }
    </section>`;
}
