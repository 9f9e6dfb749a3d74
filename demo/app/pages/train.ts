/**
 * Train: CSTPO — or EmoLLM's GRPO (src/grpo) — in the library's trainer worker (workers/trainer.worker.ts, where
 * a CSTPO run is the train job of `npm run train` over IndexedDB), started when the person starts, lists or
 * imports runs: task, seeds (bundled or a stored seed set, split into training and held-out seeds as
 * `npm run train` splits them), steps and sizes, ablations and backend preference; the chosen tfjs backend with
 * the reason each better one was skipped; live learning curves after each step; stop (between steps, through the
 * job's abort signal) and resume; the runs of both algorithms stored in this browser (IndexedDB, listed without
 * starting the trainer worker or loading tfjs) with resume after a reload, one more step, export as one file and
 * import (which resumes exactly), and delete; CSTPO runs also get a held-out evaluation.
 */
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import * as Comlink from 'comlink';
import type { BackendChoice } from '../../../src/entries/models';
import {
  type GrpoRunRecord,
  type GrpoStepRecord,
  type TrainConfig,
  type RunRecord,
  type StepRecord,
} from '../../../src/entries/training';
import { listStoredRuns } from '../../../src/entries/storage';
import { getTask, TASK_IDS, type TaskId } from '../../../src/entries/simulator';
import type { TrainerEvent, TrainerWorkerApi } from '../../../workers/trainer.worker';
import { downloadText } from '../data/download';
import { readModelChoice, rolesConfigOf } from '../models/choice';
import { SEED_SET_PARAM, SeedSetField } from '../data/seedsets';
import { Field, Term } from '../glossary';
import { param, setParams, takeAutorun } from '../router';
import { formatEta } from '../jobs';
import { CstpoCurves, GrpoCurves } from '../train/curves';
import { runFromFile, runToFile } from '../train/runfile';
import { EvaluationTable, RunsTable, type ShownEvaluation } from '../train/runs';
import { newRunId, runSeeds, runSource } from '../train/seeds';
import { runningTrainer, trainerFor } from '../train/worker';

/** The roles configuration whose `judge` role scores LLM rewards (the Models page's choice); none for template. */
const judgeLanguage = (rewards: string | undefined) =>
  rewards === 'llm' ? rolesConfigOf(readModelChoice()) : undefined;

const num = (v: string, d: number, lo: number, hi: number) =>
  Math.min(hi, Math.max(lo, Math.floor(Number(v) || d)));
/** An optional number from the URL (undefined: the library's default). */
const opt = (key: string, lo: number, hi: number) => {
  const v = param(key, '');
  return v === '' ? undefined : num(v, lo, lo, hi);
};
const ABLATIONS = ['cognitiveState', 'hierarchicalCritic', 'branching'] as const;
/** Each ablation in words: what the run goes without. */
const ABLATION_WORDS: Record<(typeof ABLATIONS)[number], string> = {
  cognitiveState: 'without the user-state features (the actor sees the words only)',
  hierarchicalCritic: 'without the two-level critic (one value for the whole turn)',
  branching: 'without branching (no replays from a checkpoint turn)',
};

/**
 * What the run is doing now, for the status line: a phase in words, with `done` of `total` when counted, and
 * when the counting began (for the ETA).
 */
interface Phase {
  text: string;
  done?: number;
  total?: number;
  since: number;
}

/** "about 12 s left" from `done` of `total` in the time since `since` (null while nothing is done). */
function eta(p: Phase): string | null {
  if (p.done === undefined || p.total === undefined || p.done <= 0) return null;
  return formatEta(((performance.now() - p.since) / 1000 / p.done) * (p.total - p.done));
}

/** A stored run as listed (src/runs/list.ts): each algorithm's record, with the algorithm. */
type ShownRun = (RunRecord & { algo: 'cstpo' }) | (GrpoRunRecord & { algo: 'grpo-emollm' });
/** @param notice told when runs stored by an earlier version of the app were migrated (src/runs/store.ts). */
const listRuns = async (notice?: (line: string) => void) =>
  (await listStoredRuns({}, notice ? { notice } : {})) as ShownRun[];

/** Each algorithm's own size fields (the URL key `k` and its range). */
const ALGO_FIELDS = {
  cstpo: [
    { id: 'train-perstep', label: 'Seeds per step', k: 'perstep', min: 1, max: 50, term: 'seed' },
    { id: 'train-sft', label: 'Supervised warm-start epochs', k: 'sft', min: 0, max: 1000 },
  ],
  grpo: [
    { id: 'train-group', label: 'Trajectories per group (G)', k: 'group', min: 2, max: 64, term: 'group' },
    { id: 'train-groups', label: 'Groups per step', k: 'groups', min: 1, max: 100 },
    { id: 'train-depth', label: 'Lookahead depth', k: 'depth', min: 1, max: 8, hint: '3' },
  ],
} as const;

function NumberField(p: {
  id: string;
  label: string;
  k: string;
  value: number | undefined;
  min: number;
  max: number;
  hint?: string;
  term?: string;
}) {
  return html`<${Field} id=${p.id} label=${p.label} term=${p.term}>
    <input id=${p.id} type="number" min=${p.min} max=${p.max} placeholder=${p.hint ?? ''} value=${p.value ?? ''} onChange=${(e: Event) => setParams({ [p.k]: (e.target as HTMLInputElement).value })} />
  </${Field}>`;
}

function Backend({ choice }: { choice: BackendChoice }) {
  return html`<div class="backend">
    <p>Compute backend: <strong>${choice.backend}</strong></p>
    <ul>
      ${choice.attempts.map(
        (a) => html`<li>${a.name}: ${a.ok ? 'chosen' : `skipped — ${a.reason ?? 'failed'}`}</li>`,
      )}
    </ul>
  </div>`;
}

export default function Train() {
  const algo = param('algo', 'cstpo') === 'grpo' ? 'grpo' : 'cstpo';
  const t = param('task', 'esconv');
  const task = ((TASK_IDS as readonly string[]).includes(t) ? t : 'esconv') as TaskId;
  const seedSet = param(SEED_SET_PARAM, 'bundled');
  const steps = num(param('steps', '3'), 3, 1, 1000);
  const seedsPerStep = num(param('perstep', '2'), 2, 1, 50);
  const sftEpochs = num(param('sft', '20'), 20, 0, 1000);
  const horizon = opt('horizon', 1, 40);
  const width = opt('width', 4, 512);
  const rng = num(param('rng', '0'), 0, 0, 0xffffffff);
  const groupSize = num(param('group', '4'), 4, 2, 64);
  const groups = num(param('groups', '2'), 2, 1, 100);
  const depth = opt('depth', 1, 8);
  /** GRPO's Stage II rewards: template scorers, or the LLM judge on the Models page's `judge` role. */
  const rewards: 'llm' | 'template' = param('rewards', 'template') === 'llm' ? 'llm' : 'template';
  const repeats = num(param('repeats', '2'), 2, 1, 100);
  const prefer = param('backend', 'gpu');
  const ablate = new Set(param('ablate', '').split(',').filter(Boolean));
  const fieldValues: Record<string, number | undefined> = {
    perstep: seedsPerStep,
    sft: sftEpochs,
    group: groupSize,
    groups,
    depth,
  };
  const [history, setHistory] = useState<StepRecord[]>([]);
  const [curveConfig, setCurveConfig] = useState<Pick<TrainConfig, 'seedsPerStep' | 'ablations'> | null>(
    null,
  );
  const [grpoHistory, setGrpoHistory] = useState<GrpoStepRecord[]>([]);
  const [target, setTarget] = useState(steps);
  const [status, setStatus] = useState<string | null>(null);
  const [backend, setBackend] = useState<BackendChoice | null>(null);
  const [runs, setRuns] = useState<ShownRun[] | null>(null);
  const [running, setRunning] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [evaluation, setEvaluation] = useState<ShownEvaluation | null>(null);
  const [phase, setPhase] = useState<Phase | null>(null);

  // Stored runs are listed on arrival (IndexedDB only: neither the trainer worker nor tfjs is loaded).
  useEffect(() => {
    listRuns((line) => setPhase({ text: line.trim(), since: performance.now() })).then(
      setRuns,
      (e: unknown) => setError(`The stored runs could not be read: ${(e as Error).message}`),
    );
  }, []);

  /** The RL steps' phase: `done` of `target` steps, counted from the first step event. */
  const stepPhase = (done: number, total: number) =>
    setPhase((p) => ({
      text: 'Learning steps',
      done,
      total,
      since: p?.text === 'Learning steps' ? p.since : performance.now(),
    }));
  const onEvent = Comlink.proxy((e: TrainerEvent) => {
    if (e.type === 'step') {
      setHistory((h) => [...h.filter((r) => r.step < e.record.step), e.record]);
      stepPhase(e.record.step, e.record.step + Math.max(0, targetRef.current - e.record.step));
    } else if (e.type === 'grpo-step') {
      setGrpoHistory((h) => [...h.filter((r) => r.step < e.record.step), e.record]);
      stepPhase(e.record.step, Math.max(e.record.step, targetRef.current));
    } else if (e.type === 'sft') {
      const p = e.progress;
      setPhase((old) =>
        p.phase === 'examples'
          ? {
              text: `Supervised start: replaying the human turns of ${p.seeds} training seeds`,
              since: performance.now(),
            }
          : {
              text: 'Supervised start: epochs',
              done: p.done,
              total: p.total,
              since: old?.text === 'Supervised start: epochs' ? old.since : performance.now(),
            },
      );
    } else if (e.type === 'notice') {
      setPhase({ text: e.text, since: performance.now() });
    } else {
      setStatus(e.status);
      if (e.status === 'running') setPhase((p) => p ?? { text: 'Learning steps', since: performance.now() });
    }
  });
  const targetRef = useRef(steps);

  /**
   * Runs `f` (against the trainer worker, started when `f` asks for it; `what` names it in the status line), then
   * re-reads the stored runs.
   */
  async function go(
    what: string,
    f: (api: () => Promise<Comlink.Remote<TrainerWorkerApi>>) => Promise<unknown>,
  ) {
    setError(null);
    setRunning(what);
    setPhase({
      text: 'Starting the trainer (the network library loads the first time, a few seconds)',
      since: performance.now(),
    });
    const api = async () => {
      const { api: remote, choice } = await trainerFor(prefer);
      setBackend(choice);
      setPhase((p) =>
        p?.text.startsWith('Starting') ? { text: 'Preparing the run', since: performance.now() } : p,
      );
      return remote;
    };
    try {
      await f(api);
      setRuns(await listRuns());
    } catch (e) {
      setError(`${what} failed: ${(e as Error).message}`);
    } finally {
      setRunning(null);
      setPhase(null);
    }
  }
  const ablations = {
    cognitiveState: !ablate.has('cognitiveState'),
    hierarchicalCritic: !ablate.has('hierarchicalCritic'),
    branching: !ablate.has('branching'),
  };
  const sizes = {
    ...(horizon !== undefined ? { horizon } : {}),
    ...(width !== undefined ? { hidden: width, embedDim: width } : {}),
  };
  const start = (e?: Event) => {
    e?.preventDefault();
    setHistory([]);
    setGrpoHistory([]);
    setStatus(null);
    setTarget(steps);
    targetRef.current = steps;
    setEvaluation(null);
    const runId = newRunId(task, seedSet);
    if (algo === 'grpo')
      return void go('Training (GRPO)', async (worker) => {
        const { train } = await runSeeds(task, seedSet);
        const config = {
          task,
          steps,
          groupSize,
          groupsPerStep: groups,
          seed: rng,
          ...sizes,
          ...(depth !== undefined ? { depth } : {}),
          rewards,
        };
        await (await worker()).startGrpo(runId, config, train, onEvent, undefined, judgeLanguage(rewards));
      });
    setCurveConfig({ seedsPerStep, ablations });
    void go('Training', async (worker) => {
      const { train } = await runSeeds(task, seedSet);
      const config = { task, steps, seedsPerStep, sftEpochs, seed: rng, ablations, ...sizes };
      await (await worker()).start(runId, config, train, onEvent);
    });
  };
  /** Continue `run` (to `total` steps, or its own total); its curves first show the stored history. */
  const resume = (run: ShownRun, total?: number) =>
    go(run.algo === 'cstpo' ? 'Training' : 'Training (GRPO)', async (worker) => {
      const api = await worker();
      const { task: runTask, source } = runSource(run.id, run.config.task);
      const { train } = await runSeeds(runTask, source);
      setTarget(total ?? run.config.steps);
      targetRef.current = total ?? run.config.steps;
      if (run.algo === 'grpo-emollm') {
        setHistory([]);
        setGrpoHistory(await api.grpoHistory(run.id));
        return api.resumeGrpo(run.id, train, onEvent, undefined, judgeLanguage(run.config.rewards), total);
      }
      setGrpoHistory([]);
      setCurveConfig(run.config);
      setHistory(await api.history(run.id));
      return api.resume(run.id, train, onEvent, undefined, total);
    });
  const evaluate = (run: ShownRun) =>
    go('Evaluation', async (worker) => {
      setEvaluation(null);
      const { task: runTask, source } = runSource(run.id, run.config.task);
      const { heldOut } = await runSeeds(runTask, source);
      const r = await (await worker()).evaluate(run.id, heldOut, repeats, rng || 1);
      setEvaluation({ runId: run.id, seeds: r.seeds, repeats: r.repeats, policies: r.policies });
    });
  const exportRun = (run: ShownRun) =>
    go('Export', async (worker) => {
      const stored = await (await worker()).exportRun(run.id, run.algo);
      downloadText(`${run.id}.run.json`, runToFile(stored), 'application/json');
    });
  const remove = (run: ShownRun) =>
    go('Delete', async (worker) => (await worker()).deleteRun(run.id, run.algo));
  const importRun = (e: Event) => {
    const input = e.target as HTMLInputElement;
    const file = input.files?.[0];
    if (!file) return;
    void go('Import', async (worker) => {
      const stored = runFromFile(file.name, await file.text());
      const id = stored.run.run.id;
      if ((await listRuns()).some((r) => r.id === id))
        throw new Error(`a run named ${id} is stored already; delete it first`);
      await (await worker()).importRun(stored);
    }).then(() => (input.value = ''));
  };

  // A ready experiment (the home page's link): start at once.
  useEffect(() => {
    if (takeAutorun()) start();
  }, []);

  /** Training of either algorithm stops between steps (the run is saved) and resumes from its row. */
  const training = running?.startsWith('Training') ?? false;
  const done = running === 'Training (GRPO)' ? (grpoHistory.at(-1)?.step ?? 0) : (history.at(-1)?.step ?? 0);
  const setAlgo = (e: Event) => setParams({ algo: (e.target as HTMLSelectElement).value });
  return html`<form onSubmit=${start}>
      <fieldset disabled=${running !== null}>
        <legend>A new training run</legend>
        <${Field} id="train-algo" label="Algorithm" term="algorithm">
          <select id="train-algo" value=${algo} onChange=${setAlgo}>
            <option value="cstpo">CSTPO (strategy and utterance policy)</option>
            <option value="grpo">GRPO-EmoLLM (response-strategy and scorer heads)</option>
          </select>
        </${Field}>
        <${Field} id="train-task" label="Task">
          <select id="train-task" value=${task} onChange=${(e: Event) => setParams({ task: (e.target as HTMLSelectElement).value, [SEED_SET_PARAM]: '' })}>
            ${TASK_IDS.map((id) => html`<option value=${id}>${getTask(id).title}</option>`)}
          </select>
        </${Field}>
        <${SeedSetField} id="train-seeds" task=${task} value=${seedSet} onChange=${(id: string) => setParams({ [SEED_SET_PARAM]: id })} />
        <${NumberField} id="train-steps" label="RL steps" k="steps" value=${steps} min=${1} max=${1000} />
        ${ALGO_FIELDS[algo].map((f) => html`<${NumberField} ...${f} value=${fieldValues[f.k]} />`)}
        ${
          algo === 'grpo' &&
          html`<${Field} id="train-rewards" label="Stage II rewards">
            <select id="train-rewards" value=${rewards} onChange=${(e: Event) => setParams({ rewards: (e.target as HTMLSelectElement).value })}>
              <option value="template">Template scorers</option>
              <option value="llm">LLM judge (the model given the judge role on the Models page)</option>
            </select>
          </${Field}>`
        }
        <${NumberField} id="train-horizon" label="Turns per episode (horizon)" k="horizon" value=${horizon} min=${1} max=${40} hint="library default" />
        <${NumberField} id="train-width" label="Network width" k="width" value=${width} min=${4} max=${512} hint="library default" />
        <${NumberField} id="train-rng" label="Random seed" k="rng" value=${rng} min=${0} max=${0xffffffff} />
        <${Field} id="train-backend" label="Compute backend preference" term="backend">
          <select id="train-backend" value=${prefer} onChange=${(e: Event) => setParams({ backend: (e.target as HTMLSelectElement).value })}>
            <option value="gpu">WebGPU, then WebGL, then CPU</option>
            <option value="wasm">WebAssembly, then CPU</option>
            <option value="cpu">CPU only</option>
          </select>
        </${Field}>
        ${
          algo === 'cstpo' &&
          html`<fieldset class="ablations">
            <legend>Ablations (switch a part off)</legend>
            ${ABLATIONS.map(
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
                  ${ABLATION_WORDS[a]}</label
                >`,
            )}
          </fieldset>`
        }
        <button type="submit">Start training</button>
        <${Field} id="train-import" label="Import a run file">
          <input id="train-import" type="file" accept=".json,application/json" onChange=${importRun} />
        </${Field}>
        <${NumberField} id="train-repeats" label="Evaluation repeats per held-out seed" k="repeats" value=${repeats} min=${1} max=${100} term="held-out seeds" />
      </fieldset>
    </form>
    ${
      running &&
      html`<div class="progress train-progress" role="status" aria-live="polite">
        <p>
          <strong>${running}</strong>${status ? ` (${status})` : ''}:${' '}
          <span class="phase"
            >${phase?.text ?? 'working'}${phase?.total !== undefined ? ` — ${phase.done ?? 0} of ${phase.total}` : '…'}</span
          >
          ${
            phase?.total !== undefined
              ? html`<progress
                  max=${phase.total}
                  value=${phase.done ?? 0}
                  aria-label=${phase.text}
                ></progress>`
              : html`<progress aria-label=${phase?.text ?? running}></progress>`
          }
          ${phase && html`<span class="muted eta">${eta(phase) ?? 'estimating time left…'}</span>`}
        </p>
        ${training && html`<p class="muted">Learning steps done: ${done} of ${target}.</p>`}
        <p>
          ${training && html`<button type="button" onClick=${() => runningTrainer()?.api.stop()}>Stop</button>`}
          ${training && html`<span class="muted">A stopped run is saved after its last step; Resume in its row below continues it exactly.</span>`}
        </p>
      </div>`
    }
    ${backend && html`<${Backend} choice=${backend} />`}
    ${error && html`<p role="alert" class="error">${error}</p>`}
    ${history.length > 0 && curveConfig && html`<${CstpoCurves} history=${history} config=${curveConfig} />`}
    ${grpoHistory.length > 0 && html`<${GrpoCurves} history=${grpoHistory} />`}
    ${evaluation && html`<${EvaluationTable} e=${evaluation} />`}
    ${
      runs &&
      html`<${RunsTable}
        runs=${runs}
        busy=${running !== null}
        live=${running !== null}
        actions=${{ resume: (r: ShownRun) => resume(r), more: (r: ShownRun) => resume(r, r.step + 1), evaluate, exportRun, remove }}
      />`
    }
    <p>
      The curves show each step’s mean <${Term} term="return" /> and <${Term} term="success" /> rate on the step’s
      training episodes; a run is judged on its <${Term} term="held-out seeds" where="curves" />.
    </p>`;
}
