/**
 * Policies played against Cog-Sim on a task's seeds, summarised for the validity report and the exploit suite:
 * success rate (by the one definition of `src/tasks/success.ts`), turns and mean terminal return with 95%
 * bootstrap intervals clustered by seed, the simulator's endings set beside the judge's verdicts (contradictions
 * counted apart), and each policy's paired difference in return against a reference policy.
 *
 * Used as a check, not a target: "replay" (the human actors' own strategy labels in order, realised by the
 * template realizer) against "random" shows whether the simulator rewards what people did more than chance.
 */
import { runEpisode, type EpisodeRecord } from '../agents/rollout';
import type { Policy } from '../agents/types';
import { hashKey32 } from '../data/hash';
import { createEnv } from '../env/factory';
import { Rng } from '../rng';
import { pairedDifference, type PairedDifference } from '../stats/bootstrap';
import type { Estimate } from '../stats/intervals';
import { summarizeEpisodes, type EpisodeSummary } from '../stats/metrics';
import type { Seed, TaskId } from '../tasks/seed';
import { classifyEnding, countEndings, endingOf } from '../tasks/success';

/** One policy's results on a task. */
export interface PolicyResult {
  policy: string;
  summary: EpisodeSummary;
  /** Endings by "ending, judged …" label, and how many contradict the judge. */
  endings: { byLabel: Record<string, number>; contradictions: number };
  /** Paired difference of the return against the reference policy (absent for the reference itself). */
  versusReference?: PairedDifference;
  episodes: EpisodeRecord[];
}

/** Options of {@link comparePolicies}. */
export interface CompareOptions {
  /** Episodes per seed (each with its own simulator stream; default 1). */
  repeats?: number;
  /** Bootstrap resamples (default 2,000). */
  resamples?: number;
  /** Name of the policy the others are compared with (default: the first). */
  reference?: string;
  /** Base seed of the streams (default 0). */
  seed?: number;
  /** Keep the simulator's state after every turn in the episode records (default false). */
  keepState?: boolean;
}

/**
 * Play every policy on every seed (`repeats` times, the same simulator streams for every policy) and summarise.
 * @param policies factories, so that each episode starts from a fresh policy.
 */
export async function comparePolicies(
  task: TaskId,
  seeds: readonly Seed[],
  policies: Readonly<Record<string, () => Policy>>,
  options: CompareOptions = {},
): Promise<PolicyResult[]> {
  const repeats = options.repeats ?? 1;
  const base = options.seed ?? 0;
  const env = createEnv(task);
  const results: PolicyResult[] = [];
  for (const [name, make] of Object.entries(policies)) {
    const episodes: EpisodeRecord[] = [];
    for (const seed of seeds)
      for (let r = 0; r < repeats; r++)
        episodes.push(
          await runEpisode(env, make(), seed, {
            rngSeed: hashKey32(`${base}|sim|${seed.id}|${r}`),
            policySeed: hashKey32(`${base}|policy|${name}|${seed.id}|${r}`),
            keepState: options.keepState ?? false,
          }),
        );
    const summary = summarizeEpisodes(
      episodes.map((e) => ({
        caseId: e.seedId,
        success: e.success,
        turns: e.turns.length,
        return: e.return,
      })),
      { rng: Rng.fromSeed(hashKey32(`${base}|summary|${task}|${name}`)), resamples: options.resamples },
    );
    const endings = countEndings(episodes.map((e) => classifyEnding(endingOf(e.endReason), e.success)));
    results.push({ policy: name, summary, endings, episodes });
  }
  const reference = results.find((r) => r.policy === (options.reference ?? results[0]?.policy));
  if (reference)
    for (const r of results) {
      if (r === reference) continue;
      const keyed = (x: PolicyResult) =>
        x.episodes.map((e, i) => ({ key: `${e.seedId}/${i}`, value: e.return }));
      r.versusReference = pairedDifference(keyed(r), keyed(reference), {
        rng: Rng.fromSeed(hashKey32(`${base}|paired|${task}|${r.policy}`)),
        resamples: options.resamples,
        clusterOf: (k) => k.slice(0, k.lastIndexOf('/')),
      });
    }
  return results;
}

/** A compact, JSON-safe view of a result (no episodes). */
export function policyRow(r: PolicyResult): {
  policy: string;
  successRate: Estimate;
  avgTurns: Estimate;
  meanReturn: Estimate;
  endings: PolicyResult['endings'];
  versusReference?: PairedDifference;
} {
  return {
    policy: r.policy,
    successRate: r.summary.successRate,
    avgTurns: r.summary.avgTurnsAll,
    meanReturn: r.summary.meanReturn,
    endings: r.endings,
    ...(r.versusReference ? { versusReference: r.versusReference } : {}),
  };
}
