/**
 * Prompt pieces shared by the role templates of this folder (docs/architecture.md "Language backends"):
 * speaker names, the dialogue as text, public task events, and the simulated user's own state. Every piece
 * renders only what the role may read — dialogue text without strategy labels, public events, and (for
 * simulator roles) the simulator's own state; numbers are printed with fixed decimals so prompts are
 * identical in Node and browsers.
 */
import type { SimState, TaskEvent } from '../../types';
import { getTask } from '../../../tasks';
import type { ActorView, BdiRecord, TaskId, Turn } from '../../../tasks/seed';

/** `supporter` → `Supporter`. */
export function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The display names of a task's actor and user, by task id (the tasks' roles are constants). */
const speakerNames = new Map<string, { actor: string; user: string }>();

/** Both display names of `task`'s speakers. @throws ConfigError (TASK_UNKNOWN) for an unknown task. */
function namesOf(task: TaskId): { actor: string; user: string } {
  let names = speakerNames.get(task);
  if (names === undefined) {
    const spec = getTask(task);
    names = { actor: capitalise(spec.actorRole), user: capitalise(spec.userRole) };
    speakerNames.set(task, names);
  }
  return names;
}

/**
 * The display name of a speaker in `task` (`Supporter`, `Help-seeker`, `Persuader`, …).
 * @throws ConfigError (TASK_UNKNOWN) for an unknown task.
 */
export function speakerName(task: TaskId, speaker: Turn['speaker']): string {
  const names = namesOf(task);
  return speaker === 'actor' ? names.actor : names.user;
}

/**
 * The dialogue as `Name: text` lines. Strategy labels are never printed (`Turn.strategy` is ignored), so the
 * same rendering serves the actor, the simulator and the judge. An empty history reads
 * `(the conversation has not started)`.
 */
export function dialogueText(task: TaskId, history: readonly Turn[]): string {
  if (history.length === 0) return '(the conversation has not started)';
  const { actor, user } = namesOf(task);
  let text = '';
  for (let i = 0; i < history.length; i++) {
    const t = history[i] as Turn;
    text += `${i === 0 ? '' : '\n'}${t.speaker === 'actor' ? actor : user}: ${t.text}`;
  }
  return text;
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
  let flags = r.direction === 'neutral' ? 'neutral' : `${r.direction} the goal`;
  if (r.core) flags += ', core';
  if (!r.active) flags += ', inactive';
  let rel = r.supports.length ? `supported by ${r.supports.join(', ')}` : '';
  if (r.conflictsWith.length) rel += `${rel ? '; ' : ''}conflicts with ${r.conflictsWith.join(', ')}`;
  return `- ${r.id} [${f2(r.strength)}; ${flags}; topic ${r.topic}]${rel ? ` (${rel})` : ''}: ${r.content}`;
}

/** A rendered record line and the fields it was rendered from (the id lists copied). */
interface RenderedLine {
  line: string;
  id: string;
  strength: number;
  direction: BdiRecord['direction'];
  core: boolean;
  active: boolean;
  topic: string;
  content: string;
  supports: string[];
  conflictsWith: string[];
}

/**
 * Rendered record lines, per record object (collected with it): the updater copies only the records a turn
 * changes, so most records of a prompt are the objects of the turn before. A kept line is used only while every
 * field {@link recordLine} reads still holds the value it was rendered from, so a record changed in place (the
 * library's runners do not freeze their states) is rendered afresh, never shown stale.
 */
const renderedLines = new WeakMap<BdiRecord, RenderedLine>();

/** Whether two id lists hold the same ids in the same order. */
function sameIds(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** {@link recordLine}, kept per record while its fields are unchanged. */
function cachedRecordLine(r: BdiRecord): string {
  const kept = renderedLines.get(r);
  if (
    kept !== undefined &&
    kept.strength === r.strength &&
    kept.id === r.id &&
    kept.direction === r.direction &&
    kept.core === r.core &&
    kept.active === r.active &&
    kept.topic === r.topic &&
    kept.content === r.content &&
    sameIds(kept.supports, r.supports) &&
    sameIds(kept.conflictsWith, r.conflictsWith)
  )
    return kept.line;
  const line = recordLine(r);
  renderedLines.set(r, {
    line,
    id: r.id,
    strength: r.strength,
    direction: r.direction,
    core: r.core,
    active: r.active,
    topic: r.topic,
    content: r.content,
    supports: r.supports.slice(),
    conflictsWith: r.conflictsWith.slice(),
  });
  return line;
}

/** One titled list of records, one {@link recordLine} per line; `(none)` for an empty list. */
function section(title: string, rs: readonly BdiRecord[]): string {
  if (rs.length === 0) return `${title}:\n(none)`;
  let text = `${title}:`;
  for (let i = 0; i < rs.length; i++) text += `\n${cachedRecordLine(rs[i] as BdiRecord)}`;
  return text;
}

/**
 * The simulated user's persona, private view and cognitive-affective state (records with strengths 0–4, affect,
 * appraisal): what the simulator's own roles may read, never shown to the actor or the judge.
 */
export function userStateText(state: Readonly<SimState>): string {
  const p = state.private;
  const cog = state.cognitive;
  let text = `Persona: ${state.profile.persona}`;
  if (p.situation) text += `\nSituation: ${p.situation}`;
  if (p.problemType) text += `\nProblem: ${p.problemType}`;
  if (p.concerns.length) text += `\nConcerns you may mention: ${p.concerns.join('; ')}`;
  if (p.barriers?.length) text += `\nReasons you hesitate: ${p.barriers.join('; ')}`;
  if (p.itemDescription) text += `\nYour item: ${p.itemDescription}`;
  if (p.listPrice !== undefined) text += `\nYour listed price: ${money(p.listPrice)}`;
  if (p.reservationPrice !== undefined)
    text += `\nLowest price you would ever accept (secret): ${money(p.reservationPrice)}`;
  return (
    `${text}\nYour current mind (strength 0 = not held, 4 = held fully):\n` +
    `${section('Beliefs', cog.beliefs)}\n${section('Desires', cog.desires)}\n${section('Intentions', cog.intentions)}\n` +
    `Feeling: ${cog.affect.category} (valence ${f2(cog.affect.valence)} on -1..1, arousal ${f2(cog.affect.arousal)} on 0..1)\n` +
    `Appraisal (each -1..1): goal congruence ${f2(cog.appraisal.GC)}, coping potential ${f2(cog.appraisal.CP)}, future expectancy ${f2(cog.appraisal.FE)}`
  );
}
