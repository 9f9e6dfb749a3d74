/**
 * EmoLLM's metrics in the evaluation report: for every seed set whose seeds all carry an EmoLLM scenario, each
 * policy's episodes are scored from their visible transcripts (the seed's prefix, then each actor utterance and
 * user reply) — by the template scorers of `emollm-metrics.ts` in template mode, by the LLM judge of
 * `emollm-metrics-judge.ts` when the evaluation runs with a language backend (LLM mode) — and summarised with
 * intervals clustered by seed. The Markdown section prints each metric's definition and names the scorer; the
 * report's methods say it too.
 */
import { hashKey32 } from '../data/hash';
import { Rng } from '../rng';
import type { Seed } from '../tasks/seed';
import type { TaskId } from '../tasks/seed';
import { runKey, seedKey, type EvalPlan } from './harness';
import type { EvalRun } from './harness-run';

import {
  EMOLLM_METRIC_DEFINITIONS,
  scoreEmollmEpisode,
  summarizeEmollm,
  type EmollmEpisodeInput,
  type EmollmEpisodeScores,
  type EmollmScorer,
  type EmollmScorerName,
  type EmollmSummary,
} from './emollm-metrics';
import { LlmEmollmScorer } from './emollm-metrics-judge';
import type { RoleCallOptions } from '../llm/call';
import { ESTIMATE_METHOD_NAMES, type Estimate } from '../stats/intervals';
import { InputError } from '../errors';

/** EmoLLM metrics of one policy on one EmoLLM seed set. */
export interface EmollmResult extends EmollmSummary {
  task: TaskId;
  seedSet: string;
  policy: string;
  /** The form that scored the episodes: template scorers, or the LLM judge (a report made in LLM mode). */
  scorer: EmollmScorerName;
}

/** How the EmoLLM metrics of a report were scored and estimated, in words (the report's methods). */
export function emollmMethod(scorer: EmollmScorerName, level: number, resamples: number): string {
  const pct = `${Math.round(level * 100)}%`;
  const by =
    scorer === 'llm-judge'
      ? 'LLM judge (EmoLLM judge prompts 1 and 2, src/eval/emollm-metrics-judge.ts: one verdict per actor turn ' +
        'and one per episode, schema-checked, retried)'
      : 'template scorers (src/eval/emollm-metrics.ts: lexicon and patterns over the visible transcript)';
  return (
    `scored by the ${by} from the visible transcript and the scenario's facts; EmoLLM SR: ${pct} ` +
    `${ESTIMATE_METHOD_NAMES.wilson} (clusters: seeds); AT, ES, EG/turn, EA, FA: ${pct} ` +
    `${ESTIMATE_METHOD_NAMES['cluster-bootstrap']} over seeds, ${resamples} resamples`
  );
}

/** The visible transcript of an evaluated episode with its seed's scenario. */
export function emollmInput(
  seed: Seed,
  episode: { turns: readonly { action: { utterance: string }; userUtterance: string }[] },
): EmollmEpisodeInput | null {
  if (!seed.scenario) return null;
  return {
    transcript: [
      ...seed.prefix.map((t) => ({ speaker: t.speaker, text: t.text })),
      ...episode.turns.flatMap((t) => [
        { speaker: 'actor' as const, text: t.action.utterance },
        { speaker: 'user' as const, text: t.userUtterance },
      ]),
    ],
    prefixTurns: seed.prefix.length,
    scenario: seed.scenario,
  };
}

interface EmollmGroup {
  task: TaskId;
  seedSet: string;
  policy: string;
  episodes: { caseId: string; input: EmollmEpisodeInput }[];
}

/**
 * The (EmoLLM seed set, policy) groups of a finished run, with each episode's visible transcript.
 * @throws InputError (EVAL_INPUT_INVALID) when the run kept no full records (`keepRecords`).
 */
function emollmGroups(plan: EvalPlan, run: EvalRun): EmollmGroup[] {
  const { config } = plan;
  const records = run.records;
  if (!records)
    throw new InputError(
      'EVAL_INPUT_INVALID',
      'run: scoring EmoLLM transcripts needs the full episode records; run the evaluation with keepRecords',
    );
  const out: EmollmGroup[] = [];
  for (const set of config.seedSets) {
    const seeds = set.seedIds.map((id) => plan.seeds.get(seedKey(set.task, set.name, id)));
    if (seeds.length === 0 || seeds.some((s) => !s?.scenario)) continue;
    for (const policy of config.policies) {
      const episodes = (records.get(runKey(set.task, policy)) ?? [])
        .filter((e) => e.seedSet === set.name)
        .flatMap((e) => {
          const seed = plan.seeds.get(seedKey(set.task, set.name, e.seedId));
          const input = seed ? emollmInput(seed, e) : null;
          return input ? [{ caseId: e.seedId, input }] : [];
        });
      if (episodes.length > 0) out.push({ task: set.task, seedSet: set.name, policy, episodes });
    }
  }
  return out;
}

function summarized(
  plan: EvalPlan,
  group: Pick<EmollmGroup, 'task' | 'seedSet' | 'policy'>,
  rows: { caseId: string; scores: EmollmEpisodeScores }[],
  scorer: EmollmScorerName,
): EmollmResult {
  const { config } = plan;
  const rng = Rng.fromSeed(
    hashKey32([config.baseSeed, 'emollm', group.task, group.seedSet, group.policy].join('|')),
  );
  return {
    task: group.task,
    seedSet: group.seedSet,
    policy: group.policy,
    scorer,
    ...summarizeEmollm(rows, { rng, resamples: config.resamples, level: config.level }),
  };
}

/**
 * EmoLLM metrics for every (EmoLLM seed set, policy) of a finished run, by the template scorers (what
 * `buildReport` puts in the report), from the transcripts the episodes' outcomes kept; empty when no set has
 * scenarios.
 */
export function emollmResults(plan: EvalPlan, run: EvalRun): EmollmResult[] {
  const out: EmollmResult[] = [];
  for (const set of plan.config.seedSets) {
    const seeds = set.seedIds.map((id) => plan.seeds.get(seedKey(set.task, set.name, id)));
    if (seeds.length === 0 || seeds.some((s) => !s?.scenario)) continue;
    for (const policy of plan.config.policies) {
      const rows = (run.outcomes.get(runKey(set.task, policy)) ?? []).flatMap((e) =>
        e.seedSet === set.name && e.emollm
          ? [{ caseId: e.seedId, scores: scoreEmollmEpisode(e.emollm) }]
          : [],
      );
      if (rows.length > 0)
        out.push(summarized(plan, { task: set.task, seedSet: set.name, policy }, rows, 'template'));
    }
  }
  return out;
}

/**
 * The same metrics by any {@link EmollmScorer} — e.g. the LLM judge of emollm-metrics-judge.ts — over a
 * finished run, episode by episode in report order, with the same intervals and bootstrap streams.
 * @throws what the scorer throws (RoleOutputError (LLM_ROLE_OUTPUT_INVALID) for a judge that never answers validly); InputError (EVAL_INPUT_INVALID) when
 *   the run kept no full records (`keepRecords`).
 */
export async function scoreEmollmRun(
  plan: EvalPlan,
  run: EvalRun,
  scorer: EmollmScorer,
): Promise<EmollmResult[]> {
  const out: EmollmResult[] = [];
  for (const g of emollmGroups(plan, run)) {
    const rows: { caseId: string; scores: EmollmEpisodeScores }[] = [];
    for (const e of g.episodes) rows.push({ caseId: e.caseId, scores: await scorer.episode(e.input) });
    out.push(summarized(plan, g, rows, scorer.name));
  }
  return out;
}

/**
 * The EmoLLM metrics of an evaluation made in LLM mode: scored by the LLM judge on `llm.backend`
 * ({@link LlmEmollmScorer}); `undefined` without a backend (template mode: `buildReport` scores them with the
 * template scorers). @throws RoleOutputError (LLM_ROLE_OUTPUT_INVALID) when the judge never answers a call validly; InputError (EVAL_INPUT_INVALID) when
 *   the run kept no full records (`keepRecords`; `evaluate` keeps them in LLM mode).
 */
export async function emollmJudgeResults(
  plan: EvalPlan,
  run: EvalRun,
  llm: Partial<RoleCallOptions>,
): Promise<EmollmResult[] | undefined> {
  if (!llm.backend) return undefined;
  return scoreEmollmRun(plan, run, new LlmEmollmScorer({ ...llm, backend: llm.backend }));
}

const f2 = (v: number) => v.toFixed(2);
const cell = (e: Estimate | null, scale = 1, f = f2) =>
  !e
    ? '–'
    : e.lo === null || e.hi === null
      ? `${f(e.mean * scale)} n/a (${e.nClusters} seed${e.nClusters === 1 ? '' : 's'})`
      : `${f(e.mean * scale)} [${f(e.lo * scale)}, ${f(e.hi * scale)}]`;

/**
 * The Markdown section of the EmoLLM metrics, with each metric's definition; '' without results. Its success rate
 * is named "EmoLLM SR" (a percentage); given `taskSr`, the words for what the report's Results table counts as
 * its "Task SR", a sentence says how the two differ.
 */
export function emollmMarkdown(results: readonly EmollmResult[] | undefined, taskSr?: string): string {
  if (!results || results.length === 0) return '';
  const line = (cells: string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  const header = [
    'Seeds',
    'Policy',
    'N',
    'EmoLLM SR (%)',
    'AT',
    'ES',
    'EG/turn',
    'EA',
    'FA (%)',
    'FA episodes',
  ];
  const judge = results.every((r) => r.scorer === 'llm-judge');
  return [
    '',
    judge
      ? '## EmoLLM metrics (LLM judge, visible transcript and scenario facts only)'
      : '## EmoLLM metrics (template scorers, visible transcript and scenario facts only)',
    '',
    ...Object.entries(EMOLLM_METRIC_DEFINITIONS).map(
      ([k, v]) => `- **${k === 'SR' ? 'EmoLLM SR' : k}** — ${v}`,
    ),
    ...(taskSr === undefined
      ? []
      : [
          '',
          `EmoLLM SR is not the Task SR of the Results table: EmoLLM SR counts the episodes in which some actor ` +
            `turn resolves the scenario by EmoLLM's rule above, read from the user's visible replies by the ` +
            `${judge ? 'LLM judge' : 'template scorers'}; Task SR counts ${taskSr}. Two rules over different ` +
            'evidence, so the rates differ; EmoLLM SR is a percentage, Task SR a proportion in [0, 1].',
        ]),
    '',
    line(header),
    line(header.map(() => '---')),
    ...results.map((r) =>
      line([
        r.seedSet,
        r.policy,
        String(r.episodes),
        cell(r.successRate, 100, (v) => v.toFixed(1)),
        cell(r.avgTurns),
        cell(r.emotionalState),
        cell(r.gainPerTurn, 1, (v) => v.toFixed(3)),
        cell(r.empathic),
        cell(r.factual, 1, (v) => v.toFixed(1)),
        String(r.factualEpisodes),
      ]),
    ),
  ].join('\n');
}
