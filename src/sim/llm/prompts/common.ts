/**
 * Prompt pieces shared by the role templates of this folder (DESIGN.md "The language backends"): speaker names,
 * the dialogue as text, public task events, and the simulated user's own state. Every piece renders only what
 * the role may read — dialogue text without strategy labels, public events, and (for simulator roles) the
 * simulator's own state; numbers are printed with fixed decimals so prompts are identical in Node and browsers.
 */
import type { SimState, TaskEvent } from '../../types';
import { getTask } from '../../../tasks';
import type { ActorView, BdiRecord, TaskId, Turn } from '../../../tasks/seed';

/** What each task's conversation is, in one clause (who talks with whom about what). */
export const TASK_SETTING: Readonly<Record<TaskId, string>> = {
  esconv: 'an emotional-support conversation: a help-seeker in distress talks with a supporter',
  p4g: 'a persuasion conversation: a persuader asks a persuadee to donate part of their task payment to a charity',
  cb: 'a price negotiation: a buyer bargains with a seller over an item listed for sale',
};

/** `supporter` → `Supporter`. */
export function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The display name of a speaker in `task` (`Supporter`, `Help-seeker`, `Persuader`, …). */
export function speakerName(task: TaskId, speaker: Turn['speaker']): string {
  const spec = getTask(task);
  return capitalise(speaker === 'actor' ? spec.actorRole : spec.userRole);
}

/**
 * The dialogue as `Name: text` lines. Strategy labels are never printed (`Turn.strategy` is ignored), so the
 * same rendering serves the actor, the simulator and the judge. An empty history reads
 * `(the conversation has not started)`.
 */
export function dialogueText(task: TaskId, history: readonly Turn[]): string {
  if (history.length === 0) return '(the conversation has not started)';
  const actor = speakerName(task, 'actor');
  const user = speakerName(task, 'user');
  return history.map((t) => `${t.speaker === 'actor' ? actor : user}: ${t.text}`).join('\n');
}

/** A money amount as `$12` or `$1.50`. */
export function money(v: number): string {
  return Number.isInteger(v) ? `$${v}` : `$${v.toFixed(2)}`;
}

/** One public event as a line, e.g. `- turn 3: seller offer $350`; `(none)` for an empty list. */
export function eventLines(task: TaskId, events: readonly TaskEvent[]): string {
  if (events.length === 0) return '(none)';
  const spec = getTask(task);
  return events
    .map((e) => {
      const who = e.by === 'actor' ? spec.actorRole : spec.userRole;
      const value =
        e.price !== undefined ? ` ${money(e.price)}` : e.amount !== undefined ? ` ${money(e.amount)}` : '';
      return `- turn ${e.turn}: ${who} ${e.type}${value}`;
    })
    .join('\n');
}

/** The public task brief of the actor's view (goal, organisation, item, listed and target price). */
export function actorBrief(view: ActorView): string {
  const lines = [`Goal: ${view.goal}`];
  if (view.organisation) lines.push(`Organisation: ${view.organisation}`);
  if (view.itemName) lines.push(`Item: ${view.itemName}`);
  if (view.itemDescription) lines.push(`Listing: ${view.itemDescription}`);
  if (view.listPrice !== undefined) lines.push(`Listed price: ${money(view.listPrice)}`);
  if (view.targetPrice !== undefined) lines.push(`Buyer's target price: ${money(view.targetPrice)}`);
  return lines.join('\n');
}

const f2 = (v: number) => v.toFixed(2);

/** One BDI record as a line: id, strength (0–4), direction toward the actor's goal, core flag, content. */
export function recordLine(r: BdiRecord): string {
  const flags = [r.direction === 'neutral' ? 'neutral' : `${r.direction} the goal`];
  if (r.core) flags.push('core');
  if (!r.active) flags.push('inactive');
  const rel = [
    ...(r.supports.length ? [`supported by ${r.supports.join(', ')}`] : []),
    ...(r.conflictsWith.length ? [`conflicts with ${r.conflictsWith.join(', ')}`] : []),
  ];
  return `- ${r.id} [${f2(r.strength)}; ${flags.join(', ')}; topic ${r.topic}]${rel.length ? ` (${rel.join('; ')})` : ''}: ${r.content}`;
}

/**
 * Rendered record lines, per record: the updater copies only the records a turn changes, so most records of a
 * prompt are the same objects as in the turn before. Only deeply frozen records are kept (collected with them),
 * so a record changed in place is never shown stale: the cache serves environments that freeze their states
 * (`DialogueEnv`'s default); the library's own runners, which run unfrozen, render every line.
 */
const renderedLines = new WeakMap<BdiRecord, string>();

/** {@link recordLine}, kept for a deeply frozen record. */
function cachedRecordLine(r: BdiRecord): string {
  let line = renderedLines.get(r);
  if (line === undefined) {
    line = recordLine(r);
    if (Object.isFrozen(r) && Object.isFrozen(r.supports) && Object.isFrozen(r.conflictsWith))
      renderedLines.set(r, line);
  }
  return line;
}

/** One titled list of records, one {@link recordLine} per line; `(none)` for an empty list. */
function section(title: string, rs: readonly BdiRecord[]): string {
  return `${title}:\n${rs.length ? rs.map(cachedRecordLine).join('\n') : '(none)'}`;
}

/**
 * The simulated user's persona, private view and cognitive-affective state (records with strengths 0–4, affect,
 * appraisal): what the simulator's own roles may read, never shown to the actor or the judge.
 */
export function userStateText(state: Readonly<SimState>): string {
  const p = state.private;
  const cog = state.cognitive;
  const priv: string[] = [];
  if (p.situation) priv.push(`Situation: ${p.situation}`);
  if (p.problemType) priv.push(`Problem: ${p.problemType}`);
  if (p.concerns.length) priv.push(`Concerns you may mention: ${p.concerns.join('; ')}`);
  if (p.barriers?.length) priv.push(`Reasons you hesitate: ${p.barriers.join('; ')}`);
  if (p.itemDescription) priv.push(`Your item: ${p.itemDescription}`);
  if (p.listPrice !== undefined) priv.push(`Your listed price: ${money(p.listPrice)}`);
  if (p.reservationPrice !== undefined)
    priv.push(`Lowest price you would ever accept (secret): ${money(p.reservationPrice)}`);
  return [
    `Persona: ${state.profile.persona}`,
    ...priv,
    'Your current mind (strength 0 = not held, 4 = held fully):',
    section('Beliefs', cog.beliefs),
    section('Desires', cog.desires),
    section('Intentions', cog.intentions),
    `Feeling: ${cog.affect.category} (valence ${f2(cog.affect.valence)} on -1..1, arousal ${f2(cog.affect.arousal)} on 0..1)`,
    `Appraisal (each -1..1): goal congruence ${f2(cog.appraisal.GC)}, coping potential ${f2(cog.appraisal.CP)}, future expectancy ${f2(cog.appraisal.FE)}`,
  ].join('\n');
}
