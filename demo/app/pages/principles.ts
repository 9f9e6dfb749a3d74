/**
 * Principles: build a memory by template self-play (the build-principles job, as `npm run principles -- build`,
 * in the memory worker, with progress, ETA and Stop), list the memories stored in this browser (IndexedDB,
 * src/memory/store.ts: the database the policy registry reads `principles:<name>` from), browse and search a
 * memory's principles, query it with a situation (the query-principles job), import and export memory files
 * (the CLI's `--out` format), and delete a memory after a confirmation. The memory worker starts on the first
 * action that needs it, never at page load.
 */
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import {
  PRINCIPLE_DB_NAME,
  type MemoryMeta,
  type QueryPrinciplesResult,
  type Principle,
} from '../../../src/entries/policies';
import { getTask, TASK_IDS, type TaskId } from '../../../src/entries/simulator';
import { Field, Term } from '../glossary';
import { downloadText } from '../data/download';
import { formatEta, JobStoppedError } from '../jobs';
import { ORIGIN_LABELS, PrincipleBrowser } from '../principles/browse';
import { MemoryClient, type BuildOutcome } from '../principles/client';
import { listStoredMemories } from '../principles/stored';
import { formatHash, param, route, setParams } from '../router';

const client = new MemoryClient();

/** An error from the worker in plain words (its message names the file, line or field). */
export function explain(e: unknown): string {
  const err = e as Error;
  if (err instanceof JobStoppedError) return `Stopped: ${err.message}.`;
  if ((err as { code?: unknown }).code === 'MEMORY_EXISTS')
    return `${err.message.replace(/; pass replace: true to overwrite it$/, '')}. Choose another name, or tick “Replace a stored memory of the same name”.`;
  return err.message;
}

/** The build form's configuration from the URL (class mode), with defaults. */
export function buildConfig(get: (k: string, d: string) => string) {
  const t = get('task', 'p4g');
  const task = ((TASK_IDS as readonly string[]).includes(t) ? t : 'p4g') as TaskId;
  return {
    task,
    name: get('name', '') || task,
    episodes: Math.min(100_000, Math.max(1, Math.floor(Number(get('episodes', '10')) || 10))),
    rngSeed: Math.max(0, Math.floor(Number(get('rng', '0')) || 0)),
  };
}

function BuildSummary({ out }: { out: BuildOutcome }) {
  const b = out.build;
  const rest =
    `) from ${b.episodes} episodes on ${b.seeds} seeds; ${b.duplicates} near-duplicates dropped; ` +
    `${b.labelsCovered} of ${b.labels} strategy labels covered. Turns: ${b.turns.success} improved at the ` +
    `first try, ${b.turns.revised} after revision, ${b.turns.failed} not improved.`;
  return html`<p role="status" class="built">
    ${`Stored “${out.meta.name}”: ${b.kept} principles kept (${b.keptFromRevision} found by `}<${Term}
      term="revision"
      where="build summary"
    />${rest}
  </p>`;
}

function MemoryTable(props: {
  memories: MemoryMeta[];
  open: string;
  onOpen: (name: string) => void;
  onExport: (name: string) => void;
  onDelete: (name: string) => void;
}) {
  const [confirming, setConfirming] = useState<string | null>(null);
  if (props.memories.length === 0)
    return html`<p class="muted">
      No memory is stored in this browser yet. Build one above or import a file.
    </p>`;
  return html`<table class="memories">
    <thead>
      <tr>
        <th scope="col">name</th>
        <th scope="col">task</th>
        <th scope="col">principles</th>
        <th scope="col">use as policy</th>
        <th scope="col">actions</th>
      </tr>
    </thead>
    <tbody>
      ${props.memories.map(
        (m) =>
          html`<tr aria-current=${m.name === props.open ? 'true' : undefined}>
            <td>${m.name}</td>
            <td>${m.task}</td>
            <td class="count">${m.count}</td>
            <td>
              <a
                href=${formatHash({ page: 'watch', params: { task: m.task, policy: `principles:${m.name}` } })}
                aria-label=${`Watch principles:${m.name} play`}
                ><code>principles:${m.name}</code></a
              >
            </td>
            <td>
              ${
                confirming === m.name
                  ? html`<span role="alert"
                      >Delete “${m.name}” and its ${m.count} principles? This cannot be undone.
                      <button type="button" onClick=${() => (setConfirming(null), props.onDelete(m.name))}>
                        Yes, delete ${m.name}
                      </button>
                      <button type="button" onClick=${() => setConfirming(null)}>Cancel</button></span
                    >`
                  : html`<button
                        type="button"
                        aria-label=${`Browse ${m.name}`}
                        onClick=${() => props.onOpen(m.name)}
                      >
                        Browse
                      </button>
                      <button
                        type="button"
                        aria-label=${`Export ${m.name}`}
                        onClick=${() => props.onExport(m.name)}
                      >
                        Export
                      </button>
                      <button
                        type="button"
                        aria-label=${`Delete ${m.name}`}
                        onClick=${() => setConfirming(m.name)}
                      >
                        Delete
                      </button>`
              }
            </td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

/** Where `d` falls among `sorted` distances, in words: "among the nearest 10% of this memory". */
function nearness(d: number, sorted: readonly number[]): string {
  const below = sorted.filter((x) => x < d).length;
  const n = sorted.length;
  return below < n / 2
    ? `among the nearest ${Math.ceil((100 * (below + 1)) / n)}% of this memory`
    : `among the farthest ${Math.ceil((100 * (n - below)) / n)}% of this memory`;
}

function QueryForm({ name }: { name: string }) {
  const [text, setText] = useState('');
  const [k, setK] = useState(3);
  const [result, setResult] = useState<QueryPrinciplesResult | null>(null);
  /** This situation's distances to every principle of the memory, sorted: what near and far are here. */
  const [scale, setScale] = useState<number[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    setResult(null);
    setScale(null);
    setError(null);
    try {
      const r = await client.call((api) => api.queryJob(name, text, k));
      setResult(r);
      const all = r.size <= r.hits.length ? r : await client.call((api) => api.queryJob(name, text, r.size));
      setScale(all.hits.map((h) => h.distance).sort((a, b) => a - b));
    } catch (err) {
      setError(explain(err));
    }
  };
  return html`<section aria-labelledby="query-title">
    <h2 id="query-title">Ask “${name}” about a situation</h2>
    <p>
      Describe a moment of a dialogue; the memory returns the principles whose “When” is nearest to it (by${' '}
      <${Term} term="distance" />), as the Principles planner retrieves them during a dialogue.
    </p>
    <form onSubmit=${submit}>
      <${Field} id="pr-situation" label="Situation">
        <textarea id="pr-situation" rows="2" cols="60" required value=${text}
          onInput=${(e: Event) => setText((e.target as HTMLTextAreaElement).value)}></textarea>
      </${Field}>
      <${Field} id="pr-k" label="Principles to return">
        <input id="pr-k" type="number" min="1" max="100" value=${k}
          onChange=${(e: Event) => setK(Math.max(1, Number((e.target as HTMLInputElement).value) || 3))} />
      </${Field}>
      <button type="submit">Query</button>
    </form>
    ${error && html`<p role="alert" class="error">${error}</p>`}
    ${
      result &&
      scale &&
      scale.length > 1 &&
      html`<p class="scale">
        Near and far in this memory: its ${scale.length} principles lie from
        ${(scale[0] as number).toFixed(3)} (nearest) to ${(scale.at(-1) as number).toFixed(3)} (farthest) from
        this situation, half of them within
        ${(scale[Math.floor((scale.length - 1) / 2)] as number).toFixed(3)}. A distance means little alone:
        compare it with these.
      </p>`
    }
    ${
      result &&
      html`<table class="hits">
        <caption>
          The ${result.hits.length} principles of ${result.size} nearest to the situation
        </caption>
        <thead>
          <tr>
            <th scope="col">rank</th>
            <th scope="col"><${Term} term="distance" /></th>
            <th scope="col">label</th>
            <th scope="col">derived by</th>
            <th scope="col">principle</th>
          </tr>
        </thead>
        <tbody>
          ${result.hits.map(
            (h) =>
              html`<tr>
                <td>${h.rank}</td>
                <td>
                  ${h.distance.toFixed(3)}${scale ? html` <span class="muted">(${nearness(h.distance, scale)})</span>` : ''}
                </td>
                <td>${h.strategy}</td>
                <td>${ORIGIN_LABELS[h.origin] ?? h.origin}</td>
                <td class="sentence">${h.principle}</td>
              </tr>`,
          )}
        </tbody>
      </table>`
    }
  </section>`;
}

export default function Principles() {
  const config = buildConfig(param);
  const open = param('memory', '');
  const [replace, setReplace] = useState(false);
  const [memories, setMemories] = useState<MemoryMeta[] | null>(null);
  const [principles, setPrinciples] = useState<{ name: string; list: Principle[] } | null>(null);
  const [built, setBuilt] = useState<BuildOutcome | null>(null);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const progress = client.progress.value;

  const refresh = async () => {
    try {
      setMemories(await listStoredMemories(PRINCIPLE_DB_NAME));
    } catch (e) {
      setMessage({ error: true, text: `The stored memories could not be read: ${explain(e)}` });
    }
  };
  useEffect(() => void refresh(), []);
  const missing = open !== '' && memories !== null && !memories.some((m) => m.name === open);
  useEffect(() => {
    if (!open || memories === null || missing) return setPrinciples(null);
    let live = true;
    client
      .call((api) => api.principles(open))
      .then(
        (list) => live && setPrinciples({ name: open, list }),
        (e: unknown) => live && (setPrinciples(null), setMessage({ error: true, text: explain(e) })),
      );
    return () => {
      live = false;
    };
  }, [open, memories]);

  const build = async (e?: Event) => {
    e?.preventDefault();
    setBuilt(null);
    setMessage(null);
    try {
      const out = await client.build(
        { task: config.task, name: config.name, episodes: config.episodes, rngSeed: config.rngSeed },
        replace,
      );
      setBuilt(out);
      await refresh();
    } catch (err) {
      setMessage({ error: true, text: explain(err) });
    }
  };
  const importFiles = async (e: Event) => {
    const input = e.target as HTMLInputElement;
    const files = [...(input.files ?? [])];
    setMessage(null);
    const said: string[] = [];
    let failed = false;
    for (const f of files) {
      try {
        const text = await f.text();
        const meta = await client.call((api) => api.importFile(text, { source: f.name, replace }));
        said.push(`Imported ${f.name} as “${meta.name}” (${meta.count} principles, ${meta.task}).`);
      } catch (err) {
        failed = true;
        said.push(`${f.name} was not imported; nothing stored was changed. ${explain(err)}`);
      }
    }
    input.value = '';
    setMessage({ error: failed, text: said.join(' ') });
    await refresh();
  };
  const exportMemory = async (name: string) => {
    try {
      downloadText(
        `${name}.json`,
        `${await client.call((api) => api.exportFile(name))}\n`,
        'application/json',
      );
    } catch (err) {
      setMessage({ error: true, text: explain(err) });
    }
  };
  const remove = async (name: string) => {
    try {
      await client.call((api) => api.remove(name));
      setMessage({ error: false, text: `Deleted “${name}”.` });
      if (open === name) setParams({ memory: '' });
    } catch (err) {
      setMessage({ error: true, text: explain(err) });
    }
    await refresh();
  };

  return html`<section aria-labelledby="build-title">
      <h2 id="build-title">Build a <${Term} term="principle memory" label="memory" /> by <${Term} term="self-play" /></h2>
      <p>
        A random actor plays the chosen task against the simulated user; each turn that raised the${' '}
        <${Term} term="critic reward" /> becomes a principle, and each turn that did not is retried with other
        strategies (<${Term} term="revision" />). The paper uses 50 episodes; a few give a small memory quickly.
      </p>
      <form onSubmit=${build}>
        <fieldset disabled=${progress !== null}>
          <legend>What to build</legend>
          <label
            >Task
            <select value=${config.task}
              onChange=${(e: Event) => setParams({ task: (e.target as HTMLSelectElement).value, name: '' })}>
              ${TASK_IDS.map((id) => html`<option value=${id}>${getTask(id).title}</option>`)}
            </select>
          </label>
          <label
            >Memory name
            <input value=${config.name} required maxlength="200"
              onChange=${(e: Event) => setParams({ name: (e.target as HTMLInputElement).value.trim() })} />
          </label>
          <${Field} id="pr-episodes" label="Episodes" term="episode">
            <input id="pr-episodes" type="number" min="1" max="100000" value=${config.episodes}
              onChange=${(e: Event) => setParams({ episodes: (e.target as HTMLInputElement).value })} />
          </${Field}>
          <label
            >Random seed of the build
            <input type="number" min="0" value=${config.rngSeed}
              onChange=${(e: Event) => setParams({ rng: (e.target as HTMLInputElement).value })} />
          </label>
          <label style="flex-direction: row; align-items: center; gap: 0.4rem"
            ><input type="checkbox" checked=${replace}
              onChange=${(e: Event) => setReplace((e.target as HTMLInputElement).checked)} />
            Replace a stored memory of the same name</label
          >
          <button type="submit">Build</button>
        </fieldset>
      </form>
      ${
        progress &&
        html`<div class="progress" role="status" aria-live="polite">
          <label
            >Episodes: ${progress.done} of ${progress.total}
            <progress max=${progress.total} value=${progress.done}></progress>
          </label>
          <span class="muted">${formatEta(progress.etaSeconds)}</span>
          <button type="button" onClick=${() => client.stop()}>Stop</button>
        </div>`
      }
      ${built && html`<${BuildSummary} out=${built} />`}
    </section>
    ${message && html`<p role=${message.error ? 'alert' : 'status'} class=${message.error ? 'error' : 'done'}>${message.text}</p>`}
    <section aria-labelledby="stored-title">
      <h2 id="stored-title">Memories stored in this browser</h2>
      <p>
        Each can play the actor in Watch and Evaluate as the policy <code>principles:</code> followed by its name.
        Export writes the same file as <code>npm run principles -- build --out</code>; import reads such a file.
      </p>
      ${
        memories === null
          ? html`<p class="muted" aria-live="polite">Reading the stored memories…</p>`
          : html`<${MemoryTable}
              memories=${memories}
              open=${open}
              onOpen=${(name: string) => setParams({ memory: name })}
              onExport=${exportMemory}
              onDelete=${remove}
            />`
      }
      <${Field} id="pr-import" label="Import memory files (JSON)">
        <input id="pr-import" type="file" multiple accept=".json,application/json" onChange=${importFiles} />
      </${Field}>
    </section>
    ${
      missing &&
      html`<div class="missing" role="alert">
        <p>
          This link names the memory <strong>${open}</strong>, which this browser does not have (it was built
          in another browser).
        </p>
        <p>
          ${
            config.name === open
              ? html`<button type="button" onClick=${() => void build()} disabled=${progress !== null}>
                    Build “${open}” here</button
                  >${' '} with the link’s settings (${config.task}, ${config.episodes} episodes, random seed
                  ${config.rngSeed}),`
              : html`<a
                    href=${formatHash({ page: 'principles', params: { ...route.value.params, name: open } })}
                    >Build “${open}” here with the link’s settings</a
                  >,`
          }
          or import the teacher’s exported memory file below.
        </p>
      </div>`
    }
    ${
      open &&
      !missing &&
      principles?.name !== open &&
      html`<p class="muted" aria-live="polite">Reading the principles of “${open}”…</p>`
    }
    ${
      principles &&
      principles.name === open &&
      html`<${PrincipleBrowser}
          name=${open}
          principles=${principles.list}
          query=${param('q', '')}
          onQuery=${(q: string) => setParams({ q })}
        />
        <${QueryForm} name=${open} />`
    }`;
}
