/**
 * Watch: a policy of the catalogue (src/policies) plays the chosen seeds in the episode worker through the
 * simulate job — the same job as `npm run simulate`, so the same task, policy, seeds and rng seed give the same
 * episodes. The seeds are the task's bundled ones or a seed set loaded on the Data page (URL parameter `seedset`).
 * Episodes are listed with outcome and return; any one opens as a transcript with the mind panel. A finished run's
 * trajectory lines are kept in this browser (listed on the Data page, exportable and deletable).
 */
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { findPolicy, templatePolicyNames } from '../../../src/entries/policies';
import {
  getTask,
  defaultSeeds,
  TASK_IDS,
  type Seed,
  type TaskId,
  type SimulateConfig,
  type SimulateResult,
  type TrajectoryLine,
} from '../../../src/entries/simulator';
import { formatEstimate } from '../../../src/entries/evaluation';
import { keepTrajectories, SEED_SET_PARAM, SeedSetField, useSeedSet } from '../data/seedsets';
import { Field, Term } from '../glossary';
import type { StoredPolicy } from '../../../workers/episode-app';
import { explainError } from '../errors';
import { EpisodeJobRunner, JobStoppedError } from '../jobs';
import { MindPanel, MindPlots, type MindPoint, type MindTurn } from '../mind';
import { JobProgressBar } from '../progress';
import { param, setParams, takeAutorun } from '../router';
import { whyEnded } from '../ended';
import { Checks } from '../checks';
import { isStoredPolicy, MissingPolicies, MissingSeedSet } from '../missing';

const runner = new EpisodeJobRunner();
/** Lists the stored memories and runs (a separate worker, so listing never stops a run). */
const lister = new EpisodeJobRunner();

/** What a policy is, in a few words, for the policy menus: its catalogue entry's help. */
export function policyLabel(p: string): string {
  const found = findPolicy(p);
  return found ? `${p} — ${found.entry.help}` : p;
}

/**
 * The policy menu's options: the template policies, then the memories and runs stored in this browser for the
 * task (once listed), and the configured policy itself if the link names a stored one not listed yet.
 */
export function PolicyOptions(props: {
  task: TaskId;
  stored: StoredPolicy[] | null;
  current: string[];
  /** For a multiple select: the options to mark selected. */
  selected?: ReadonlySet<string>;
}) {
  const sel = (p: string) => props.selected?.has(p) ?? false;
  const base = templatePolicyNames(props.task);
  const stored = (props.stored ?? []).filter((s) => s.task === props.task).map((s) => s.policy);
  const extra = props.current.filter((p) => p !== '' && !base.includes(p) && !stored.includes(p));
  const detail = new Map((props.stored ?? []).map((s) => [s.policy, s.detail]));
  return html`${base.map((p) => html`<option value=${p} selected=${sel(p)}>${policyLabel(p)}</option>`)}
  ${
    stored.length + extra.length > 0 &&
    html`<optgroup label="Stored in this browser">
      ${[...stored, ...extra].map(
        (p) =>
          html`<option value=${p}>${policyLabel(p)}${detail.has(p) ? ` (${detail.get(p)})` : ''}</option>`,
      )}
    </optgroup>`
  }`;
}

/**
 * The policies to choose several from (Evaluate's chips): the template policies, the stored ones of the task
 * (once listed) and any the link names, each with its short name and the description as a tooltip.
 */
export function policyChoices(
  task: TaskId,
  stored: StoredPolicy[] | null,
  current: readonly string[],
): { value: string; label: string; title: string }[] {
  const base = templatePolicyNames(task);
  const mine = (stored ?? []).filter((s) => s.task === task).map((s) => s.policy);
  const all = [
    ...base,
    ...mine,
    ...current.filter((p) => p !== '' && !base.includes(p) && !mine.includes(p)),
  ];
  return all.map((p) => ({ value: p, label: p, title: policyLabel(p) }));
}

/** A button that lists the memories and runs stored in this browser (the episode worker reads IndexedDB). */
export function StoredPolicies(props: {
  task: TaskId;
  onList: (list: StoredPolicy[]) => void;
  /** List at once (the link names a stored policy: say at once whether this browser has it). */
  auto?: boolean;
}) {
  const [note, setNote] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (props.auto) void find();
  }, [props.auto, props.task]);
  const find = async () => {
    setNote('Looking…');
    setFailed(false);
    try {
      const list = await lister.run((api) => api.storedPolicies());
      props.onList(list);
      const mine = list.filter((s) => s.task === props.task);
      setNote(
        mine.length === 0
          ? `No memory or trained run for this task is stored in this browser (${list.length} for other tasks). Build one on the Principles page or train one on the Train page.`
          : `Found ${mine.length}: ${mine.map((s) => s.policy).join(', ')} (in the policy menu under “Stored in this browser”).`,
      );
    } catch (e) {
      setFailed(true);
      setNote(`Could not read the stored memories and runs. ${explainError(e)}`);
    }
  };
  return html`<p class="stored-policies">
    <button type="button" onClick=${find}>Find policies stored in this browser</button>${' '}
    <${Term} term="stored policy" label="?" where="stored policies" />
    ${note && html` <span role=${failed ? 'alert' : 'status'} class=${failed ? 'error' : 'muted'}>${note}</span>`}
  </p>`;
}

/** The task named by the URL (`p4g` when absent or unknown). */
function taskOf(get: (k: string, d: string) => string): TaskId {
  const t = get('task', 'p4g');
  return ((TASK_IDS as readonly string[]).includes(t) ? t : 'p4g') as TaskId;
}

/**
 * The watch page's configuration from the URL (class mode), with defaults; `available` are the seeds to choose
 * from (default: the task's bundled seeds; the page passes the chosen seed set's).
 */
export function watchConfig(
  params: { get: (k: string, d: string) => string },
  available?: readonly Seed[],
): SimulateConfig & { task: TaskId } {
  const task = taskOf(params.get);
  const all = available ? [...available] : defaultSeeds(task);
  const chosen = params.get('seeds', '').split(',').filter(Boolean);
  const seeds = chosen.length > 0 ? all.filter((s) => chosen.includes(s.id)) : all.slice(0, 6);
  return {
    task,
    policy: params.get('policy', 'random'),
    seeds: seeds.length > 0 ? seeds : all.slice(0, 6),
    episodes: Math.max(1, Number(params.get('episodes', '')) || seeds.length || 6),
    rngSeed: Math.max(0, Math.floor(Number(params.get('rng', '0')) || 0)),
    keepState: true,
  };
}

function Episode({ line, seeds }: { line: TrajectoryLine; seeds: readonly Seed[] }) {
  const t = getTask(line.task);
  const seed = seeds.find((s) => s.id === line.seedId);
  if (!seed) return html`<p class="error">The seed ${line.seedId} is not among the run's seeds.</p>`;
  const points: MindPoint[] = [
    { cognitive: seed.cognitive, lastUserPrice: null, acceptablePrice: null },
    ...line.turns.map((x) => ({
      cognitive: x.state!.cognitive,
      lastUserPrice: x.state!.lastUserPrice,
      acceptablePrice: null,
    })),
  ];
  return html`<section aria-labelledby="episode-title" class="episode">
    <h2 id="episode-title" tabindex="-1">Episode: ${line.seedId}, repeat ${line.repeat}</h2>
    ${seed.prefix.map(
      (h) =>
        html`<p class=${`turn ${h.speaker}`}>
          <strong>${h.speaker === 'actor' ? t.actorRole : t.userRole}:</strong> ${h.text}
        </p>`,
    )}
    <${MindPlots} task=${line.task} points=${points} />
    <ol class="transcript">
      ${line.turns.map((turn, i) => {
        const mind: MindTurn = {
          mode: turn.mode,
          route: turn.route,
          judgment: turn.judgment,
          pCentral: null,
          rejected: turn.rejectedProposal,
          proposal: null,
          applied: null,
          events: turn.events,
          before: (points[i] as MindPoint).cognitive,
          after: (points[i + 1] as MindPoint).cognitive,
        };
        return html`<li>
          <p class="turn actor">
            <strong>${t.actorRole} [${turn.action.strategy}]:</strong> ${turn.action.utterance}
          </p>
          <p class="turn user"><strong>${t.userRole}:</strong> ${turn.userUtterance}</p>
          <details>
            <summary>Reveal the user’s mind on turn ${i + 1}</summary>
            <${MindPanel} turn=${mind} where=${`turn ${i + 1}`} />
          </details>
        </li>`;
      })}
    </ol>
    <p class="why">
      Why it ended:
      ${whyEnded(
        line.task,
        line.endReason,
        line.turns.flatMap((x) => x.events),
      )}
      ·${' '}
      <${Term} term="utility" />: ${line.utility.toFixed(3)}
    </p>
  </section>`;
}

/** "4 seeds" or "2 of the seeds, each 3 times": the distinct seeds the episodes played. */
function playedSeeds(lines: readonly TrajectoryLine[]): string {
  const n = new Set(lines.map((l) => l.seedId)).size;
  const each = lines.length / n;
  return `${n} ${n === 1 ? 'seed' : 'seeds'}${Number.isInteger(each) && each > 1 ? `, ${each} times each` : ''}`;
}

/** A name for a kept run, for people: `watch random on esconv, 2026-12-01 07:30:12`. */
function runName(policy: string, task: TaskId): string {
  return `watch ${policy} on ${task}, ${new Date().toISOString().slice(0, 19).replace('T', ' ')}`;
}

export default function Watch() {
  const task = taskOf(param);
  const seedSet = param(SEED_SET_PARAM, 'bundled');
  // The chosen seed set's seeds (bundled: at once; a stored set: once read from IndexedDB).
  const { seeds: allSeeds, error: seedSetError } = useSeedSet(task, seedSet);
  const config = watchConfig({ get: param }, allSeeds ?? defaultSeeds(task));
  const chosen = new Set((config.seeds ?? []).map((s) => s.id));
  const [result, setResult] = useState<{
    result: SimulateResult;
    lines: TrajectoryLine[];
    seeds: Seed[];
  } | null>(null);
  const [kept, setKept] = useState<{ ok: boolean; note: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const [stored, setStored] = useState<StoredPolicy[] | null>(null);
  const running = runner.progress.value !== null;

  const start = async (e?: Event) => {
    e?.preventDefault();
    setResult(null);
    setKept(null);
    setError(null);
    setOpen(null);
    if (!allSeeds) return;
    try {
      const out = await runner.run((api, onProgress) => api.simulate(config, onProgress));
      setResult({ ...out, seeds: config.seeds ?? [] });
      const name = runName(out.result.policy, task);
      try {
        await keepTrajectories(name, task, out.lines);
        setKept({ ok: true, note: `Trajectories kept in this browser as “${name}” (see the Data page).` });
      } catch (err) {
        setKept({ ok: false, note: `The trajectories were not kept. ${explainError(err)}` });
      }
    } catch (err) {
      setError(
        err instanceof JobStoppedError ? `Stopped: ${err.message}.` : `The run failed. ${explainError(err)}`,
      );
    }
  };
  // A ready experiment (the home page's link): start at once, once the seeds are known.
  useEffect(() => {
    if (allSeeds && takeAutorun()) void start();
  }, [allSeeds !== null]);
  const s = result?.result.summary;

  return html`<form onSubmit=${start}>
      <fieldset disabled=${running}>
        <legend>What to run</legend>
        <label
          >Task
          <select
            value=${task}
            onChange=${(e: Event) => setParams({ task: (e.target as HTMLSelectElement).value, seeds: '', policy: 'random', [SEED_SET_PARAM]: '' })}
          >
            ${TASK_IDS.map((id) => html`<option value=${id}>${getTask(id).title}</option>`)}
          </select>
        </label>
        <${Field} id="watch-policy" label="Policy" term="policy">
          <select id="watch-policy"
            value=${config.policy}
            onChange=${(e: Event) => setParams({ policy: (e.target as HTMLSelectElement).value })}
          >
            <${PolicyOptions} task=${task} stored=${stored} current=${[config.policy ?? '']} />
          </select>
        </${Field}>
        <${StoredPolicies} task=${task} onList=${setStored} auto=${isStoredPolicy(config.policy ?? '')} />
        <${MissingPolicies} task=${task} stored=${stored} policies=${[config.policy ?? '']} />
        <${SeedSetField} id="watch-seedset" task=${task} value=${seedSet} onChange=${(id: string) => setParams({ [SEED_SET_PARAM]: id, seeds: '' })} />
        ${seedSetError && html`<${MissingSeedSet} id=${seedSet} error=${seedSetError} />`}
        <${Checks}
          legend="Seeds to play"
          term="seed"
          options=${(allSeeds ?? []).map((sd) => ({ value: sd.id, label: sd.id }))}
          chosen=${chosen}
          onChange=${(ids: string[]) => setParams({ seeds: ids.join(','), episodes: '' })}
        />
        <${Field} id="watch-episodes" label="Episodes" term="episode">
          <input id="watch-episodes"
            type="number"
            min="1"
            max="500"
            value=${config.episodes}
            onChange=${(e: Event) => setParams({ episodes: (e.target as HTMLInputElement).value })}
          />
        </${Field}>
        <label
          >Random seed of the run
          <input
            type="number"
            min="0"
            value=${config.rngSeed}
            onChange=${(e: Event) => setParams({ rng: (e.target as HTMLInputElement).value })}
          />
        </label>
        <button type="submit" disabled=${!allSeeds}>Run</button>
      </fieldset>
    </form>
    <${JobProgressBar} runner=${runner} what="Episodes" />
    ${error && html`<p role="alert" class="error">${error}</p>`}
    ${kept && html`<p role=${kept.ok ? 'status' : 'alert'} class=${kept.ok ? 'kept muted' : 'error'}>${kept.note}</p>`}
    ${
      result &&
      s &&
      html`<section aria-labelledby="results">
        <h2 id="results">Results</h2>
        <p role="status">
          ${`${result.lines.length} ${result.lines.length === 1 ? 'episode' : 'episodes'} of ${result.result.policy} on ${playedSeeds(result.lines)} · `}
          <${Term} term="success" />
          ${` rate ${formatEstimate(s.successRate)} · mean `}
          <${Term} term="return" />
          ${` ${formatEstimate(s.meanReturn)} (`}
          <${Term} term="interval" label="95% intervals" />)
        </p>
        <table class="episodes">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">seed</th>
              <th scope="col">repeat</th>
              <th scope="col">turns</th>
              <th scope="col">why it ended</th>
              <th scope="col"><${Term} term="return" where="episode table" /></th>
              <th scope="col"><${Term} term="success" where="episode table" /></th>
              <th scope="col">transcript</th>
            </tr>
          </thead>
          <tbody>
            ${result.lines.map(
              (l, i) =>
                html`<tr>
                  <td>${i + 1}</td>
                  <td>${l.seedId}</td>
                  <td>${l.repeat}</td>
                  <td>${l.turns.length}</td>
                  <td class="why">
                    ${whyEnded(
                      l.task,
                      l.endReason,
                      l.turns.flatMap((x) => x.events),
                    )}
                  </td>
                  <td class="return">${l.return.toFixed(3)}</td>
                  <td>${l.success ? 'yes' : 'no'}</td>
                  <td>
                    <button type="button" aria-label=${`Open episode ${i + 1}`} onClick=${() => setOpen(i)}>
                      Open
                    </button>
                  </td>
                </tr>`,
            )}
          </tbody>
        </table>
      </section>`
    }
    ${result && open !== null && result.lines[open] && html`<${Episode} line=${result.lines[open]} seeds=${result.seeds} />`}`;
}
