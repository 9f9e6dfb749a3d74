/**
 * The runs stored in this browser (CSTPO and GRPO-EmoLLM), one row each with its algorithm: resume (a stopped or
 * paused run), one more step, held-out evaluation (CSTPO runs), export as a file, delete; and the held-out
 * evaluation's table (trained policy, its SFT start and the uniform random policy, with 95% intervals).
 */
import { html } from 'htm/preact';
import type { ListedRun } from '../../../src/entries/storage';
import { formatEstimate, type EpisodeSummary } from '../../../src/entries/evaluation';
import { Term } from '../glossary';

/** What the trainer worker's `evaluate` returns, as the page shows it. */
export interface ShownEvaluation {
  runId: string;
  seeds: number;
  repeats: number;
  policies: Record<string, EpisodeSummary | null>;
}

/** What a row's buttons do. */
export interface RunActions<R extends ListedRun = ListedRun> {
  resume: (r: R) => void;
  more: (r: R) => void;
  evaluate: (r: R) => void;
  exportRun: (r: R) => void;
  remove: (r: R) => void;
}

/** How the table names each algorithm. */
export const ALGO_NAMES: Record<ListedRun['algo'], string> = { cstpo: 'CSTPO', 'grpo-emollm': 'GRPO-EmoLLM' };

/**
 * A stored run's status for people: a run stored as `running` while this page trains nothing was interrupted
 * (the page was closed or reloaded mid-step); it resumes from its last saved step.
 */
export function shownStatus(r: ListedRun, live: boolean): string {
  return r.status === 'running' && !live ? 'interrupted' : r.status;
}

export function RunsTable<R extends ListedRun>(props: {
  runs: R[];
  busy: boolean;
  /** Whether this page is training now (a `running` run is otherwise shown as interrupted). */
  live?: boolean;
  actions: RunActions<R>;
}) {
  const { runs, busy, actions: a } = props;
  if (runs.length === 0) return html`<p>No run is stored in this browser yet.</p>`;
  const button = (label: string, name: string, f: () => void) =>
    html`<button type="button" disabled=${busy} aria-label=${name} onClick=${f}>${label}</button>`;
  return html`<table class="runs">
    <caption>
      Runs stored in this browser
    </caption>
    <thead>
      <tr>
        <th scope="col">run</th>
        <th scope="col">algorithm</th>
        <th scope="col">task</th>
        <th scope="col">steps</th>
        <th scope="col">status</th>
        <th scope="col">actions</th>
      </tr>
    </thead>
    <tbody>
      ${runs.map(
        (r) =>
          html`<tr>
            <td>${r.id}</td>
            <td class="algo">${ALGO_NAMES[r.algo]}</td>
            <td>${r.config.task}</td>
            <td>${r.step} of ${Math.max(r.step, r.config.steps)}</td>
            <td class="status">${shownStatus(r, props.live ?? false)}</td>
            <td>
              ${r.status !== 'finished' && button('Resume', `Resume ${r.id}`, () => a.resume(r))}
              ${button('One more step', `One more step of ${r.id}`, () => a.more(r))}
              ${
                r.algo === 'cstpo' &&
                button('Evaluate', `Evaluate ${r.id} on held-out seeds`, () => a.evaluate(r))
              }
              ${button('Export', `Export ${r.id}`, () => a.exportRun(r))}
              ${button('Delete', `Delete ${r.id}`, () => a.remove(r))}
            </td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

const NAMES: Record<string, string> = {
  cstpo: 'trained (CSTPO)',
  sft: 'its supervised start (SFT)',
  random: 'uniform random strategies',
};

export function EvaluationTable({ e }: { e: ShownEvaluation }) {
  return html`<table class="evaluation">
    <caption>
      Held-out evaluation of ${e.runId}: ${e.seeds}${' '}
      <${Term} term="held-out seeds" label="held-out seeds" />${' '} × ${e.repeats} repeats
    </caption>
    <thead>
      <tr>
        <th scope="col">policy</th>
        <th scope="col">mean <${Term} term="return" /> (95% <${Term} term="interval" />)</th>
        <th scope="col"><${Term} term="success" /> rate</th>
      </tr>
    </thead>
    <tbody>
      ${Object.entries(e.policies).map(
        ([k, s]) =>
          s &&
          html`<tr>
            <th scope="row">${NAMES[k] ?? k}</th>
            <td class="return">${formatEstimate(s.meanReturn)}</td>
            <td class="success">${formatEstimate(s.successRate)}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}
