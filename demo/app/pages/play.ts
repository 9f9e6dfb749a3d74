/**
 * Play: the person is the actor. The simulator runs in the play worker (demo/workers/play.worker.ts) in template
 * mode; every turn comes back with a checkpoint, so Undo drops the last turn and Branch starts a new line from an
 * earlier turn's checkpoint — both lines stay on screen side by side. The seeds are the task's bundled ones or a
 * seed set loaded on the Data page (URL parameter `seedset`).
 */
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import * as Comlink from 'comlink';
import { signal } from '@preact/signals';
import { getTask, TASK_IDS, type ActorView, type TaskId, type Turn } from '../../../src/entries/simulator';
import type { Appraisal, From, MindState, PlayTurn, PlayWorkerApi } from '../../workers/play.worker';
import { SEED_SET_PARAM, SeedSetField, useSeedSet } from '../data/seedsets';
import { explainError, WorkerCrashedError } from '../errors';
import { Field, Term } from '../glossary';
import { MindPanel, MindPlots, type MindTurn } from '../mind';
import { param, setParams } from '../router';
import { whyEnded } from '../ended';
import { ArgPanel } from './play-arg';

let current: { api: Comlink.Remote<PlayWorkerApi>; crashed: Promise<never> } | undefined;
/** Whether the simulator is loaded in the play worker (false until its first answer). */
const simReady = signal(false);
/**
 * Calls the play worker, started on the person's first action (opening the page fetches no simulator code). A
 * worker that crashes rejects the call with {@link WorkerCrashedError}; the next call starts a fresh one.
 */
function callWorker<T>(f: (api: Comlink.Remote<PlayWorkerApi>) => Promise<T>): Promise<T> {
  if (!current) {
    const worker = new Worker(new URL('../../workers/play.worker.ts', import.meta.url), { type: 'module' });
    const crashed = new Promise<never>((_, reject) =>
      worker.addEventListener('error', (e) => {
        current = undefined;
        worker.terminate();
        reject(new WorkerCrashedError(`the play worker failed: ${e.message || 'crashed'}`));
      }),
    );
    crashed.catch(() => undefined);
    current = { api: Comlink.wrap<PlayWorkerApi>(worker), crashed };
    simReady.value = false;
  }
  const call = f(current.api).then((r) => ((simReady.value = true), r));
  return Promise.race([call, current.crashed]);
}

/** A link's turns: `[[strategy label, utterance], …]` as JSON (bad or absent: none). */
function parseTurns(text: string): [string, string][] {
  if (text === '') return [];
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v)
      ? v.filter(
          (t): t is [string, string] =>
            Array.isArray(t) && typeof t[0] === 'string' && typeof t[1] === 'string' && t[1].trim() !== '',
        )
      : [];
  } catch {
    return [];
  }
}

/** The link form of a line's turns (see {@link parseTurns}); '' for none. */
function formatTurns(turns: readonly PlayTurn[]): string {
  return turns.length === 0 ? '' : JSON.stringify(turns.map((t) => [t.strategy, t.utterance]));
}

/** A line of play: its name, the turns after the seed, and the turn it branched from (0 for the first line). */
interface Line {
  name: string;
  from: number;
  turns: PlayTurn[];
}

/** The panel's view of a played turn. */
export function mindTurn(t: PlayTurn): MindTurn {
  return {
    mode: t.sim.mode,
    route: t.sim.route,
    judgment: t.sim.judgment,
    pCentral: t.sim.pCentral,
    rejected: t.sim.rejected,
    proposal: t.sim.proposal,
    applied: t.sim.applied,
    events: t.sim.events,
    before: t.before.cognitive,
    after: t.after.cognitive,
  };
}

function Situation({ view, task }: { view: ActorView; task: TaskId }) {
  const t = getTask(task);
  return html`<section class="situation" aria-labelledby="situation">
    <h2 id="situation">Your situation</h2>
    <p>You are the <strong>${view.role}</strong>, talking to the ${t.userRole}. Your goal: ${view.goal}</p>
    ${view.organisation && html`<p>Organisation: ${view.organisation}</p>`}
    ${view.itemName && html`<p>Item: ${view.itemName}${view.itemDescription ? ` — ${view.itemDescription}` : ''}</p>`}
    ${view.listPrice !== undefined && html`<p>Listed at $${view.listPrice}; your target price: $${view.targetPrice}</p>`}
  </section>`;
}

function Prefix({ history, task }: { history: Turn[]; task: TaskId }) {
  const t = getTask(task);
  return html`${history.map(
    (h) =>
      html`<p class=${`turn ${h.speaker}`}>
        <strong>${h.speaker === 'actor' ? t.actorRole : t.userRole}:</strong> ${h.text}
      </p>`,
  )}`;
}

function LineView(props: {
  line: Line;
  index: number;
  active: boolean;
  task: TaskId;
  reveal: boolean;
  start: MindState;
  onBranch: (line: number, turn: number) => void;
  onSelect: (line: number) => void;
}) {
  const { line, index, active, task, reveal, start } = props;
  const t = getTask(task);
  const points = [start, ...line.turns.map((x) => x.after)];
  const last = line.turns[line.turns.length - 1];
  return html`<section class=${`branch${active ? ' active' : ''}`} aria-label=${line.name}>
    <h3>
      ${line.name}${line.from > 0 || index > 0 ? ` (branched at turn ${line.from + 1})` : ''}${
        active ? ' (you are writing here)' : ''
      }
      ${!active && html` <button type="button" onClick=${() => props.onSelect(index)}>Continue this line</button>`}
    </h3>
    <ol class="transcript">
      ${line.turns.map(
        (turn, i) =>
          html`<li data-turn=${i + 1}>
            <p class="turn actor">
              <strong>${t.actorRole}${turn.strategy ? ` [${turn.strategy}]` : ''}:</strong> ${turn.utterance}
            </p>
            <p class="turn user">
              <strong>${t.userRole}:</strong> <span class="reply">${turn.userUtterance}</span>
            </p>
            ${reveal && html`<${MindPanel} turn=${mindTurn(turn)} where=${`${line.name}, turn ${i + 1}`} />`}
            <button type="button" class="branch-button" onClick=${() => props.onBranch(index, i)}>
              Branch: try another turn ${i + 1} in ${line.name}
            </button>
          </li>`,
      )}
    </ol>
    ${
      last?.terminal &&
      html`<p class="ended" role="status">
        Dialogue ended.
        ${whyEnded(
          task,
          last.endReason,
          line.turns.flatMap((x) => x.sim.events),
        )}${' '}
        <${Term} term="utility" where=${line.name} />: ${last.terminal.utility.toFixed(3)} ·${' '}
        <${Term} term="success" where=${line.name} />: ${last.terminal.success ? 'yes' : 'no'}
      </p>`
    }
    ${reveal && line.turns.length > 0 && html`<${MindPlots} task=${task} points=${points} title=${line.name} />`}
  </section>`;
}

export default function Play() {
  const task = (TASK_IDS as readonly string[]).includes(param('task', 'p4g'))
    ? (param('task', 'p4g') as TaskId)
    : 'p4g';
  const seedParam = param('seed', '');
  const reveal = param('mind', '0') === '1';
  const seedSet = param(SEED_SET_PARAM, 'bundled');
  const { seeds: setSeeds, error: seedSetError } = useSeedSet(task, seedSet);
  const seeds = setSeeds ?? [];
  const seed = seeds.find((s) => s.id === seedParam) ?? seeds[0];
  const seedField = html`<${SeedSetField}
    id="play-seedset"
    task=${task}
    value=${seedSet}
    onChange=${(id: string) => setParams({ [SEED_SET_PARAM]: id, seed: '', turns: '', draft: '' })}
  />`;
  const [lines, setLines] = useState<Line[]>([{ name: 'Line A', from: 0, turns: [] }]);
  const [active, setActive] = useState(0);
  const [strategy, setStrategy] = useState('');
  const [text, setText] = useState(() => param('draft', ''));
  const [wordings, setWordings] = useState<string[]>([]);
  const [appraisal, setAppraisal] = useState<{ a: Appraisal; draft: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // A new situation starts a new game; a link's turns (`turns`) are played again first.
  useEffect(() => {
    setLines([{ name: 'Line A', from: 0, turns: [] }]);
    setActive(0);
    setWordings([]);
    setAppraisal(null);
    setError(null);
    if (!seed) return;
    const linked = parseTurns(param('turns', ''));
    let live = true;
    const replay = async () => {
      let from: From = { task, seedId: seed.id, seed };
      const played: PlayTurn[] = [];
      for (const [strategy, utterance] of linked) {
        const turn = await callWorker((w) => w.step(from, { strategy, utterance }));
        played.push(turn);
        from = turn.checkpoint;
        if (turn.terminated || turn.truncated) break;
      }
      if (live) setLines([{ name: 'Line A', from: 0, turns: played }]);
    };
    // Warm the simulator while the person reads (or play the link's turns at once).
    const timer = setTimeout(
      () =>
        void (linked.length > 0 ? replay() : callWorker((w) => w.warm(task))).catch(
          (e: unknown) => live && setError(explainError(e)),
        ),
      linked.length > 0 ? 0 : 300,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [task, seedSet, seed?.id]);
  // The seed and the active line's turns are in the link (class mode: the same link, the same dialogue).
  const activeTurns = lines[active]?.turns ?? [];
  useEffect(() => {
    if (!seed) return;
    const turns = formatTurns(activeTurns);
    if (param('seed', '') !== seed.id || param('turns', '') !== turns) setParams({ seed: seed.id, turns });
  }, [seed?.id, activeTurns]);
  if (!seed)
    return html`${seedField}
    ${
      setSeeds === null && !seedSetError
        ? html`<p role="status">Reading the seed set…</p>`
        : html`<p role="alert" class="error">${seedSetError ?? `The seed set of ${task} has no seed.`}</p>`
    }`;
  // The seed's initial mind (the seller's acceptable price is known after the first turn).
  const initial: MindState = { cognitive: seed.cognitive, acceptablePrice: null, lastUserPrice: null };

  const line = lines[active] as Line;
  const last = line.turns[line.turns.length - 1];
  const checkpoint: From = last ? last.checkpoint : { task, seedId: seed.id, seed };
  const ended = !!last && (last.terminated || last.truncated);
  const strategies = getTask(task).strategies;

  async function run<T>(f: () => Promise<T>): Promise<T | undefined> {
    setBusy(true);
    setError(null);
    try {
      return await f();
    } catch (e) {
      setError(explainError(e));
      return undefined;
    } finally {
      setBusy(false);
    }
  }

  const send = async (e: Event) => {
    e.preventDefault();
    if (text.trim() === '') {
      setError('Write what the actor says first.');
      return;
    }
    const turn = await run(() => callWorker((w) => w.step(checkpoint, { strategy, utterance: text })));
    if (!turn) return;
    setLines((ls) => ls.map((l, i) => (i === active ? { ...l, turns: [...l.turns, turn] } : l)));
    setText('');
    // The label was this turn's: the next turn starts unlabelled, so a label never carries over unseen.
    setStrategy('');
    setWordings([]);
    setAppraisal(null);
  };
  const think = async () => {
    const a = await run(() => callWorker((w) => w.appraise(checkpoint, text, strategy)));
    if (a) setAppraisal({ a, draft: text.trim() !== '' });
  };
  const propose = async () => {
    if (!strategy) return;
    const w = await run(() => callWorker((w) => w.realize(checkpoint, strategy, 3)));
    if (w) setWordings(w);
  };
  const undo = () => {
    setAppraisal(null);
    setLines((ls) => ls.map((l, i) => (i === active ? { ...l, turns: l.turns.slice(0, -1) } : l)));
  };
  const branch = (from: number, turn: number) => {
    const source = lines[from] as Line;
    const name = `Line ${String.fromCharCode(65 + lines.length)}`;
    setLines([...lines, { name, from: turn, turns: source.turns.slice(0, turn) }]);
    setActive(lines.length);
    setStrategy('');
    setWordings([]);
    setAppraisal(null);
  };

  return html`<form class="config" onSubmit=${(e: Event) => e.preventDefault()}>
      <fieldset>
        <legend>Situation</legend>
        <label
          >Task
          <select
            value=${task}
            onChange=${(e: Event) => setParams({ task: (e.target as HTMLSelectElement).value, seed: '', turns: '', draft: '', [SEED_SET_PARAM]: '' })}
          >
            ${TASK_IDS.map((id) => html`<option value=${id}>${getTask(id).title}</option>`)}
          </select>
        </label>
        ${seedField}
        <${Field} id="play-seed" label="Seed" term="seed">
          <select id="play-seed"
            value=${seed.id}
            onChange=${(e: Event) => setParams({ seed: (e.target as HTMLSelectElement).value, turns: '' })}
          >
            ${seeds.map((sd) => html`<option value=${sd.id}>${sd.id}</option>`)}
          </select>
        </${Field}>
        <label class="inline"
          ><span>Reveal the user’s mind</span>
          <input
            type="checkbox"
            checked=${reveal}
            onChange=${(e: Event) => setParams({ mind: (e.target as HTMLInputElement).checked ? '1' : '0' })}
          />
        </label>
      </fieldset>
    </form>
    <${Situation} view=${seed.actorView} task=${task} />
    ${html`<section aria-labelledby="dialogue">
      <h2 id="dialogue">Dialogue</h2>
      <${Prefix} history=${seed.prefix} task=${task} />
      <div class="branches">
        ${lines.map(
          (l, i) =>
            html`<${LineView}
              line=${l}
              index=${i}
              active=${i === active}
              task=${task}
              reveal=${reveal}
              start=${initial}
              onBranch=${branch}
              onSelect=${setActive}
            />`,
        )}
      </div>
    </section>`}
    <form class="composer" onSubmit=${send} aria-label="Your turn">
      <fieldset disabled=${ended}>
        <legend>Your turn ${line.turns.length + 1} in ${line.name}</legend>
        <${Field} id="play-strategy" label="Strategy label (optional)" term="strategy label">
          <select id="play-strategy"
            value=${strategy}
            onChange=${(e: Event) => setStrategy((e.target as HTMLSelectElement).value)}
          >
            <option value="">no label</option>
            ${strategies.map((s) => html`<option value=${s}>${s}</option>`)}
          </select>
        </${Field}>
        <button type="button" onClick=${propose} disabled=${!strategy || busy}>Propose three wordings</button>
        <label style="flex-basis: 100%"
          >What you say
          <textarea
            value=${text}
            onInput=${(e: Event) => setText((e.target as HTMLTextAreaElement).value)}
          ></textarea>
        </label>
        ${
          wordings.length > 0 &&
          html`<div class="wordings" role="group" aria-label="Proposed wordings">
            ${wordings.map((w) => html`<button type="button" onClick=${() => setText(w)}>Use: ${w}</button>`)}
          </div>`
        }
        <button type="submit" disabled=${busy}>Send</button>
        <button type="button" onClick=${think} disabled=${busy}>
          Think it through first
        </button>
      </fieldset>
      <button type="button" onClick=${undo} disabled=${busy || line.turns.length === 0}>
        Undo last turn
      </button>
      ${
        appraisal &&
        html`<${ArgPanel}
          appraisal=${appraisal.a}
          draftUsed=${appraisal.draft}
          onUse=${(label: string, words: string) => {
            setStrategy(strategies.includes(label) ? label : '');
            setText(words);
          }}
        />`
      }
      ${ended && html`<p>This line has ended. Undo or branch to try something else.</p>`}
      <p class="muted sim-status" aria-live="polite">
        ${
          busy
            ? simReady.value
              ? 'The user is thinking…'
              : 'Loading the simulator (about 1.3 MB, the first time only): the reply comes in a few seconds…'
            : simReady.value
              ? ''
              : 'The simulator is loading in the background while you read.'
        }
      </p>
      ${error && html`<p role="alert" class="error">${error}</p>`}
    </form>`;
}
