/**
 * Train: CSTPO in the library's trainer worker (workers/trainer.worker.ts), started when the person starts or
 * lists runs: task, steps, seeds per step, ablations and backend preference; the chosen tfjs backend with the
 * reason each better one was skipped; live learning curves after each step; pause, resume and stop; the runs
 * stored in this browser (IndexedDB) with resume after a reload. Held-out evaluation and export/import of a run are
 * not built yet (the page says so).
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import * as Comlink from 'comlink';
import type { RunRecord } from '../../../src/rl/store';
import type { StepRecord } from '../../../src/rl/trainer';
import { getTask } from '../../../src/tasks';
import { defaultSeeds } from '../../../src/tasks/defaults';
import { TASK_IDS, type TaskId } from '../../../src/tasks/seed';
import type { TrainerEvent, TrainerWorkerApi } from '../../../workers/trainer.worker';
import { Field, Term } from '../glossary';
import { NotBuilt } from '../notbuilt';
import { LinePlot, seriesColor } from '../plot';
import { param, setParams } from '../router';

const PREFER: Record<string, ('webgpu' | 'webgl' | 'wasm' | 'cpu')[]> = {
  gpu: ['webgpu', 'webgl', 'cpu'],
  wasm: ['wasm', 'cpu'],
  cpu: ['cpu'],
};

let trainer: { api: Comlink.Remote<TrainerWorkerApi>; prefer: string; backend: string } | undefined;
/** The trainer worker, started (and its backend chosen) on first use; a new preference restarts it. */
async function trainerFor(
  prefer: string,
): Promise<{ api: Comlink.Remote<TrainerWorkerApi>; backend: string }> {
  if (trainer && trainer.prefer === prefer) return trainer;
  const worker = new Worker(new URL('../../../workers/trainer.worker.ts', import.meta.url), {
    type: 'module',
  });
  const api = Comlink.wrap<TrainerWorkerApi>(worker);
  const choice = await api.init({ prefer: PREFER[prefer] ?? PREFER.gpu });
  trainer = { api, prefer, backend: choice.summary };
  return trainer;
}

const num = (v: string, d: number, lo: number, hi: number) =>
  Math.min(hi, Math.max(lo, Math.floor(Number(v) || d)));

export default function Train() {
  const t = param('task', 'esconv');
  const task = ((TASK_IDS as readonly string[]).includes(t) ? t : 'esconv') as TaskId;
  const steps = num(param('steps', '3'), 3, 1, 1000);
  const seedsPerStep = num(param('perstep', '2'), 2, 1, 50);
  const sftEpochs = num(param('sft', '20'), 20, 0, 1000);
  const prefer = param('backend', 'gpu');
  const ablate = new Set(param('ablate', '').split(',').filter(Boolean));
  const [history, setHistory] = useState<StepRecord[]>([]);
  const [status, setStatus] = useState<string | null>(null);
  const [backend, setBackend] = useState<string | null>(null);
  const [runs, setRuns] = useState<RunRecord[] | null>(null);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onEvent = Comlink.proxy((e: TrainerEvent) => {
    if (e.type === 'step') setHistory((h) => [...h.filter((r) => r.step < e.record.step), e.record]);
    else if (e.type === 'status') setStatus(e.status);
  });

  async function go(f: (api: Comlink.Remote<TrainerWorkerApi>) => Promise<unknown>) {
    setError(null);
    setRunning(true);
    try {
      const { api, backend: b } = await trainerFor(prefer);
      setBackend(b);
      await f(api);
      setRuns(await api.listRuns());
    } catch (e) {
      setError(`Training failed: ${(e as Error).message}`);
    } finally {
      setRunning(false);
    }
  }
  const start = (e: Event) => {
    e.preventDefault();
    setHistory([]);
    setStatus(null);
    const runId = `${task}-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    void go((api) =>
      api.start(
        runId,
        {
          task,
          steps,
          seedsPerStep,
          sftEpochs,
          ablations: {
            cognitiveState: !ablate.has('cognitiveState'),
            hierarchicalCritic: !ablate.has('hierarchicalCritic'),
            branching: !ablate.has('branching'),
          },
        },
        defaultSeeds(task),
        onEvent,
      ),
    );
  };
  const resume = (run: RunRecord) =>
    go(async (api) => {
      setHistory(await api.history(run.id));
      await api.resume(run.id, defaultSeeds(run.config.task), onEvent);
    });

  const x = history.map((r) => r.step);
  const curve = (label: string, values: (number | null)[], i: number) => ({
    label,
    values,
    color: seriesColor(i),
  });
  return html`<form onSubmit=${start}>
      <fieldset disabled=${running}>
        <legend>A new training run</legend>
        <${Field} id="train-task" label="Task">
          <select id="train-task" value=${task} onChange=${(e: Event) => setParams({ task: (e.target as HTMLSelectElement).value })}>
            ${TASK_IDS.map((id) => html`<option value=${id}>${getTask(id).title}</option>`)}
          </select>
        </${Field}>
        <${Field} id="train-steps" label="RL steps">
          <input id="train-steps" type="number" min="1" max="1000" value=${steps} onChange=${(e: Event) => setParams({ steps: (e.target as HTMLInputElement).value })} />
        </${Field}>
        <${Field} id="train-perstep" label="Seeds per step" term="seed">
          <input id="train-perstep" type="number" min="1" max="50" value=${seedsPerStep} onChange=${(e: Event) => setParams({ perstep: (e.target as HTMLInputElement).value })} />
        </${Field}>
        <${Field} id="train-sft" label="Supervised warm-start epochs">
          <input id="train-sft" type="number" min="0" max="1000" value=${sftEpochs} onChange=${(e: Event) => setParams({ sft: (e.target as HTMLInputElement).value })} />
        </${Field}>
        <${Field} id="train-backend" label="Compute backend preference">
          <select id="train-backend" value=${prefer} onChange=${(e: Event) => setParams({ backend: (e.target as HTMLSelectElement).value })}>
            <option value="gpu">WebGPU, then WebGL, then CPU</option>
            <option value="wasm">WebAssembly, then CPU</option>
            <option value="cpu">CPU only</option>
          </select>
        </${Field}>
        <fieldset class="ablations">
          <legend>Ablations (switch a part off)</legend>
          ${(['cognitiveState', 'hierarchicalCritic', 'branching'] as const).map(
            (a) =>
              html`<label class="inline"
                ><input
                  type="checkbox"
                  checked=${ablate.has(a)}
                  onChange=${(e: Event) => {
                    const next = new Set(ablate);
                    if ((e.target as HTMLInputElement).checked) next.add(a);
                    else next.delete(a);
                    setParams({ ablate: [...next].join(',') });
                  }}
                />
                without ${a}</label
              >`,
          )}
        </fieldset>
        <button type="submit">Start training</button>
        <button type="button" onClick=${() => go(async () => undefined)}>Show stored runs</button>
      </fieldset>
    </form>
    ${
      running &&
      html`<p role="status" aria-live="polite">
        Training${status ? ` (${status})` : ''}: step ${history.at(-1)?.step ?? 0} of ${steps}
        <progress max=${steps} value=${history.at(-1)?.step ?? 0}></progress>
        <button type="button" onClick=${() => trainer?.api.pause()}>Pause</button>
        <button type="button" onClick=${() => trainer?.api.resumeRun()}>Resume</button>
        <button type="button" onClick=${() => trainer?.api.stop()}>Stop</button>
      </p>`
    }
    ${backend && html`<p>Compute backend: <strong>${backend}</strong></p>`}
    ${error && html`<p role="alert" class="error">${error}</p>`}
    ${
      history.length > 0 &&
      html`<div class="plots">
        <${LinePlot}
          title="Mean return and success rate"
          x=${x}
          xLabel="step"
          series=${[
            curve(
              'mean return',
              history.map((r) => r.meanReturn),
              0,
            ),
            curve(
              'success rate',
              history.map((r) => r.successRate),
              1,
            ),
          ]}
        />
        <${LinePlot}
          title="Losses"
          x=${x}
          xLabel="step"
          series=${[
            curve(
              'actor loss',
              history.map((r) => r.losses.actorLoss),
              2,
            ),
            curve(
              'critic loss',
              history.map((r) => r.losses.criticLoss),
              3,
            ),
          ]}
        />
        <${LinePlot}
          title="Strategy entropy (nats)"
          x=${x}
          xLabel="step"
          series=${[
            curve(
              'strategy entropy',
              history.map((r) => r.losses.strategyEntropy),
              0,
            ),
          ]}
        />
      </div>`
    }
    ${
      runs &&
      html`<table class="runs">
        <caption>
          Runs stored in this browser
        </caption>
        <thead>
          <tr>
            <th scope="col">run</th>
            <th scope="col">task</th>
            <th scope="col">steps</th>
            <th scope="col">status</th>
            <th scope="col">resume</th>
          </tr>
        </thead>
        <tbody>
          ${runs.map(
            (r) =>
              html`<tr>
                <td>${r.id}</td>
                <td>${r.config.task}</td>
                <td>${r.step} of ${r.config.steps}</td>
                <td>${r.status}</td>
                <td>
                  ${
                    r.status !== 'finished' &&
                    html`<button
                      type="button"
                      disabled=${running}
                      aria-label=${`Resume ${r.id}`}
                      onClick=${() => resume(r)}
                    >
                      Resume
                    </button>`
                  }
                </td>
              </tr>`,
          )}
        </tbody>
      </table>`
    }
    <${NotBuilt}
      >Held-out evaluation of a run, branch-count curves, and export / import of a run as a file are not built in
      this page yet (<code>npm run train</code> and <code>npm run evaluate</code> do them), and a trained run cannot
      yet be chosen as a policy on Watch or Evaluate. The curves show each step's mean
      <${Term} term="return" /> and <${Term} term="success" /> rate on the step's training episodes.</${NotBuilt}
    >`;
}
