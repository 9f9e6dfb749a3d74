/**
 * Honest links: a class link may name something kept only in the teacher's browser — a Principles memory
 * (`principles:<name>`), a trained run (`cstpo:<run id>`) or a seed set. When this browser lacks it, the page says
 * so and offers what can be done: build it here with the link's settings, or load the teacher's exported file.
 */
import { html } from 'htm/preact';
import { policyResource } from '../../src/entries/policies';
import type { StoredPolicy } from '../../workers/episode-app';
import { formatHash, param, setParams } from './router';
import { SEED_SET_PARAM } from './data/seedsets';

/** Whether a policy name needs something stored in this browser. */
export const isStoredPolicy = (p: string) => policyResource(p) !== null;

/** The Principles page building memory `name` of `task` with the link's build settings (if it has any). */
export function buildMemoryHref(task: string, name: string): string {
  const params: Record<string, string> = { task, name, memory: name };
  const episodes = param('memEpisodes', '');
  const rng = param('memRng', '');
  if (episodes) params.episodes = episodes;
  if (rng) params.rng = rng;
  return formatHash({ page: 'principles', params });
}

/**
 * For each stored-kind policy of `policies` that this browser lacks (once `stored` is known), what it is and the
 * two ways to get it.
 */
export function MissingPolicies(props: { task: string; stored: StoredPolicy[] | null; policies: string[] }) {
  if (props.stored === null) return null;
  const have = new Set(props.stored.map((s) => s.policy));
  const missing = props.policies.filter((p) => isStoredPolicy(p) && !have.has(p));
  if (missing.length === 0) return null;
  return html`${missing.map((p) => {
    const [kind, ...rest] = p.split(':');
    const name = rest.join(':');
    if (kind === 'principles')
      return html`<div class="missing" role="alert">
        <p>
          This link names the memory <strong>${name}</strong>, which this browser does not have (it was built
          in another browser).
        </p>
        <p>
          <a href=${buildMemoryHref(props.task, name)}>Build “${name}” here with the link’s settings</a> (a
          few seconds), or${' '}
          <a href=${formatHash({ page: 'principles', params: { task: props.task } })}
            >load the teacher’s exported memory file</a
          >
          on the Principles page; then come back to this link.
        </p>
      </div>`;
    const task = name.split('.')[0] ?? props.task;
    return html`<div class="missing" role="alert">
      <p>
        This link names the trained run <strong>${name}</strong>, which this browser does not have (it was
        trained in another browser).
      </p>
      <p>
        <a href=${formatHash({ page: 'train', params: { task, steps: '3', perstep: '1', sft: '5' } })}
          >Train a small run of this task here</a
        >
        (its policy is then <code>cstpo:</code> and the new run’s id), or${' '}
        <a href=${formatHash({ page: 'train', params: { task } })}>import the teacher’s exported run file</a
        >${' '} on the Train page, which keeps the run’s id, so this link works afterwards.
      </p>
    </div>`;
  })}`;
}

/** A seed set named by the link but not stored here: load the teacher's file on the Data page, or use the bundled seeds. */
export function MissingSeedSet(props: { id: string; error: string }) {
  return html`<div class="missing" role="alert">
    <p>${props.error}.</p>
    <p>
      <a href=${formatHash({ page: 'data', params: {} })}>Load the teacher’s seed file on the Data page</a> (a
      seed set’s id comes from its content, so the same file gives the same id and this link then works),
      or${' '}
      <button type="button" onClick=${() => setParams({ [SEED_SET_PARAM]: 'bundled', seeds: '' })}>
        use the bundled seeds
      </button>
    </p>
  </div>`;
}
