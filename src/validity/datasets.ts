/**
 * Dialogues for the teacher-forced replay, read from the datasets' own files (the researcher's, or the shared
 * ones): the whole human dialogue after the seed's prefix, the human user's reaction after each actor turn
 * (grouped by `./labels`), and the real outcome. The simulator's initial state comes from the project's loaders
 * (`src/data`), the same seeds every other job uses; the replay matches them by id.
 *
 * - ESConv / CraigslistBargain: one JSONL file each (`loadEsconv` / `loadCb` seeds, id `<file stem>:<line>`).
 * - P4G: the sentence CSVs. Turn-level reactions come from the annotated file (`ee_label_1`), the donation outcome
 *   and the traits from the participants file (persuadee rows, `actual_donation > 0`). Dialogue-level replay
 *   uses every dialogue of the dialogues file (or of the annotated file when no dialogues file is given).
 */
import { hashKey32 } from '../data/hash';
import { readCsv } from '../data/csv';
import { loadCb, CbRecordSchema } from '../data/cb';
import { loadEsconv, EsconvRecordSchema } from '../data/esconv';
import { fileStem } from '../data/dialogue';
import { readJsonl } from '../data/jsonl';
import { loadP4g, type P4gFiles, type P4gLoadOptions } from '../data/p4g';
import { LoadLog, type TextFile } from '../data/result';
import { sentiment } from '../env/judge';
import type { Seed, TaskId, Turn } from '../tasks/seed';

import { cbReaction, p4gReaction, p4gTurnReaction, sentimentReaction, type P4gReaction } from './labels';
import { InputError } from '../errors';

/** One actor turn of a human dialogue and what the human user did next. */
export interface ReplayStep {
  /** The human actor's words (what the simulator processes). */
  actor: string;
  /** The human user's reply as it was (kept in the history; never read by the simulator to decide), or null. */
  user: string | null;
  /** The human user's reaction, grouped (`./labels`); null when there is no reply or no annotation. */
  reaction: string | null;
  /** ESConv: the AFINN sentiment of the seeker's reply (the judge's scorer); null elsewhere. */
  userSentiment: number | null;
  /**
   * The dataset's own labels of the actor's turn, as written, in order (CB: the buyer's dialogue acts, e.g.
   * "agree"); absent where the file has none.
   */
  actorLabels?: readonly string[];
}

/** One human dialogue ready for replay. */
export interface ReplayDialogue {
  task: TaskId;
  /** The dataset's dialogue id (P4G `dialog_id`; `<file stem>:<line>` otherwise): the cluster and split key. */
  id: string;
  /** Which replay it serves: turn-level reactions, or only the dialogue-level outcome (P4G dialogues file). */
  purpose: 'turns' | 'outcome';
  seed: Seed;
  /** The history before the first replayed actor turn (the seed's prefix, from the same source as the steps). */
  prefix: Turn[];
  steps: ReplayStep[];
  outcome: {
    /** P4G: the persuadee donated (`actual_donation > 0`), or null when unknown. */
    donated?: boolean | null;
    /** P4G: the persuadee's survey answers (every trait column of the participants file), or null. */
    traits?: number[] | null;
    /** CB: a deal was reached by the humans (an `agree` act by either side). */
    deal?: boolean;
  };
}

/** The dataset files of each task to replay. */
export interface ValidityFiles {
  esconv?: TextFile[];
  cb?: TextFile[];
  p4g?: Partial<P4gFiles>;
}

/** Which share of every dataset is held out: dialogues whose split hash is 0 mod 5 (20%). */
export const HELD_OUT_MODULUS = 5;

/** The split of a dialogue id, fixed by a hash of the id (so a dialogue never moves between splits). */
export function splitOf(id: string): 'dev' | 'held-out' {
  return hashKey32(`validity-split:${id}`) % HELD_OUT_MODULUS === 0 ? 'held-out' : 'dev';
}

/**
 * The seeds of a task's dialogues in one validity split (`dev` or `held-out`; every split with `allHeldOut`), in file
 * order, each seed once, at most `n`; `keep` narrows the dialogues further (a purpose, a reference).
 */
export function splitSeeds(
  dialogues: readonly ReplayDialogue[],
  task: TaskId,
  n: number,
  split: 'dev' | 'held-out',
  options: { allHeldOut?: boolean; keep?: (d: ReplayDialogue) => boolean } = {},
): Seed[] {
  const seen = new Set<string>();
  const out: Seed[] = [];
  for (const d of dialogues) {
    if (out.length >= n) break;
    if (d.task !== task || seen.has(d.seed.id)) continue;
    if (options.allHeldOut !== true && splitOf(d.id) !== split) continue;
    if (options.keep && !options.keep(d)) continue;
    seen.add(d.seed.id);
    out.push(d.seed);
  }
  return out;
}

/**
 * The split of a dialogue for fitting the simulator (`npm run fit-sim`), the one place it is defined:
 * the same hash as {@link splitOf}, so the held-out fifth is the same dialogues the validity report holds out
 * (0 mod 5, about 20%; never read by the fit); of the dev part, 1 mod 5 is the validation fifth (about 20%, where
 * hyperparameters and thresholds are chosen) and the rest (about 60%) is what the models are fitted on.
 */
export function fitSplitOf(id: string): 'train' | 'validation' | 'held-out' {
  const r = hashKey32(`validity-split:${id}`) % HELD_OUT_MODULUS;
  return r === 0 ? 'held-out' : r === 1 ? 'validation' : 'train';
}

interface RawTurn {
  speaker: 'actor' | 'user';
  texts: string[];
  labels: string[];
}

/** Merge consecutive entries of one speaker (texts joined with a space, labels kept in order). */
function mergeRaw(entries: readonly { speaker: 'actor' | 'user'; text: string; label: string }[]): RawTurn[] {
  const turns: RawTurn[] = [];
  for (const e of entries) {
    const last = turns.at(-1);
    if (last && last.speaker === e.speaker) {
      if (e.text.trim()) last.texts.push(e.text.trim());
      last.labels.push(e.label);
    } else turns.push({ speaker: e.speaker, texts: e.text.trim() ? [e.text.trim()] : [], labels: [e.label] });
  }
  return turns.filter((t) => t.texts.length > 0);
}

/** Cut at the second user turn (as the seed loaders do) and pair every later actor turn with the user's reply. */
function cutAndPair(
  turns: readonly RawTurn[],
  reactionOf: (t: RawTurn) => string | null,
  sentimentOf: ((text: string) => number) | null,
): { prefix: Turn[]; steps: ReplayStep[] } {
  let users = 0;
  let cut = turns.length;
  for (let i = 0; i < turns.length; i++)
    if (turns[i]?.speaker === 'user' && ++users === 2) {
      cut = i + 1;
      break;
    }
  const text = (t: RawTurn) => t.texts.join(' ');
  const prefix = turns.slice(0, cut).map((t) => ({ speaker: t.speaker, text: text(t) }));
  const steps: ReplayStep[] = [];
  const rest = turns.slice(cut);
  for (let i = 0; i < rest.length; i++) {
    const t = rest[i] as RawTurn;
    if (t.speaker !== 'actor') continue;
    const next = rest[i + 1];
    const reply = next?.speaker === 'user' ? next : undefined;
    steps.push({
      actor: text(t),
      user: reply ? text(reply) : null,
      reaction: reply ? reactionOf(reply) : null,
      userSentiment: reply && sentimentOf ? sentimentOf(text(reply)) : null,
      ...(t.labels.some((l) => l !== '') ? { actorLabels: t.labels } : {}),
    });
  }
  return { prefix, steps };
}

function seedsById(seeds: readonly Seed[]): Map<string, Seed> {
  return new Map(seeds.map((s) => [s.id, s]));
}

function needSeed(seeds: Map<string, Seed>, id: string, file: string): Seed {
  const seed = seeds.get(id);
  if (!seed) throw new InputError('VALIDITY_INPUT', `${file}: no seed "${id}" was loaded for this dialogue`);
  return seed;
}

/** ESConv dialogues of one JSONL file. @throws DataFormatError (DATASET_INVALID) from the loader; InputError (VALIDITY_INPUT). */
export function esconvDialogues(file: TextFile): ReplayDialogue[] {
  const seeds = seedsById(loadEsconv(file.text, file.name).seeds);
  const log = new LoadLog(false);
  return readJsonl(file.text, file.name, EsconvRecordSchema, log).map(({ line, value }) => {
    const id = `${fileStem(file.name)}:${line}`;
    const turns = mergeRaw(
      value.dialog.map((e) => ({ speaker: e.speaker === 'sys' ? 'actor' : 'user', text: e.text, label: '' })),
    );
    const { prefix, steps } = cutAndPair(
      turns,
      (t) => sentimentReaction(sentiment(t.texts.join(' '))),
      sentiment,
    );
    return {
      task: 'esconv',
      id,
      purpose: 'turns',
      seed: needSeed(seeds, id, file.name),
      prefix,
      steps,
      outcome: {},
    };
  });
}

/** CraigslistBargain negotiations of one JSONL file. @throws DataFormatError (DATASET_INVALID); InputError (VALIDITY_INPUT). */
export function cbDialogues(file: TextFile): ReplayDialogue[] {
  const seeds = seedsById(loadCb(file.text, file.name).seeds);
  const log = new LoadLog(false);
  return readJsonl(file.text, file.name, CbRecordSchema, log).map(({ line, value }) => {
    const id = `${fileStem(file.name)}:${line}`;
    const where = `${file.name}:${line}`;
    const turns = mergeRaw(
      value.dialog.map((e) => ({
        speaker: e.speaker === 'sys' ? 'actor' : 'user',
        text: e.text,
        label: e.strategy ?? '',
      })),
    );
    const { prefix, steps } = cutAndPair(
      turns,
      (t) => {
        const reactions = t.labels.map((l) => cbReaction(l, where));
        // A merged seller turn: its first act that is not "other", else other.
        return reactions.find((r) => r !== 'other') ?? 'other';
      },
      null,
    );
    const deal = value.dialog.some((e) => (e.strategy ?? '').trim().toLowerCase() === 'agree');
    return {
      task: 'cb',
      id,
      purpose: 'turns',
      seed: needSeed(seeds, id, file.name),
      prefix,
      steps,
      outcome: { deal },
    };
  });
}

const SENTENCE_COLUMNS = ['dialog_id', 'turn', 'role', 'sentence'] as const;

/** Dialogues of a P4G sentence CSV, in order of first appearance, with `ee_label_1` when `labelled`. */
function p4gRawDialogues(file: TextFile, labelled: boolean): Map<string, { line: number; turns: RawTurn[] }> {
  const log = new LoadLog(false);
  const columns = labelled ? [...SENTENCE_COLUMNS, 'ee_label_1'] : [...SENTENCE_COLUMNS];
  const { rows } = readCsv(file.text, file.name, columns, log);
  const entries = new Map<
    string,
    { line: number; list: { speaker: 'actor' | 'user'; text: string; label: string }[] }
  >();
  for (const { line, record } of rows) {
    const id = (record.dialog_id ?? '').trim();
    const role = (record.role ?? '').trim();
    if (role !== '0' && role !== '1')
      throw new InputError(
        'VALIDITY_INPUT',
        `${file.name}:${line}: role must be 0 or 1, got "${record.role}"`,
      );
    let d = entries.get(id);
    if (!d) entries.set(id, (d = { line, list: [] }));
    const label = role === '1' && labelled ? p4gReaction(record.ee_label_1, `${file.name}:${line}`) : '';
    d.list.push({ speaker: role === '0' ? 'actor' : 'user', text: record.sentence ?? '', label });
  }
  return new Map([...entries].map(([id, d]) => [id, { line: d.line, turns: mergeRaw(d.list) }]));
}

/** Persuadee rows of the participants file: donation and every trait column, by dialogue id. */
function p4gParticipants(file: TextFile): Map<string, { donated: boolean | null; traits: number[] | null }> {
  const log = new LoadLog(false);
  const { rows } = readCsv(file.text, file.name, ['dialog_id', 'role', 'actual_donation'], log);
  const out = new Map<string, { donated: boolean | null; traits: number[] | null }>();
  for (const { record } of rows) {
    if ((record.role ?? '').trim() !== '1') continue;
    const id = (record.dialog_id ?? '').trim();
    if (out.has(id)) continue;
    const amount = (record.actual_donation ?? '').trim();
    const traitKeys = Object.keys(record).filter(
      (k) => !['dialog_id', 'role', 'actual_donation', 'num_turns'].includes(k),
    );
    const values = traitKeys.map((k) => Number((record[k] ?? '').trim() || NaN));
    out.set(id, {
      donated: amount === '' || !Number.isFinite(Number(amount)) ? null : Number(amount) > 0,
      traits: values.length > 0 && values.every(Number.isFinite) ? values : null,
    });
  }
  return out;
}

/**
 * P4G dialogues: turn-level ones from the annotated file, outcome-level ones from the dialogues file (or the
 * annotated one). `options` go to the loader (`disposition`: a persuadee disposition model other than the committed
 * one). @throws InputError (VALIDITY_INPUT) without a sentence file; DataFormatError (DATASET_INVALID) from the loader.
 */
export function p4gDialogues(files: Partial<P4gFiles>, options: P4gLoadOptions = {}): ReplayDialogue[] {
  const dialogsFile = files.dialogs ?? files.annotated;
  if (!dialogsFile)
    throw new InputError(
      'VALIDITY_INPUT',
      'P4G replay needs p4g-dialogs.csv or p4g-annotated.csv (a sentence file)',
    );
  const seeds = seedsById(
    loadP4g(
      {
        dialogs: dialogsFile,
        ...(files.participants ? { participants: files.participants } : {}),
        ...(files.annotated && files.annotated !== dialogsFile ? { annotated: files.annotated } : {}),
        ...(files.annotatedDonations ? { annotatedDonations: files.annotatedDonations } : {}),
      },
      options,
    ).seeds,
  );
  const seedFor = (id: string) =>
    seeds.get(`${fileStem(dialogsFile.name)}:${id}`) ??
    (files.annotated ? seeds.get(`${fileStem(files.annotated.name)}:${id}`) : undefined);
  const people = files.participants ? p4gParticipants(files.participants) : new Map();
  const out: ReplayDialogue[] = [];
  const add = (file: TextFile, labelled: boolean, purpose: ReplayDialogue['purpose']) => {
    for (const [id, d] of p4gRawDialogues(file, labelled)) {
      const seed = seedFor(id);
      if (!seed)
        throw new InputError(
          'VALIDITY_INPUT',
          `${file.name}:${d.line}: no seed was loaded for dialogue "${id}"`,
        );
      const { prefix, steps } = cutAndPair(
        d.turns,
        labelled ? (t) => p4gTurnReaction(t.labels as P4gReaction[]) : () => null,
        null,
      );
      const person = people.get(id);
      out.push({
        task: 'p4g',
        id,
        purpose,
        seed,
        prefix,
        steps,
        outcome: { donated: person?.donated ?? null, traits: person?.traits ?? null },
      });
    }
  };
  if (files.annotated) add(files.annotated, true, 'turns');
  add(dialogsFile, false, 'outcome');
  return out;
}

/** Every replay dialogue of the given files. */
export function replayDialogues(files: ValidityFiles): ReplayDialogue[] {
  return [
    ...(files.esconv ?? []).flatMap(esconvDialogues),
    ...(files.p4g ? p4gDialogues(files.p4g) : []),
    ...(files.cb ?? []).flatMap(cbDialogues),
  ];
}
