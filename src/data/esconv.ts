/**
 * ESConv loader (Liu et al., 2021; PPDPP split, Deng et al., 2024): JSONL with `emotion_type`, `problem_type`,
 * `situation` and `dialog[{text, speaker: "usr" | "sys", strategy}]`. `sys` (the supporter) is the actor, `usr`
 * (the help-seeker) the simulated user. See `shared/data/README.md` for the format.
 */
import { z } from 'zod';
import { buildEsconvSeed } from '../tasks/builders';
import { ESCONV } from '../tasks/esconv';
import type { Seed } from '../tasks/seed';
import { contentWords, phraseCount } from '../text/features';
import {
  actorStrategies,
  baseName,
  cutAtSecondUserTurn,
  fileStem,
  mergeEntries,
  mergedLabel,
  userText,
} from './dialogue';
import { hashKey32 } from './hash';
import { readJsonl } from './jsonl';
import { LoadLog, type LoadOptions, type LoadResult } from './result';

const EsconvEntrySchema = z.object({
  text: z.string(),
  speaker: z.enum(['usr', 'sys']),
  strategy: z.string().nullish(),
});

/** One ESConv record as stored in the JSONL file. */
export const EsconvRecordSchema = z.object({
  emotion_type: z.string(),
  problem_type: z.string(),
  situation: z.string(),
  dialog: z.array(EsconvEntrySchema),
});
export type EsconvRecord = z.infer<typeof EsconvRecordSchema>;

/** Starting severity per emotion type, before the user's own words are read (unknown types: 0.45). */
const EMOTION_SEVERITY: Readonly<Record<string, number>> = {
  depression: 0.65,
  fear: 0.55,
  sadness: 0.5,
  anxiety: 0.5,
  anger: 0.5,
  shame: 0.5,
  nervousness: 0.4,
  disgust: 0.4,
};

/**
 * Phrases of distress in the help-seeker's words, matched as whole words outside negation ("whatever" holds no
 * "hate", "not hopeless" is no distress); each distinct one found raises severity by 0.05.
 */
const DISTRESS_MARKERS = [
  "can't",
  'cannot',
  'never',
  'nothing',
  'hopeless',
  'alone',
  'lonely',
  'worst',
  'hate',
  'lost',
  'scared',
  'afraid',
  'crying',
  'depressed',
  'give up',
  'terrible',
  'awful',
  'no one',
  'nobody',
  'worthless',
  'overwhelm',
  'panic',
  'stressed',
  'exhausted',
];

/**
 * Severity in [0, 1] from what is known at the cut: the emotion type's base value ({@link EMOTION_SEVERITY})
 * plus 0.05 for each distinct distress phrase in the help-seeker's prefix turns, at most +0.25.
 */
export function esconvSeverity(emotionType: string, userPrefixText: string): number {
  const base = EMOTION_SEVERITY[emotionType.trim().toLowerCase()] ?? 0.45;
  const hits = Math.min(5, phraseCount(userPrefixText, DISTRESS_MARKERS));
  return Math.round(Math.min(1, base + 0.05 * hits) * 100) / 100;
}

/**
 * Concern words the help-seeker may reveal: the problem type (lower case), then the 4 longest content words of
 * the situation (stop words, words under 4 letters and contractions dropped; longer words are the more
 * specific ones), kept in their order in the text, without repeats.
 */
export function esconvConcerns(problemType: string, situation: string): string[] {
  const problem = problemType.trim().toLowerCase();
  const words = [...new Set(contentWords(situation))].filter(
    (w) => !w.includes("'") && !problem.split(/\s+/).includes(w),
  );
  const longest = new Set([...words].sort((a, b) => b.length - a.length).slice(0, 4));
  return [...(problem ? [problem] : []), ...words.filter((w) => longest.has(w))];
}

function severityWord(severity: number): string {
  return severity < 0.45 ? 'mild' : severity < 0.7 ? 'moderate' : 'strong';
}

function toSeed(record: EsconvRecord, file: string, line: number, log: LoadLog): Seed {
  const entries = record.dialog.map((e, i) => {
    const strategy = e.speaker === 'sys' ? mergedLabel(ESCONV, e.strategy, file, line) : undefined;
    return {
      speaker: e.speaker === 'sys' ? ('actor' as const) : ('user' as const),
      text: e.text,
      strategy,
      i,
    };
  });
  const { prefix, rest } = cutAtSecondUserTurn(mergeEntries(entries));
  const severity = esconvSeverity(record.emotion_type, userText(prefix));
  const problem = record.problem_type.trim() || 'a personal problem';
  const seed = buildEsconvSeed({
    id: `${fileStem(file)}:${line}`,
    source: baseName(file),
    randomSeed: hashKey32(`${baseName(file)}:${line}`),
    persona: `A help-seeker dealing with ${problem.toLowerCase()} who feels ${record.emotion_type.trim().toLowerCase() || 'low'}; ${severityWord(severity)} distress at the start.`,
    prefix,
    situation: record.situation,
    emotionType: record.emotion_type,
    problemType: record.problem_type,
    concerns: esconvConcerns(record.problem_type, record.situation),
    severity,
    referenceStrategies: actorStrategies(rest),
  });
  if (record.dialog.length === 0) log.warn(file, line, 'empty dialog: the seed has an empty prefix');
  for (const e of entries)
    if (e.speaker === 'actor' && e.strategy === undefined)
      log.warn(file, line, `dialog[${e.i}] (sys) has no strategy label`);
  return seed;
}

/**
 * Load ESConv dialogues from the text of a JSONL file. One seed per non-blank line, id `<file stem>:<line>`,
 * `randomSeed` = FNV-1a of `<file name>:<line>`. The prefix is cut at the second help-seeker turn (consecutive
 * entries of one speaker merged); `reference.strategies` are the merged supporter labels after it. The initial
 * state uses only `emotion_type`, `problem_type`, `situation` and the prefix ({@link esconvSeverity},
 * {@link esconvConcerns}). A supporter entry without a strategy loads, with a warning.
 * @throws DataFormatError (DATASET_INVALID) on a truncated JSON line, a wrong field type or an unknown strategy label (unless
 * `options.skipInvalid`).
 */
export function loadEsconv(text: string, fileName: string, options: LoadOptions = {}): LoadResult {
  const log = new LoadLog(options.skipInvalid ?? false);
  const seeds: Seed[] = [];
  for (const { line, value } of readJsonl(text, fileName, EsconvRecordSchema, log)) {
    const seed = log.record(fileName, line, () => toSeed(value, fileName, line, log));
    if (seed) seeds.push(seed);
  }
  return log.result(seeds);
}
