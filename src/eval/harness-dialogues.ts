/**
 * Whole labelled dialogues for strategy F1 (harness-f1.ts): seeds keep the dataset's text only up to the cut,
 * so scoring every labelled turn needs the dialogues themselves. Readers for the ESConv JSONL file and the
 * annotated P4G CSV, built on the dataset loaders' own parsing (zod schemas, csv-parse, label maps, merging of
 * consecutive entries), with the same file:line errors.
 */
import { z } from 'zod';
import { readCsv } from '../data/csv';
import { mergedLabel, mergeEntries, fileStem, type Entry } from '../data/dialogue';
import { EsconvRecordSchema } from '../data/esconv';
import { readJsonl } from '../data/jsonl';
import { describeZodError, LoadLog } from '../data/result';
import { getTask } from '../tasks';
import { defaultSeeds } from '../tasks/defaults';
import type { ActorView, TaskId } from '../tasks/seed';
import type { LabelledDialogue } from './harness-f1';
import { DataFormatError } from '../errors';

/** The actor's view every ESConv and P4G seed gets (the tasks' views do not depend on the dialogue). */
export function standardActorView(task: TaskId): ActorView {
  return structuredClone((defaultSeeds(task)[0] as { actorView: ActorView }).actorView);
}

/**
 * ESConv dialogues from the text of the JSONL file; ids `<file stem>:<line>` as the seed loader's.
 * @throws DataFormatError (DATASET_INVALID) (file:line) on a malformed line or an unknown strategy label.
 */
export function esconvDialogues(text: string, fileName: string): LabelledDialogue[] {
  const log = new LoadLog(false);
  const task = getTask('esconv');
  const actorView = standardActorView('esconv');
  return readJsonl(text, fileName, EsconvRecordSchema, log).map(({ line, value }) => {
    const entries: Entry[] = value.dialog.map((e) =>
      e.speaker === 'sys'
        ? { speaker: 'actor', text: e.text, strategy: mergedLabel(task, e.strategy, fileName, line) }
        : { speaker: 'user', text: e.text },
    );
    return { id: `${fileStem(fileName)}:${line}`, task: 'esconv', actorView, turns: mergeEntries(entries) };
  });
}

const AnnotatedRow = z.object({
  dialog_id: z.string().trim().min(1),
  role: z
    .string()
    .trim()
    .pipe(z.enum(['0', '1'])),
  sentence: z.string(),
  er_label_1: z.string(),
});

/**
 * Annotated P4G dialogues (persuader labels `er_label_1`) from the text of `p4g-annotated.csv`; ids
 * `<file stem>:<dialog_id>`, in order of first appearance.
 * @throws DataFormatError (DATASET_INVALID) (file:line) on a malformed record, a missing column or an unknown label.
 */
export function p4gAnnotatedDialogues(text: string, fileName: string): LabelledDialogue[] {
  const log = new LoadLog(false);
  const task = getTask('p4g');
  const actorView = standardActorView('p4g');
  const { rows } = readCsv(text, fileName, Object.keys(AnnotatedRow.shape), log);
  const byId = new Map<string, Entry[]>();
  for (const { line, record } of rows) {
    const parsed = AnnotatedRow.safeParse(record);
    if (!parsed.success)
      throw DataFormatError.record('DATASET_INVALID', fileName, line, describeZodError(parsed.error));
    const row = parsed.data;
    const entry: Entry =
      row.role === '0'
        ? {
            speaker: 'actor',
            text: row.sentence,
            strategy: mergedLabel(task, row.er_label_1, fileName, line),
          }
        : { speaker: 'user', text: row.sentence };
    const list = byId.get(row.dialog_id) ?? [];
    list.push(entry);
    byId.set(row.dialog_id, list);
  }
  return [...byId].map(([id, entries]) => ({
    id: `${fileStem(fileName)}:${id}`,
    task: 'p4g' as const,
    actorView,
    turns: mergeEntries(entries),
  }));
}
