/**
 * Dataset dialogues → seed prefixes: merging consecutive entries of one speaker, mapping raw strategy labels,
 * and cutting the actor-visible prefix at the second user turn
 * (docs/architecture.md "Seeds and initial states").
 */
import { normalizeLabel } from '../tasks/labels';
import type { Turn } from '../tasks/seed';
import type { TaskSpec } from '../tasks/types';
import { DataFormatError } from '../errors';

/** One dataset entry (an utterance or a sentence row) with its merged strategy label, if any. */
export interface Entry {
  speaker: Turn['speaker'];
  text: string;
  strategy?: string;
}

/** Raw labels that mean "no label" (after {@link normalizeLabel}). */
const NO_LABEL = new Set(['', 'none', 'null', 'nan']);

/**
 * The merged label of a raw dataset label, looked up in `task.rawLabelMap` after {@link normalizeLabel}
 * (so any case, spacing, `-` or `_` works). Returns undefined for a missing label (`null`, `""`, `None`).
 * @throws DataFormatError (DATASET_INVALID) `unknown strategy label "<raw>"` at `file:line` when the label is not in the map.
 */
export function mergedLabel(
  task: TaskSpec,
  raw: string | null | undefined,
  file: string,
  line: number,
): string | undefined {
  if (raw === null || raw === undefined) return undefined;
  const key = normalizeLabel(raw);
  if (NO_LABEL.has(key)) return undefined;
  const merged = task.rawLabelMap.get(key);
  if (merged === undefined)
    throw DataFormatError.record('DATASET_INVALID', file, line, `unknown strategy label "${raw}"`);
  return merged;
}

/**
 * Merge consecutive entries of one speaker into one turn: texts trimmed and joined with a space (empty texts
 * dropped); a merged actor turn keeps its first label. User turns never carry a strategy.
 */
export function mergeEntries(entries: readonly Entry[]): Turn[] {
  const turns: Turn[] = [];
  let last: Turn | undefined;
  for (const entry of entries) {
    const text = entry.text.trim();
    if (last && last.speaker === entry.speaker) {
      if (text) last.text = last.text ? `${last.text} ${text}` : text;
      if (last.speaker === 'actor' && last.strategy === undefined && entry.strategy !== undefined)
        last.strategy = entry.strategy;
      continue;
    }
    last = { speaker: entry.speaker, text };
    if (entry.speaker === 'actor' && entry.strategy !== undefined) last.strategy = entry.strategy;
    turns.push(last);
  }
  return turns;
}

/**
 * Split merged turns into the actor-visible prefix (up to and including the second user turn; the whole
 * dialogue when it has fewer) and the continuation.
 */
export function cutAtSecondUserTurn(turns: readonly Turn[]): { prefix: Turn[]; rest: Turn[] } {
  let users = 0;
  for (let i = 0; i < turns.length; i++) {
    if (turns[i]?.speaker === 'user' && ++users === 2)
      return { prefix: turns.slice(0, i + 1), rest: turns.slice(i + 1) };
  }
  return { prefix: [...turns], rest: [] };
}

/** The strategy labels of the actor turns, in order (unlabelled actor turns are left out). */
export function actorStrategies(turns: readonly Turn[]): string[] {
  return turns.flatMap((t) => (t.speaker === 'actor' && t.strategy !== undefined ? [t.strategy] : []));
}

/** The user's words in the turns, joined (for reading what the user revealed by the cut). */
export function userText(turns: readonly Turn[]): string {
  return turns
    .filter((t) => t.speaker === 'user')
    .map((t) => t.text)
    .join(' ');
}

/** A file name without folders and extension: `data/esconv-valid.jsonl` → `esconv-valid`. */
export function fileStem(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/** A file name without folders: `data/esconv-valid.jsonl` → `esconv-valid.jsonl`. */
export function baseName(fileName: string): string {
  return fileName.split(/[\\/]/).pop() ?? fileName;
}
