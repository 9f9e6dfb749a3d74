/** The progress bar, ETA and Stop button of a running job (see jobs.ts). */
import { html } from 'htm/preact';
import { formatEta, type EpisodeJobRunner } from './jobs';

export function JobProgressBar({ runner, what }: { runner: EpisodeJobRunner; what: string }) {
  const p = runner.progress.value;
  if (!p) return null;
  return html`<div class="progress" role="status" aria-live="polite">
    <label
      >${what}: ${p.total > 0 ? `${p.done} of ${p.total}` : 'running'}
      ${p.total > 0 ? html`<progress max=${p.total} value=${p.done}></progress>` : html`<progress></progress>`}
    </label>
    ${p.total > 0 && html`<span class="muted">${formatEta(p.etaSeconds)}</span>`}
    <button type="button" onClick=${() => runner.stop()}>Stop</button>
  </div>`;
}
