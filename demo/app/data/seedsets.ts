/**
 * Seed sets for every page, and the trajectory store for Watch and Play. A page reads its seed set from the URL
 * parameter {@link SEED_SET_PARAM} (class mode: `#/train?task=esconv&seedset=s-0123456789ab`; a seed set's id is
 * a hash of its content, so every student who loads the same file on the Data page gets the same id) and calls
 * {@link seedsFor}; {@link SeedSetField} is the form control that picks one. {@link keepTrajectories} stores a
 * batch of episode trajectories (the simulate job's lines) in one transaction, listed on the Data page.
 */
import { html } from 'htm/preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { defaultSeeds, type Seed, type TaskId } from '../../../src/entries/simulator';
import { Field } from '../glossary';
import { SeedSetError } from './errors';
import { DataStore, type DataSet } from './store';

/** The URL parameter naming the seed set of a page (absent or `bundled`: the task's bundled seeds). */
export const SEED_SET_PARAM = 'seedset';

let opened: Promise<DataStore> | undefined;
/**
 * This page's connection to the data store, opened on first use (a failed open is retried on the next call).
 * @throws the open errors of {@link DataStore.open} (StorageError (STORAGE_BLOCKED), …).
 */
export function dataStore(): Promise<DataStore> {
  opened ??= DataStore.open().catch((e: unknown) => {
    opened = undefined;
    throw e;
  });
  return opened;
}

/** The stored seed sets of `task` (every task when omitted). */
export async function listSeedSets(task?: string): Promise<DataSet[]> {
  const sets = await (await dataStore()).list();
  return sets.filter((s) => s.kind === 'seeds' && (task === undefined || s.task === task));
}

/**
 * The seeds of `task` from seed set `id` (`''` or `bundled`: the task's bundled seeds, a fresh copy).
 * @throws SeedSetError when the set is not stored in this browser or holds seeds of another task; storage
 *   errors of src/store.
 */
export async function seedsFor(task: TaskId, id: string): Promise<Seed[]> {
  if (id === '' || id === 'bundled') return defaultSeeds(task);
  const loaded = await (await dataStore()).load(id);
  if (!loaded || loaded.set.kind !== 'seeds')
    throw new SeedSetError(
      `seed set ${id} is not stored in this browser: load its file on the Data page first`,
    );
  if (loaded.set.task !== task)
    throw new SeedSetError(`seed set ${id} (${loaded.set.name}) holds ${loaded.set.task} seeds, not ${task}`);
  return loaded.items as Seed[];
}

/**
 * The seeds of seed set `id` of `task` for a page, as {@link seedsFor} gives them: the bundled seeds at once, a
 * stored set once read (`seeds` null until then, or for good with `error`, the reason in words).
 */
export function useSeedSet(task: TaskId, id: string): { seeds: Seed[] | null; error: string | null } {
  const bundled = id === '' || id === 'bundled';
  const key = `${task} ${id}`;
  const fresh = useMemo(() => (bundled ? defaultSeeds(task) : null), [key]);
  const [loaded, setLoaded] = useState<{ key: string; seeds?: Seed[]; error?: string } | null>(null);
  useEffect(() => {
    if (bundled) return;
    let live = true;
    seedsFor(task, id).then(
      (seeds) => live && setLoaded({ key, seeds }),
      (e: unknown) => live && setLoaded({ key, error: (e as Error).message }),
    );
    return () => {
      live = false;
    };
  }, [key]);
  if (fresh) return { seeds: fresh, error: null };
  if (loaded?.key !== key) return { seeds: null, error: null };
  return { seeds: loaded.seeds ?? null, error: loaded.error ?? null };
}

/**
 * Store one batch of episode trajectories (e.g. a Watch run's simulate-job lines) as a set, in one transaction;
 * it is listed, exportable and deletable on the Data page.
 * @param name a name for people, e.g. `watch p4g standard ×4`.
 * @throws DiskFullError (STORAGE_QUOTA) when out of space (nothing written, earlier sets intact); open errors of src/store.
 */
export async function keepTrajectories(
  name: string,
  task: string,
  lines: readonly unknown[],
): Promise<DataSet> {
  return (await dataStore()).save('trajectories', name, task, lines);
}

/**
 * A select of the seeds a page uses: the bundled ones, or a stored seed set of `task`. `onChange` gets the
 * chosen id (`bundled` or a set id) — write it to the URL's {@link SEED_SET_PARAM}.
 */
export function SeedSetField(props: {
  id: string;
  task: string;
  value: string;
  onChange: (id: string) => void;
}) {
  const [sets, setSets] = useState<DataSet[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    listSeedSets(props.task).then(
      (s) => live && setSets(s),
      (e: unknown) => live && setError((e as Error).message),
    );
    return () => {
      live = false;
    };
  }, [props.task]);
  const value = props.value || 'bundled';
  const known = value === 'bundled' || sets.some((s) => s.id === value);
  return html`<${Field} id=${props.id} label="Seeds" term="seed set">
    <select id=${props.id} value=${value} onChange=${(e: Event) => props.onChange((e.target as HTMLSelectElement).value)}>
      <option value="bundled">bundled seeds</option>
      ${sets.map((s) => html`<option value=${s.id}>${s.name} (${s.count} seeds)</option>`)}
      ${!known && html`<option value=${value}>${value} (not stored here)</option>`}
    </select>
    ${error && html`<span class="error" role="alert">${error}</span>`}
  </${Field}>`;
}
