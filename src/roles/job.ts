/**
 * Episode jobs whose language roles run on configured backends: the serialisable job of the CLI and the episode
 * worker, plus a {@link RolesConfig}. Reports calls and tokens per role and per episode (what a user pays).
 */
import { runEpisodes, type EpisodeJob, type EpisodeRecord } from '../agents/rollout';
import { DialogueEnv } from '../env/env';
import type { ReplayFixture } from '../llm/replay';
import { emptyUsageStats, type UsageStats } from '../llm/usage';
import type { RolesConfig } from './config';
import { resolveRoles, type RoleUsage, type RuntimeOptions } from './resolve';

/** An episode job with an optional language configuration (absent: every role in template mode). */
export interface LanguageJob extends EpisodeJob {
  /** `policy` may also be `llm` or `arg` here (see `ResolvedRoles.policy`). */
  language?: RolesConfig;
  /** Horizon in actor turns (default: the protocol's, see `DialogueEnvOptions.horizon`). */
  horizon?: number;
}

/** The records of a job and what its language roles used. */
export interface LanguageJobResult {
  records: EpisodeRecord[];
  /** Calls and tokens per role over the whole job. */
  usage: RoleUsage[];
  /** Calls and tokens of each episode (all roles together), in episode order. */
  episodeUsage: UsageStats[];
  /** With `runtime.record`: the replay fixture recorded (the given fixtures plus every new answer). */
  fixture?: ReplayFixture;
}

function minus(a: UsageStats, b: UsageStats): UsageStats {
  return {
    calls: a.calls - b.calls,
    promptTokens: a.promptTokens - b.promptTokens,
    completionTokens: a.completionTokens - b.completionTokens,
    callsWithoutUsage: a.callsWithoutUsage - b.callsWithoutUsage,
  };
}

/**
 * Runs `job` with the roles its `language` config names. Deterministic for template and replay backends: the
 * same job gives the same records in Node and in a browser worker.
 * @throws as `runEpisodes`, `resolveRoles` and the roles themselves (e.g. `FixtureMissingError` when a replay
 *   fixture lacks a request, `RoleOutputError` after invalid answers).
 */
export async function runLanguageJob(
  job: LanguageJob,
  options: { runtime?: RuntimeOptions; onProgress?: (done: number, total: number) => void } = {},
): Promise<LanguageJobResult> {
  const roles = resolveRoles(job.language ?? {}, options.runtime);
  const env = new DialogueEnv(job.task, {
    freezeStates: false,
    roles: roles.simRoles,
    judge: roles.judge,
    ...(job.protocol ? { protocol: job.protocol } : {}),
    ...(job.routeSampling ? { routeSampling: job.routeSampling } : {}),
    ...(job.horizon !== undefined ? { horizon: job.horizon } : {}),
  });
  const episodeUsage: UsageStats[] = [];
  let before = emptyUsageStats();
  const records = await runEpisodes(env, roles.policy(job.task, job.policy), job.seeds, {
    episodes: job.episodes,
    ...(job.baseSeed !== undefined ? { baseSeed: job.baseSeed } : {}),
    ...(job.keepState !== undefined ? { keepState: job.keepState } : {}),
    onProgress: (done, total) => {
      const now = roles.totalUsage();
      episodeUsage.push(minus(now, before));
      before = now;
      options.onProgress?.(done, total);
    },
  });
  const fixture = roles.recordedFixture();
  return { records, usage: roles.usage(), episodeUsage, ...(fixture ? { fixture } : {}) };
}
