/**
 * Data: check seed files (the library's seed JSONL, one seed per line) with the library's loader
 * (src/data/seedfile.ts) — entirely in this page, nothing uploaded. A bad line is reported with its file and line.
 * Loading the datasets' own formats (ESConv, CraigslistBargain, PersuasionForGood), keeping seed sets and
 * trajectories in IndexedDB, and playing loaded seeds are not built yet: the page says so.
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { parseSeedJsonl } from '../../../src/data/seedfile';
import { Field, Term } from '../glossary';
import { NotBuilt } from '../notbuilt';

/** What became of one file: its seeds by task, or the loader's error (which names the file and line). */
interface Checked {
  file: string;
  bytes: number;
  seeds: number;
  tasks: string[];
  error: string | null;
}

/** Checks one seed file's text with the library's loader. */
export function checkSeedFile(file: string, text: string): Checked {
  try {
    const { seeds } = parseSeedJsonl(text, file);
    return {
      file,
      bytes: text.length,
      seeds: seeds.length,
      tasks: [...new Set(seeds.map((s) => s.task))],
      error: null,
    };
  } catch (e) {
    return { file, bytes: text.length, seeds: 0, tasks: [], error: (e as Error).message };
  }
}

export default function Data() {
  const [checked, setChecked] = useState<Checked[]>([]);
  const pick = async (e: Event) => {
    const files = [...((e.target as HTMLInputElement).files ?? [])];
    setChecked(await Promise.all(files.map(async (f) => checkSeedFile(f.name, await f.text()))));
  };
  return html`<section aria-labelledby="seedfiles">
      <h2 id="seedfiles">Check <${Term} term="seed" label="seed" /> files</h2>
      <p>
        Choose one or more seed files (<code>.jsonl</code>, one seed per line, as <code>npm run simulate -- --seeds</code>
        reads them). They are read in this page; nothing is uploaded.
      </p>
      <${Field} id="data-files" label="Seed files">
        <input id="data-files" type="file" multiple accept=".jsonl,.json,.txt" onChange=${pick} />
      </${Field}>
      ${
        checked.length > 0 &&
        html`<table class="checked">
          <thead>
            <tr>
              <th scope="col">file</th>
              <th scope="col">size</th>
              <th scope="col">result</th>
            </tr>
          </thead>
          <tbody>
            ${checked.map(
              (c) =>
                html`<tr>
                  <td>${c.file}</td>
                  <td>${(c.bytes / 1000).toFixed(1)} kB</td>
                  <td class=${c.error ? 'error' : ''} role=${c.error ? 'alert' : undefined}>
                    ${c.error ?? `${c.seeds} seeds accepted (${c.tasks.join(', ')})`}
                  </td>
                </tr>`,
            )}
          </tbody>
        </table>`
      }
    </section>
    <section aria-labelledby="datasets">
      <h2 id="datasets">Datasets and storage</h2>
      <${NotBuilt}
        >Loading ESConv, CraigslistBargain and PersuasionForGood files, keeping seed sets and trajectories in this
        browser’s storage, and playing loaded seeds on the other pages are not built yet.</${NotBuilt}
      >
    </section>`;
}
