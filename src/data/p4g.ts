/**
 * PersuasionForGood loader (Wang et al., 2019). Reads the CSV files described in `shared/data/README.md`:
 * `p4g-dialogs.csv` (one sentence a row; role 0 = persuader = actor, 1 = persuadee = simulated user),
 * `p4g-participants.csv` (survey traits and `actual_donation` per dialogue and role), `p4g-annotated.csv`
 * (persuader labels `er_label_1` for 200 dialogues) and `p4g-annotated-donations.csv`.
 */
import { z } from 'zod';
import { buildP4gSeed } from '../tasks/builders';
import { P4G } from '../tasks/p4g';
import type { Seed, Turn } from '../tasks/seed';
import { readCsv } from './csv';
import {
  actorStrategies,
  baseName,
  cutAtSecondUserTurn,
  fileStem,
  mergeEntries,
  mergedLabel,
  type Entry,
} from './dialogue';
import { hashKey32 } from './hash';
import type { DispositionParams } from '../fit/disposition';
import { P4G_TRAIT_NAMES, persuadeeFromTraits, type P4gTraitName, type P4gTraits } from './p4g-traits';
import { describeZodError, LoadLog, type LoadOptions, type LoadResult, type TextFile } from './result';
import { DataFormatError } from '../errors';

/** The P4G files: the dialogues, and the optional companions that add traits, labels and outcomes. */
export interface P4gFiles {
  dialogs: TextFile;
  participants?: TextFile;
  annotated?: TextFile;
  annotatedDonations?: TextFile;
}

/** The standard file names of the P4G files (used to find companions next to `p4g-dialogs.csv`). */
export const P4G_FILE_NAMES: Readonly<Record<keyof P4gFiles, string>> = {
  dialogs: 'p4g-dialogs.csv',
  participants: 'p4g-participants.csv',
  annotated: 'p4g-annotated.csv',
  annotatedDonations: 'p4g-annotated-donations.csv',
};

const dialogId = z.string().trim().min(1, { error: 'must not be empty' });
const turnIndex = z.string().trim().regex(/^\d+$/, { error: 'expected a non-negative integer' });
const role = z
  .string()
  .trim()
  .pipe(z.enum(['0', '1'], { error: 'expected 0 (persuader) or 1 (persuadee)' }));
/** A number, or an empty field (null). */
const amount = z
  .string()
  .trim()
  .refine((s) => s === '' || Number.isFinite(Number(s)), { error: 'expected a number or an empty field' })
  .transform((s) => (s === '' ? null : Number(s)));

const SentenceRowSchema = z.object({ dialog_id: dialogId, turn: turnIndex, role, sentence: z.string() });
const AnnotatedRowSchema = SentenceRowSchema.extend({ er_label_1: z.string() });
const ParticipantRowSchema = z.object({
  dialog_id: dialogId,
  role,
  actual_donation: amount,
  ...(Object.fromEntries(P4G_TRAIT_NAMES.map((t) => [t, amount])) as Record<P4gTraitName, typeof amount>),
});
const DonationRowSchema = z.object({
  dialog_id: dialogId,
  role,
  intended_donation: amount,
  actual_donation: amount,
});

/** Validate one CSV record. @throws DataFormatError (DATASET_INVALID) at `file:line` naming the first bad field. */
function parseRow<S extends z.ZodType>(
  schema: S,
  record: Record<string, string>,
  file: string,
  line: number,
) {
  const parsed = schema.safeParse(record);
  if (!parsed.success)
    throw DataFormatError.record('DATASET_INVALID', file, line, describeZodError(parsed.error));
  return parsed.data as z.output<S>;
}

/**
 * Read a CSV file's rows through `convert`. Rows that fail (and malformed CSV records) throw, or under
 * `skipInvalid` are skipped; the dialogue ids they belong to are returned in `badIds` so that callers drop
 * those dialogues as a whole rather than load them with a sentence missing.
 */
function readTable<T>(
  file: TextFile,
  columns: readonly string[],
  log: LoadLog,
  convert: (record: Record<string, string>, line: number) => T,
): { rows: { line: number; value: T }[]; badIds: Set<string> } {
  const { rows, broken } = readCsv(file.text, file.name, columns, log);
  const badIds = new Set<string>();
  const out: { line: number; value: T }[] = [];
  for (const { line, record } of rows) {
    const value = log.record(file.name, line, () => convert(record, line));
    if (value === undefined) badIds.add((record.dialog_id ?? '').trim());
    else out.push({ line, value });
  }
  for (const { raw } of broken)
    for (const rawLine of raw.split('\n')) badIds.add(rawLine.split(',')[0]?.replace(/"/g, '').trim() ?? '');
  return { rows: out, badIds };
}

interface RawDialogue {
  id: string;
  /** Line of the dialogue's first row. */
  line: number;
  entries: Entry[];
}

/**
 * Read a sentence file (dialogues or annotated dialogues) into dialogues, in order of first appearance. Rows
 * keep their file order; blank sentences are dropped. With `labelled`, persuader rows carry the merged label
 * of `er_label_1`.
 */
type SentenceRow = z.output<typeof SentenceRowSchema> & { er_label_1: string | undefined };

/**
 * A sentence row as the schemas would parse it, checked by hand (the sentence files hold tens of thousands of
 * rows, and a zod parse per row was a tenth of the load); null when a field fails a check, and the schema then
 * parses the row to word the error exactly as before.
 */
function quickSentenceRow(record: Record<string, string>, labelled: boolean): SentenceRow | null {
  const { dialog_id: id, turn, role: r, sentence, er_label_1: label } = record;
  if (id === undefined || turn === undefined || r === undefined || sentence === undefined) return null;
  if (labelled && label === undefined) return null;
  const dialog_id = id.trim();
  const turnText = turn.trim();
  const roleText = r.trim();
  if (dialog_id === '' || !/^\d+$/.test(turnText) || (roleText !== '0' && roleText !== '1')) return null;
  return { dialog_id, turn: turnText, role: roleText, sentence, er_label_1: labelled ? label : undefined };
}

function readDialogues(file: TextFile, labelled: boolean, log: LoadLog): Map<string, RawDialogue> {
  const columns = Object.keys(labelled ? AnnotatedRowSchema.shape : SentenceRowSchema.shape);
  const { rows, badIds } = readTable(file, columns, log, (record, line) => {
    const row =
      quickSentenceRow(record, labelled) ??
      (labelled
        ? parseRow(AnnotatedRowSchema, record, file.name, line)
        : { ...parseRow(SentenceRowSchema, record, file.name, line), er_label_1: undefined });
    const speaker = row.role === '0' ? ('actor' as const) : ('user' as const);
    const label = speaker === 'actor' ? row.er_label_1 : undefined;
    return {
      id: row.dialog_id,
      entry: { speaker, text: row.sentence, strategy: mergedLabel(P4G, label, file.name, line) },
    };
  });
  const dialogues = new Map<string, RawDialogue>();
  for (const { line, value } of rows) {
    let dialogue = dialogues.get(value.id);
    if (!dialogue) dialogues.set(value.id, (dialogue = { id: value.id, line, entries: [] }));
    if (value.entry.text.trim()) dialogue.entries.push(value.entry);
  }
  for (const id of badIds) {
    const dialogue = dialogues.get(id);
    if (!dialogue) continue;
    dialogues.delete(id);
    log.warn(
      file.name,
      dialogue.line,
      `dialogue "${id}" left out of ${file.name}: a record of it was skipped`,
    );
  }
  return dialogues;
}

/**
 * The prefix with the strategy labels of the annotated transcript's prefix, when both have the same sequence
 * of speakers (the two files split sentences differently, but turns line up); otherwise unchanged.
 */
function withLabelsOf(prefix: Turn[], labelled: readonly Turn[]): Turn[] {
  if (prefix.length !== labelled.length || prefix.some((t, i) => t.speaker !== labelled[i]?.speaker))
    return prefix;
  return prefix.map((t, i) => {
    const strategy = labelled[i]?.strategy;
    return t.speaker === 'actor' && strategy !== undefined ? { ...t, strategy } : t;
  });
}

/** One persuadee of the participants file: survey answers (undefined when incomplete) and the donation. */
export interface Persuadee {
  traits: P4gTraits | undefined;
  /** `actual_donation` (USD, given after the task), or null when empty. */
  actualDonation: number | null;
}

/**
 * The persuadees (role 1 rows) of a P4G participants file by `dialog_id` (the first row of a dialogue wins):
 * what `npm run fit-sim` fits the disposition model on.
 * @throws DataFormatError (DATASET_INVALID) on a malformed record, a missing column or a non-numeric answer.
 */
export function readP4gPersuadees(file: TextFile): Map<string, Persuadee> {
  return readParticipants(file, new LoadLog(false));
}

/** Persuadee (role 1) rows of the participants file by dialogue id; the first row of a dialogue wins. */
function readParticipants(file: TextFile, log: LoadLog): Map<string, Persuadee> {
  const columns = Object.keys(ParticipantRowSchema.shape);
  const { rows } = readTable(file, columns, log, (record, line) =>
    parseRow(ParticipantRowSchema, record, file.name, line),
  );
  const byId = new Map<string, Persuadee>();
  for (const { line, value } of rows) {
    if (value.role !== '1') continue;
    if (byId.has(value.dialog_id)) {
      log.warn(file.name, line, `second persuadee row for "${value.dialog_id}" ignored`);
      continue;
    }
    const scores = P4G_TRAIT_NAMES.map((t) => value[t]);
    const traits = scores.every((s) => s !== null)
      ? (Object.fromEntries(P4G_TRAIT_NAMES.map((t, i) => [t, scores[i]])) as P4gTraits)
      : undefined;
    byId.set(value.dialog_id, { traits, actualDonation: value.actual_donation });
  }
  return byId;
}

/** Persuadee (role 1) donations of the annotated dialogues by dialogue id. */
function readDonations(
  file: TextFile,
  log: LoadLog,
): Map<string, { intended: number | null; actual: number | null }> {
  const { rows } = readTable(file, Object.keys(DonationRowSchema.shape), log, (record, line) =>
    parseRow(DonationRowSchema, record, file.name, line),
  );
  const byId = new Map<string, { intended: number | null; actual: number | null }>();
  for (const { value } of rows)
    if (value.role === '1' && !byId.has(value.dialog_id))
      byId.set(value.dialog_id, { intended: value.intended_donation, actual: value.actual_donation });
  return byId;
}

/** Options of {@link loadP4g}. */
export interface P4gLoadOptions extends LoadOptions {
  /**
   * The disposition model of the persuadees (default: the committed fitted one, see `persuadeeFromTraits`;
   * null: none, every disposition 0). `npm run fit-sim` passes candidate models to choose their gain.
   */
  disposition?: DispositionParams | null;
}

/**
 * Load PersuasionForGood dialogues from the texts of its CSV files. One seed per dialogue of the dialogues file,
 * id `<file stem>:<dialog_id>`, plus one per annotated dialogue that the dialogues file lacks (id
 * `<annotated stem>:<dialog_id>`, text from the annotated file). `randomSeed` = `hashKey32("<file>:<dialog_id>")`.
 * Rows keep their file order (`turn` is validated, not used for ordering: the annotated file interleaves
 * turns); consecutive rows of one role (an utterance split into sentence rows) form one turn;
 * the prefix is cut at the second persuadee turn. For annotated dialogues, `reference.strategies` are the
 * merged persuader labels after the annotated transcript's own cut (labels via `P4G.rawLabelMap`; a turn
 * keeps its first label); other dialogues have none. The persuadee's disposition, barriers and `eta_R` come
 * from the pre-task survey ({@link persuadeeFromTraits}); the donation made after the task goes only into
 * `reference.outcome` (`actual_donation`, and `intended_donation` where the annotated donations file states it).
 * Warnings: a missing companion file, a persuadee without complete survey answers (neutral state), an empty
 * dialogue, a dialogue dropped under `skipInvalid`.
 * @throws DataFormatError (DATASET_INVALID) on a malformed CSV record (e.g. a broken quote), a missing column, a bad field (e.g. a
 * role other than 0/1, a non-numeric trait) or an unknown persuader label (unless `options.skipInvalid`; a
 * missing column always throws).
 */
export function loadP4g(files: P4gFiles, options: P4gLoadOptions = {}): LoadResult {
  const log = new LoadLog(options.skipInvalid ?? false);
  const dialogs = readDialogues(files.dialogs, false, log);
  const annotated = files.annotated
    ? readDialogues(files.annotated, true, log)
    : new Map<string, RawDialogue>();
  if (!files.annotated)
    log.warn(files.dialogs.name, 0, `no ${P4G_FILE_NAMES.annotated}: seeds carry no reference strategies`);
  const persuadees = files.participants ? readParticipants(files.participants, log) : undefined;
  if (!files.participants)
    log.warn(files.dialogs.name, 0, `no ${P4G_FILE_NAMES.participants}: every persuadee starts neutral`);
  const donations = files.annotatedDonations ? readDonations(files.annotatedDonations, log) : new Map();

  const seeds: Seed[] = [];
  const add = (dialogue: RawDialogue, file: string) => {
    const seed = log.record(file, dialogue.line, () => {
      const labelled = annotated.get(dialogue.id);
      const annotatedCut = labelled && cutAtSecondUserTurn(mergeEntries(labelled.entries));
      const ownPrefix = cutAtSecondUserTurn(mergeEntries(dialogue.entries)).prefix;
      const prefix = annotatedCut ? withLabelsOf(ownPrefix, annotatedCut.prefix) : ownPrefix;
      const reference = annotatedCut ? actorStrategies(annotatedCut.rest) : undefined;
      const persuadee = persuadees?.get(dialogue.id);
      if (persuadees && !persuadee?.traits)
        log.warn(
          file,
          dialogue.line,
          `no complete survey answers for the persuadee of "${dialogue.id}": neutral start`,
        );
      if (prefix.length === 0) log.warn(file, dialogue.line, `dialogue "${dialogue.id}" has no sentences`);
      const state =
        options.disposition === undefined
          ? persuadeeFromTraits(persuadee?.traits)
          : persuadeeFromTraits(persuadee?.traits, options.disposition);
      const donation = donations.get(dialogue.id);
      const actual = persuadee ? persuadee.actualDonation : donation?.actual;
      const outcome = {
        ...(actual !== undefined ? { actual_donation: actual } : {}),
        ...(donation?.intended != null ? { intended_donation: donation.intended } : {}),
      };
      return buildP4gSeed({
        id: `${fileStem(file)}:${dialogue.id}`,
        source: baseName(file),
        randomSeed: hashKey32(`${baseName(file)}:${dialogue.id}`),
        persona: state.persona,
        prefix,
        tendencies: { eta_R: state.eta_R },
        barriers: state.barriers,
        disposition: state.disposition,
        concerns: state.concerns,
        ...(reference ? { referenceStrategies: reference } : {}),
        ...(Object.keys(outcome).length > 0 ? { outcome } : {}),
      });
    });
    if (seed) seeds.push(seed);
  };
  for (const dialogue of dialogs.values()) add(dialogue, files.dialogs.name);
  if (files.annotated)
    for (const dialogue of annotated.values())
      if (!dialogs.has(dialogue.id)) add(dialogue, files.annotated.name);
  return log.result(seeds);
}
