/**
 * The zero-install demo page: choose a task and a simple policy, run episodes in the episode worker, show the
 * summary with bootstrap intervals and the first transcript with the simulator's per-turn decisions.
 */
import * as Comlink from 'comlink';
import type { EpisodeRecord } from '../src/agents/rollout';
import { formatEstimate, summarizeEpisodes, type Estimate } from '../src/stats';
import { Rng } from '../src/rng';
import { TASK_IDS, getTask, type TaskId } from '../src/tasks';
import { defaultSeeds } from '../src/tasks/defaults';
import type { EpisodeWorkerApi } from '../workers/episode.worker';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const taskSelect = $<HTMLSelectElement>('task');
const policySelect = $<HTMLSelectElement>('policy');
const status = $<HTMLParagraphElement>('status');

function option(value: string, label = value): HTMLOptionElement {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = label;
  return o;
}

function fillPolicies(task: TaskId): void {
  policySelect.replaceChildren(option('random'), option('replay'));
  for (const label of getTask(task).strategies)
    policySelect.append(option(`fixed:${label}`, `fixed: ${label}`));
}

for (const id of TASK_IDS) taskSelect.append(option(id, getTask(id).title));
fillPolicies(taskSelect.value as TaskId);
taskSelect.addEventListener('change', () => fillPolicies(taskSelect.value as TaskId));

const api = Comlink.wrap<EpisodeWorkerApi>(
  new Worker(new URL('../workers/episode.worker.ts', import.meta.url), { type: 'module' }),
);

function row(metric: string, i: Estimate | null): HTMLTableRowElement {
  const tr = document.createElement('tr');
  const cells = i ? [metric, ...formatEstimate(i).split(/ (?=\[|n\/a)/)] : [metric, 'n/a', ''];
  for (const c of cells) {
    const td = document.createElement('td');
    td.textContent = c;
    tr.append(td);
  }
  return tr;
}

function showTranscript(episode: EpisodeRecord): void {
  const box = $<HTMLDivElement>('transcript');
  box.replaceChildren();
  for (const t of episode.turns) {
    const actor = document.createElement('div');
    actor.className = 'turn actor';
    actor.textContent = `${getTask(episode.task).actorRole} [${t.action.strategy}]: ${t.action.utterance}`;
    const meta = document.createElement('div');
    meta.className = 'meta';
    meta.textContent = `${t.mode}${t.route ? ` · ${t.route} route · ${t.judgment}` : ''}${
      t.events.length
        ? ` · events: ${t.events.map((e) => e.type + (e.price ? ` $${e.price}` : '')).join(', ')}`
        : ''
    }`;
    const user = document.createElement('div');
    user.className = 'turn user';
    user.textContent = `${getTask(episode.task).userRole}: ${t.userUtterance}`;
    box.append(actor, meta, user);
  }
  const end = document.createElement('p');
  end.textContent = `Ended: ${episode.endReason ?? 'n/a'} · utility ${episode.utility.toFixed(3)}`;
  box.append(end);
  $('transcript-title').hidden = false;
}

$<HTMLFormElement>('form').addEventListener('submit', (event) => {
  event.preventDefault();
  void (async () => {
    const task = taskSelect.value as TaskId;
    const episodes = Number($<HTMLInputElement>('episodes').value);
    const baseSeed = Number($<HTMLInputElement>('seed').value);
    $<HTMLButtonElement>('run').disabled = true;
    try {
      const records = await api.run(
        { task, policy: policySelect.value, seeds: defaultSeeds(task), episodes, baseSeed },
        Comlink.proxy((done: number, total: number) => {
          status.textContent = `running… ${done}/${total}`;
        }),
      );
      const s = summarizeEpisodes(
        records.map((r) => ({
          caseId: r.seedId,
          success: r.success,
          turns: r.turns.length,
          return: r.return,
        })),
        { rng: Rng.fromSeed(baseSeed) },
      );
      const body = $<HTMLTableElement>('summary').tBodies[0] as HTMLTableSectionElement;
      body.replaceChildren(
        row('success rate', s.successRate),
        row('average turns (all)', s.avgTurnsAll),
        row('average turns (successful)', s.avgTurnsSuccessful),
        row('mean terminal return', s.meanReturn),
      );
      $('summary').hidden = false;
      if (records[0]) showTranscript(records[0]);
      status.textContent = `${records.length} episodes done (95% bootstrap intervals, clustered by seed).`;
    } catch (err) {
      status.textContent = `error: ${(err as Error).message}`;
    } finally {
      $<HTMLButtonElement>('run').disabled = false;
    }
  })();
});
