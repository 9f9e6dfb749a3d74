/**
 * The "reveal the user's mind" panel: per turn, what the simulator decided (mode, route, judgment), the proposed
 * changes with what became of each (applied, clipped, or rejected with the reason), the BDI records before and
 * after as a diff, and plots of affect, appraisal and the task's outcome variable over the turns. Used by Play
 * (from the play worker's turns) and Watch (from trajectory records).
 */
import { html } from 'htm/preact';
import {
  TASK_RULES,
  type AppliedChange,
  type Judgment,
  type Mode,
  type Proposal,
  type Route,
  type TaskEvent,
  type BdiRecord,
  type CognitiveState,
  type TaskId,
} from '../../src/entries/simulator';
import { Term } from './glossary';
import { LinePlot, seriesColor, type Series } from './plot';

/** What the panel shows of one turn. `proposal` and `applied` are null when the source did not keep them. */
export interface MindTurn {
  mode: Mode;
  route: Route | null;
  judgment: Judgment | null;
  pCentral: number | null;
  rejected: string | null;
  proposal: Proposal | null;
  applied: AppliedChange[] | null;
  events: TaskEvent[];
  before: CognitiveState;
  after: CognitiveState;
}

/** The mind after each turn (index 0: before the first turn), for the plots. */
export interface MindPoint {
  cognitive: CognitiveState;
  lastUserPrice: number | null;
  acceptablePrice: number | null;
}

const fmt = (v: number, d = 2) => (v >= 0 ? '+' : '−') + Math.abs(v).toFixed(d);
const records = (c: CognitiveState): BdiRecord[] => [...c.beliefs, ...c.desires, ...c.intentions];

/** Records whose strength or activity changed, were added or were removed between two states. */
export function bdiDiff(before: CognitiveState, after: CognitiveState) {
  const old = new Map(records(before).map((r) => [r.id, r]));
  const now = new Map(records(after).map((r) => [r.id, r]));
  const rows: { id: string; type: string; content: string; was: string; is: string }[] = [];
  for (const r of now.values()) {
    const o = old.get(r.id);
    const show = (x: BdiRecord) => `${x.strength.toFixed(2)}${x.active ? '' : ' (inactive)'}`;
    if (!o) rows.push({ id: r.id, type: r.type, content: r.content, was: 'new', is: show(r) });
    else if (o.strength !== r.strength || o.active !== r.active)
      rows.push({ id: r.id, type: r.type, content: r.content, was: show(o), is: show(r) });
  }
  for (const o of old.values())
    if (!now.has(o.id))
      rows.push({ id: o.id, type: o.type, content: o.content, was: o.strength.toFixed(2), is: 'removed' });
  return rows;
}

function Changes({ turn, where }: { turn: MindTurn; where?: string }) {
  if (!turn.proposal) {
    if (turn.rejected) return html`<p class="rejected">Proposed change rejected: ${turn.rejected}</p>`;
    return html`<p class="muted">No change was proposed this turn.</p>`;
  }
  const applied = new Map((turn.applied ?? []).map((a) => [a.id, a]));
  const rows = turn.proposal.changes.map((c) => {
    const a = applied.get(c.id);
    const status = turn.rejected
      ? `rejected: ${turn.rejected}`
      : !a
        ? 'not applied (record inactive or unknown)'
        : Math.abs(a.applied - c.delta) > 1e-9
          ? `applied as ${fmt(a.applied)} (the update rules' limits, strength bounds and linked records)`
          : 'applied';
    return { id: c.id, delta: fmt(c.delta), status };
  });
  for (const r of turn.proposal.newRecords)
    rows.push({
      id: r.id,
      delta: `new ${r.type} (${r.strength.toFixed(2)})`,
      status: turn.rejected ? `rejected: ${turn.rejected}` : 'added',
    });
  if (rows.length === 0) return html`<p class="muted">The proposal changed no record.</p>`;
  return html`<table class="changes">
    <caption>
      <${Term} where=${where} term="proposed change" label="Proposed changes" />
    </caption>
    <thead>
      <tr>
        <th scope="col">record</th>
        <th scope="col">proposed</th>
        <th scope="col">outcome</th>
      </tr>
    </thead>
    <tbody>
      ${rows.map(
        (r) =>
          html`<tr class=${r.status.startsWith('rejected') ? 'rejected' : ''}>
            <td>${r.id}</td>
            <td>${r.delta}</td>
            <td>${r.status}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

/**
 * What each mode means for this turn, in the user's words: why, for example, a warm reflection of feelings can be
 * read as Social and change no belief.
 */
const MODE_GLOSS: Record<Mode, string> = {
  Influence: 'read as trying to change my mind: beliefs and intentions may move',
  Elicit: 'read as a question to me: I answer; beliefs and intentions do not move',
  Social: 'read as small talk or warmth, not an argument: feelings may move, beliefs and intentions do not',
};

/** The panel for one turn; `where` names the turn (e.g. "Line A, turn 2") in its explain buttons' names. */
export function MindPanel({ turn, where }: { turn: MindTurn; where?: string }) {
  const diff = bdiDiff(turn.before, turn.after);
  const a0 = turn.before.affect;
  const a1 = turn.after.affect;
  return html`<section class="mind" aria-label="The simulated user's mind on this turn">
    <p class="decision">
      <${Term} where=${where} term="mode" />: <strong>${turn.mode}</strong> ${' '}<span
        class="muted mode-gloss"
        >(${MODE_GLOSS[turn.mode]})</span
      >
      ${
        turn.route &&
        html` · <${Term} where=${where} term="route" />: <strong>${turn.route}</strong>${
            turn.pCentral !== null
              ? html` <span class="muted">(p central ${turn.pCentral.toFixed(2)})</span>`
              : ''
          }`
      }
      ${turn.judgment && html` · <${Term} where=${where} term="judgment" />: <strong>${turn.judgment}</strong>`}
    </p>
    <p>
      Feeling: ${a0.category} → <strong>${a1.category}</strong> (<${Term}
        where=${where}
        term="valence"
      />${' '} ${fmt(a0.valence)} → ${fmt(a1.valence)},${' '}
      <${Term} where=${where} term="arousal" /> ${a0.arousal.toFixed(2)} → ${a1.arousal.toFixed(2)})
    </p>
    ${
      turn.events.length > 0 &&
      html`<p>
        Events:
        ${turn.events
          .map(
            (e) =>
              `${e.by} ${e.type}${e.price !== undefined ? ` $${e.price}` : ''}${e.amount !== undefined ? ` $${e.amount}` : ''}`,
          )
          .join(', ')}
      </p>`
    }
    <${Changes} turn=${turn} where=${where} />
    ${
      diff.length === 0
        ? html`<p class="muted">No <${Term} where=${where} term="BDI" /> record changed.</p>`
        : html`<table class="diff">
            <caption>
              <${Term} where=${where} term="BDI" label="BDI records" />${' '} before → after
            </caption>
            <thead>
              <tr>
                <th scope="col">record</th>
                <th scope="col">content</th>
                <th scope="col">before</th>
                <th scope="col">after</th>
              </tr>
            </thead>
            <tbody>
              ${diff.map(
                (r) =>
                  html`<tr>
                    <td>${r.type} ${r.id}</td>
                    <td>${r.content}</td>
                    <td>${r.was}</td>
                    <td>${r.is}</td>
                  </tr>`,
              )}
            </tbody>
          </table>`
    }
  </section>`;
}

const OUTCOME_LABEL: Record<TaskId, string> = {
  esconv: 'intention to take a step (0–4)',
  p4g: 'intention to donate (0–4)',
  cb: "seller's willingness to concede (0–4)",
};

/** The appraisal dimensions in words (EmoLLM's GC / CP / FE). */
const APPRAISAL_WORDS = { GC: 'goal congruence', CP: 'coping potential', FE: 'future expectancy' } as const;

/**
 * Plots of affect, appraisal and the task's outcome variable over the turns of one dialogue, each on its
 * quantity's fixed range, so that the charts of Line A and of its branches share their axes.
 */
export function MindPlots({ task, points, title }: { task: TaskId; points: MindPoint[]; title?: string }) {
  const x = points.map((_, i) => i);
  const goal = TASK_RULES[task].goalIntention;
  const strength = (c: CognitiveState) => c.intentions.find((r) => r.id === goal)?.strength ?? null;
  const affect: Series[] = [
    { label: 'valence', values: points.map((p) => p.cognitive.affect.valence), color: seriesColor(0) },
    { label: 'arousal', values: points.map((p) => p.cognitive.affect.arousal), color: seriesColor(1) },
  ];
  const appraisal: Series[] = (['GC', 'CP', 'FE'] as const).map((k, i) => ({
    label: APPRAISAL_WORDS[k],
    values: points.map((p) => p.cognitive.appraisal[k]),
    color: seriesColor(i + 2),
  }));
  const outcome: Series[] = [
    { label: OUTCOME_LABEL[task], values: points.map((p) => strength(p.cognitive)), color: seriesColor(0) },
  ];
  const prices: Series[] =
    task === 'cb'
      ? [
          {
            label: "seller's acceptable price",
            values: points.map((p) => p.acceptablePrice),
            color: seriesColor(1),
          },
          {
            label: "seller's last counter-offer",
            values: points.map((p) => p.lastUserPrice),
            color: seriesColor(2),
          },
        ].filter((s) => s.values.some((v) => v !== null))
      : task === 'p4g'
        ? [
            {
              label: 'committed donation (USD)',
              values: points.map((p) => p.lastUserPrice),
              color: seriesColor(1),
            },
          ].filter((s) => s.values.some((v) => v !== null))
        : [];
  const prefix = title ? `${title}: ` : '';
  return html`<div class="plots">
    <${LinePlot}
      title=${`${prefix}feeling (valence −1..1, arousal 0..1)`}
      x=${x}
      xLabel="turn"
      series=${affect}
      y=${[-1, 1]}
    />
    <${LinePlot}
      title=${`${prefix}appraisal (−1..1)`}
      x=${x}
      xLabel="turn"
      series=${appraisal}
      y=${[-1, 1]}
    />
    <${LinePlot}
      title=${`${prefix}outcome variable (strength 0..4)`}
      x=${x}
      xLabel="turn"
      series=${outcome}
      y=${[0, 4]}
    />
    ${prices.length > 0 && html`<${LinePlot} title=${`${prefix}prices`} x=${x} xLabel="turn" series=${prices} />`}
  </div>`;
}
