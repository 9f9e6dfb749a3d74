/**
 * Evaluate: policies compared on the same episodes of one task, with the evaluate job (src/jobs/evaluate.ts) in
 * the episode worker — the job `npm run evaluate` runs, so the same configuration gives the same numbers. Shows
 * the results table with 95% intervals, a chart of mean return with its interval per policy, the paired
 * differences against the first policy, and downloads of the report as JSON, CSV and Markdown.
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import type { EvalReport } from '../../../src/eval/report';
import { reportToCsv, reportToJson, reportToMarkdown } from '../../../src/eval/report-format';
import type { EvaluateConfig } from '../../../src/jobs/evaluate';
import { formatEstimate } from '../../../src/stats/intervals';
import { getTask } from '../../../src/tasks';
import { TASK_IDS, type TaskId } from '../../../src/tasks/seed';
import { Field, Term } from '../glossary';
import { EpisodeJobRunner, JobStoppedError } from '../jobs';
import { LinePlot, seriesColor } from '../plot';
import { JobProgressBar } from '../progress';
import { param, setParams } from '../router';
import { templatePolicies } from './watch';

const runner = new EpisodeJobRunner();

/** The page's configuration from the URL (class mode), with defaults: random vs standard, 6 episodes each. */
export function evaluateConfig(get: (k: string, d: string) => string): EvaluateConfig & { tasks: [TaskId] } {
  const t = get('task', 'p4g');
  const task = ((TASK_IDS as readonly string[]).includes(t) ? t : 'p4g') as TaskId;
  const policies = get('policies', 'random,standard').split(',').filter(Boolean);
  return {
    tasks: [task],
    policies: policies.length > 0 ? policies : ['random'],
    episodes: Math.max(1, Math.floor(Number(get('episodes', '6')) || 6)),
    rngSeed: Math.max(0, Math.floor(Number(get('rng', '0')) || 0)),
  };
}

function download(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function Results({ report }: { report: EvalReport }) {
  const rows = report.results;
  const x = rows.map((_, i) => i + 1);
  return html`<section aria-labelledby="eval-results">
    <h2 id="eval-results">Results</h2>
    <table class="eval">
      <caption>
        Per policy, with
        <${Term} term="interval" label="95% intervals" />
      </caption>
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">policy</th>
          <th scope="col">episodes</th>
          <th scope="col"><${Term} term="success" /> rate</th>
          <th scope="col">mean <${Term} term="return" /></th>
          <th scope="col">turns</th>
        </tr>
      </thead>
      <tbody>
        ${rows.map(
          (r, i) =>
            html`<tr>
              <td>${i + 1}</td>
              <td>${r.policy}</td>
              <td>${r.episodes}</td>
              <td class="success">${formatEstimate(r.successRate)}</td>
              <td class="return">${formatEstimate(r.meanReturn)}</td>
              <td>${formatEstimate(r.avgTurnsAll, 1)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
    <${LinePlot}
      title="Mean return by policy (number as in the table), with its 95% interval"
      x=${x}
      xLabel="policy"
      series=${[
        { label: 'mean return', values: rows.map((r) => r.meanReturn.mean), color: seriesColor(0) },
        { label: 'interval low', values: rows.map((r) => r.meanReturn.lo), color: seriesColor(4) },
        { label: 'interval high', values: rows.map((r) => r.meanReturn.hi), color: seriesColor(4) },
      ]}
    />
    ${
      report.paired.length > 0 &&
      html`<table class="paired">
        <caption>
          Paired differences (policy − reference, same episodes)
        </caption>
        <thead>
          <tr>
            <th scope="col">policy</th>
            <th scope="col">reference</th>
            <th scope="col">metric</th>
            <th scope="col">difference [95% interval]</th>
          </tr>
        </thead>
        <tbody>
          ${report.paired.map(
            (p) =>
              html`<tr>
                <td>${p.policy}</td>
                <td>${p.reference}</td>
                <td>${p.metric}</td>
                <td>${formatEstimate(p)}</td>
              </tr>`,
          )}
        </tbody>
      </table>`
    }
    <p>
      Download the report:
      <button
        type="button"
        onClick=${() => download('report.json', reportToJson(report), 'application/json')}
      >
        JSON
      </button>
      <button type="button" onClick=${() => download('report.csv', reportToCsv(report), 'text/csv')}>
        CSV
      </button>
      <button type="button" onClick=${() => download('report.md', reportToMarkdown(report), 'text/markdown')}>
        Markdown
      </button>
    </p>
  </section>`;
}

export default function Evaluate() {
  const config = evaluateConfig(param);
  const task = config.tasks[0];
  const [report, setReport] = useState<EvalReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const running = runner.progress.value !== null;
  const chosen = new Set(config.policies);

  const start = async (e: Event) => {
    e.preventDefault();
    setReport(null);
    setError(null);
    try {
      const out = await runner.run((api) => api.evaluate(config));
      setReport(out.report);
    } catch (err) {
      setError(
        err instanceof JobStoppedError
          ? `Stopped: ${err.message}.`
          : `The evaluation failed: ${(err as Error).message}`,
      );
    }
  };

  return html`<form onSubmit=${start}>
      <fieldset disabled=${running}>
        <legend>What to compare</legend>
        <${Field} id="eval-task" label="Task">
          <select
            id="eval-task"
            value=${task}
            onChange=${(e: Event) => setParams({ task: (e.target as HTMLSelectElement).value, policies: '' })}
          >
            ${TASK_IDS.map((id) => html`<option value=${id}>${getTask(id).title}</option>`)}
          </select>
        </${Field}>
        <${Field} id="eval-policies" label="Policies (Ctrl/Shift-click for several)" term="policy">
          <select
            id="eval-policies"
            multiple
            size="5"
            onChange=${(e: Event) =>
              setParams({
                policies: [...(e.target as HTMLSelectElement).selectedOptions].map((o) => o.value).join(','),
              })}
          >
            ${templatePolicies(task).map((p) => html`<option value=${p} selected=${chosen.has(p)}>${p}</option>`)}
          </select>
        </${Field}>
        <${Field} id="eval-episodes" label="Episodes per policy" term="episode">
          <input
            id="eval-episodes"
            type="number"
            min="1"
            max="500"
            value=${config.episodes}
            onChange=${(e: Event) => setParams({ episodes: (e.target as HTMLInputElement).value })}
          />
        </${Field}>
        <${Field} id="eval-rng" label="Random seed of the run">
          <input
            id="eval-rng"
            type="number"
            min="0"
            value=${config.rngSeed}
            onChange=${(e: Event) => setParams({ rng: (e.target as HTMLInputElement).value })}
          />
        </${Field}>
        <button type="submit">Evaluate</button>
      </fieldset>
    </form>
    <${JobProgressBar} runner=${runner} what="Evaluating" />
    ${error && html`<p role="alert" class="error">${error}</p>`}
    ${report && html`<${Results} report=${report} />`}`;
}
