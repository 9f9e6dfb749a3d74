/**
 * Evaluate: policies compared on the same episodes of one task, with the evaluate job (src/jobs/evaluate.ts) in
 * the episode worker — the job `npm run evaluate` runs, so the same configuration gives the same numbers. Shows
 * the results table with 95% intervals, a chart of mean return with its interval per policy, the paired
 * differences against the first policy, and downloads of the report as JSON, CSV and Markdown. The seeds are the
 * task's bundled ones or a seed set loaded on the Data page (URL parameter `seedset`, the job's `seedSets`).
 */
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { formatEstimate, type EvalReport, type EvaluateConfig } from '../../../src/entries/evaluation';
import { getTask, TASK_IDS, type TaskId } from '../../../src/entries/simulator';
import { Field, Term } from '../glossary';
import { downloadText } from '../data/download';
import { EpisodeJobRunner, JobStoppedError } from '../jobs';
import { CategoryPlot } from '../plot';
import { JobProgressBar } from '../progress';
import { param, setParams, takeAutorun } from '../router';
import type { DoseResult, StoredPolicy } from '../../../workers/episode-app';
import { explainError } from '../errors';
import { SEED_SET_PARAM, SeedSetField, seedsFor } from '../data/seedsets';
import { parseReportFile, type ImportedReport } from './evaluate-import';
import { policyChoices, StoredPolicies } from './watch';
import { Checks } from '../checks';
import { isStoredPolicy, MissingPolicies } from '../missing';

const runner = new EpisodeJobRunner();
const doseRunner = new EpisodeJobRunner();

/** The report's files, made in the worker (the formatter is not loaded into the page). */
type ReportFiles = { json: string; csv: string; md: string };

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

/**
 * A report's per-policy rows with 95% intervals; the first column is `first` (its header and each row's cell: the
 * row number, or the task of an imported report).
 */
function ResultsTable(props: {
  cls: string;
  caption: unknown;
  first: { label: string; cell: (r: ImportedReport['results'][number], i: number) => unknown };
  rows: ImportedReport['results'];
  /** Names the table in its explain buttons (a page may show several). */
  where?: string;
}) {
  return html`<table class=${props.cls}>
    <caption>
      ${props.caption}
    </caption>
    <thead>
      <tr>
        <th scope="col">${props.first.label}</th>
        <th scope="col">policy</th>
        <th scope="col">episodes</th>
        <th scope="col"><${Term} term="success" where=${props.where} /> rate</th>
        <th scope="col">mean <${Term} term="return" where=${props.where} /></th>
        <th scope="col">turns</th>
      </tr>
    </thead>
    <tbody>
      ${props.rows.map(
        (r, i) =>
          html`<tr>
            <td>${props.first.cell(r, i)}</td>
            <td>${r.policy}</td>
            <td>${r.episodes}</td>
            <td class="success">${formatEstimate(r.successRate)}</td>
            <td class="return">${formatEstimate(r.meanReturn)}</td>
            <td>${formatEstimate(r.avgTurnsAll, 1)}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

/**
 * Where a policy's mean return is below the random policy's (both in this report), what that means: its choice of
 * strategy does worse than choosing blindly on these situations — a finding, not a bug of the page.
 */
function BelowRandom({ rows }: { rows: EvalReport['results'] }) {
  const random = rows.find((r) => r.policy === 'random');
  if (!random) return null;
  const below = rows.filter((r) => r !== random && r.meanReturn.mean < random.meanReturn.mean);
  if (below.length === 0) return null;
  const names = below.map((r) => r.policy).join(', ');
  return html`<p class="note below-random" role="note">
    <strong>Below random:</strong> ${names} scored a lower mean return than <code>random</code> here. On these
    situations its way of choosing strategies did worse than drawing one blindly each turn — for example by
    pressing the same appeal until the simulated user stopped listening. With few episodes the intervals
    overlap and the order may be chance: compare the paired difference below, or run more episodes.
  </p>`;
}

function Results({ report, files }: { report: EvalReport; files: ReportFiles }) {
  const rows = report.results;
  return html`<section aria-labelledby="eval-results">
    <h2 id="eval-results">Results</h2>
    <${ResultsTable}
      cls="eval"
      caption=${html`Per policy, with${' '}<${Term} term="interval" label="95% intervals" />`}
      first=${{ label: '#', cell: (_r: unknown, i: number) => i + 1 }}
      rows=${rows}
    />
    <${CategoryPlot}
      title="Mean return by policy, with its 95% interval"
      xLabel="policy"
      yLabel="mean return"
      y=${[0, 1]}
      categories=${rows.map((r) => ({ name: r.policy, value: r.meanReturn.mean, lo: r.meanReturn.lo, hi: r.meanReturn.hi }))}
    />
    <${BelowRandom} rows=${rows} />
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
      Download the report:${' '}
      <button type="button" onClick=${() => downloadText('report.json', files.json, 'application/json')}>
        JSON
      </button>
      <button type="button" onClick=${() => downloadText('report.csv', files.csv, 'text/csv')}>CSV</button>
      <button type="button" onClick=${() => downloadText('report.md', files.md, 'text/markdown')}>
        Markdown
      </button>
    </p>
  </section>`;
}

/** What each level of the bundled dose ladders says (src/eval/ladders.ts), and the outcome it moves. */
const DOSE_LEVELS: Readonly<Record<TaskId, { levels: string[]; outcome: string }>> = {
  esconv: {
    levels: ['dismissive', 'bare acknowledgement', 'empathy', 'empathy and a small step'],
    outcome: 'the user’s valence (−1 to +1)',
  },
  p4g: {
    levels: ['off-topic chat', 'bare request', 'request with a reason', 'evidence and a small request'],
    outcome: 'the strength of the donation intention (0 to 4)',
  },
  cb: {
    levels: ['offer at 55% of list', '70% of list', '85% of list', 'the list price'],
    outcome: 'the seller’s acceptance (0 to 1)',
  },
};

/**
 * The dose–response of one task: per level of the ladder (a category each), the mean over seeds with whiskers
 * from the lowest to the highest seed, and the monotone share.
 */
function DosePlot({ dose }: { dose: DoseResult }) {
  const info = DOSE_LEVELS[dose.task];
  const seeds = Object.entries(dose.perSeed);
  const monotone = Math.round(dose.monotoneShare * dose.seeds);
  return html`<section aria-labelledby="dose-results" class="dose">
    <h3 id="dose-results">Dose–response on ${getTask(dose.task).title}</h3>
    <p role="status" class="dose-summary">
      <${Term} term="monotone share" />: ${monotone} of ${dose.seeds} seeds
      (${(dose.monotoneShare * 100).toFixed(0)}%) — the outcome, ${info.outcome}, never fell from one level to
      the next and ended higher than it began.
    </p>
    <${CategoryPlot}
      title=${`Outcome per input level: mean over ${dose.seeds} seeds, whiskers from the lowest to the highest seed`}
      xLabel="input level, weakest first"
      yLabel=${info.outcome}
      spread="lowest to highest seed"
      categories=${dose.levelMeans.map((m, i) => {
        const perSeed = seeds.map(([, v]) => v[i]).filter((v): v is number => typeof v === 'number');
        return {
          name: info.levels[i] ?? `level ${i + 1}`,
          value: m,
          lo: perSeed.length > 0 ? Math.min(...perSeed) : null,
          hi: perSeed.length > 0 ? Math.max(...perSeed) : null,
        };
      })}
    />
    <table class="dose-levels">
      <caption>
        The levels of the ladder, weakest first
      </caption>
      <thead>
        <tr>
          <th scope="col">level</th>
          <th scope="col">what the actor says</th>
          <th scope="col">mean outcome</th>
        </tr>
      </thead>
      <tbody>
        ${dose.levelMeans.map(
          (m, i) =>
            html`<tr>
              <td>${i + 1}</td>
              <td>${info.levels[i] ?? ''}</td>
              <td class="dose-mean">${m.toFixed(3)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </section>`;
}

/** The dose–response validation of the simulator on the task's bundled ladder, run in the episode worker. */
function DoseResponse({ task }: { task: TaskId }) {
  const seeds = Math.min(20, Math.max(1, Math.floor(Number(param('doseSeeds', '6')) || 6)));
  const [dose, setDose] = useState<DoseResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const running = doseRunner.progress.value !== null;
  const start = async (e: Event) => {
    e.preventDefault();
    setDose(null);
    setError(null);
    try {
      setDose(await doseRunner.run((api) => api.doseResponse(task, seeds)));
    } catch (err) {
      setError(
        err instanceof JobStoppedError
          ? `Stopped: ${err.message}.`
          : `The check failed. ${explainError(err)}`,
      );
    }
  };
  return html`<section aria-labelledby="dose-title">
    <h2 id="dose-title">Does the simulated user respond to what is said?</h2>
    <p>
      A <${Term} term="dose–response" /> check: from the same starting point, the simulated user hears four
      inputs from weak to strong; a valid simulator’s outcome rises with the level. It is the check that${' '}<code>npm run validate-sim</code> runs.
    </p>
    <form onSubmit=${start}>
      <fieldset disabled=${running}>
        <legend>Dose–response on the task above</legend>
        <${Field} id="dose-seeds" label="Seeds" term="seed">
          <input
            id="dose-seeds"
            type="number"
            min="1"
            max="20"
            value=${seeds}
            onChange=${(e: Event) => setParams({ doseSeeds: (e.target as HTMLInputElement).value })}
          />
        </${Field}>
        <button type="submit">Check dose–response</button>
      </fieldset>
    </form>
    <${JobProgressBar} runner=${doseRunner} what="Dose–response" />
    ${error && html`<p role="alert" class="error">${error}</p>`}
    ${dose && html`<${DosePlot} dose=${dose} />`}
  </section>`;
}

/** A report file imported for comparison (a student's result on the teacher's screen). */
function Imported({ report, name }: { report: ImportedReport; name: string }) {
  return html`<${ResultsTable}
    cls="imported"
    where=${name}
    caption=${`Imported: ${name} (made ${report.generatedAt}, simulator ${report.simulatorVersion})`}
    first=${{ label: 'task', cell: (r: ImportedReport['results'][number]) => r.task }}
    rows=${report.results}
  />`;
}

/** Reads report files chosen by the person; each is checked and shown beside the current result. */
function ImportReports(props: { onImport: (list: { name: string; report: ImportedReport }[]) => void }) {
  const [error, setError] = useState<string | null>(null);
  const read = async (e: Event) => {
    const input = e.target as HTMLInputElement;
    const files = [...(input.files ?? [])];
    setError(null);
    const ok: { name: string; report: ImportedReport }[] = [];
    const bad: string[] = [];
    for (const f of files) {
      try {
        ok.push({ name: f.name, report: parseReportFile(await f.text(), f.name) });
      } catch (err) {
        bad.push(explainError(err));
      }
    }
    props.onImport(ok);
    if (bad.length > 0) setError(bad.join(' '));
  };
  return html`<p>
      <label
        >Compare with report files (the JSON this page downloads, e.g. a student’s)
        <input type="file" accept=".json,application/json" multiple onChange=${read} />
      </label>
    </p>
    ${error && html`<p role="alert" class="error">${error}</p>`}`;
}

export default function Evaluate() {
  const config = evaluateConfig(param);
  const task = config.tasks[0];
  const [report, setReport] = useState<{ report: EvalReport; files: ReportFiles } | null>(null);
  const [imported, setImported] = useState<{ name: string; report: ImportedReport }[]>([]);
  const [stored, setStored] = useState<StoredPolicy[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const running = runner.progress.value !== null;
  const chosen = new Set(config.policies);
  const seedSet = param(SEED_SET_PARAM, 'bundled');

  const start = async (e?: Event) => {
    e?.preventDefault();
    setReport(null);
    setError(null);
    try {
      // A stored seed set replaces the task's bundled seeds (the job's named seed sets).
      const run =
        seedSet === '' || seedSet === 'bundled'
          ? config
          : { ...config, seedSets: [{ task, name: seedSet, seeds: await seedsFor(task, seedSet) }] };
      const out = await runner.run(async (api) => {
        const { report: r } = await api.evaluate(run);
        return { report: r, files: await api.reportFiles(r) };
      });
      setReport(out);
    } catch (err) {
      setError(
        err instanceof JobStoppedError
          ? `Stopped: ${err.message}.`
          : `The evaluation failed. ${explainError(err)}`,
      );
    }
  };

  // A ready experiment (the home page's link): start at once.
  useEffect(() => {
    if (takeAutorun()) void start();
  }, []);

  return html`<form onSubmit=${start}>
      <fieldset disabled=${running}>
        <legend>What to compare</legend>
        <${Field} id="eval-task" label="Task">
          <select
            id="eval-task"
            value=${task}
            onChange=${(e: Event) => setParams({ task: (e.target as HTMLSelectElement).value, policies: '', [SEED_SET_PARAM]: '' })}
          >
            ${TASK_IDS.map((id) => html`<option value=${id}>${getTask(id).title}</option>`)}
          </select>
        </${Field}>
        <${Checks}
          legend="Policies to compare"
          term="policy"
          options=${policyChoices(task, stored, config.policies ?? [])}
          chosen=${chosen}
          onChange=${(ps: string[]) => setParams({ policies: ps.join(',') })}
        />
        <${StoredPolicies} task=${task} onList=${setStored} auto=${config.policies.some(isStoredPolicy)} />
        <${MissingPolicies} task=${task} stored=${stored} policies=${config.policies} />
        <${SeedSetField} id="eval-seedset" task=${task} value=${seedSet} onChange=${(id: string) => setParams({ [SEED_SET_PARAM]: id })} />
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
    <div class="compare">
      ${report && html`<${Results} report=${report.report} files=${report.files} />`}
      ${
        imported.length > 0 &&
        html`<section aria-labelledby="imported-title">
          <h2 id="imported-title">Imported reports</h2>
          ${imported.map((r) => html`<${Imported} report=${r.report} name=${r.name} />`)}
        </section>`
      }
    </div>
    <${ImportReports} onImport=${setImported} />
    <${DoseResponse} task=${task} />`;
}
