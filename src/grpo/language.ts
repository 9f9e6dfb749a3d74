/**
 * The language backend of a GRPO run (EmoLLM Stage II, EmoLLM paper §3.2.2) from the roles configuration that
 * every page, worker and command uses (src/roles/config.ts): with `rewards: 'llm'` the Stage II reward judge
 * (rewards-judge.ts) runs on the backend of the configuration's `judge` role — WebLLM in its engine worker, a
 * loopback OpenAI-compatible server, or replay of recorded answers — with the configuration's `maxAttempts`.
 * The other roles of a GRPO run stay template: the trained heads choose over the template ARG actor, realizer
 * and reverse-perspective predictor, in Node and in the trainer worker alike.
 *
 * A module of its own so that template training (no `language`) loads none of the language machinery: the
 * trainer worker imports it only when a run is given a language configuration.
 */
import { backendFor, RolesConfigSchema, type RolesConfig } from '../roles/config';
import { resolveRoles, type RuntimeOptions } from '../roles/resolve';
import type { GrpoServices } from './trainer';

/**
 * The GRPO services a language configuration gives: `rewardJudge` (the `judge` role's counted backend and
 * `maxAttempts`) when that role is on a language backend; none when it is template (a run with
 * `rewards: 'llm'` then fails with `InputError` (`GRPO_INPUT_INVALID`) when it is created or restored). Nothing is loaded or sent
 * yet (WebLLM loads its model on the first call).
 * @throws ZodError for an invalid configuration; BackendError for WebLLM outside a browser;
 *   PrivacyError for a non-loopback server URL without `allowRemote`.
 */
export function grpoLanguageServices(language: RolesConfig, runtime: RuntimeOptions = {}): GrpoServices {
  const valid = RolesConfigSchema.parse(language);
  const judge = backendFor(valid, 'judge');
  if (judge.kind === 'template') return {};
  // Only the judge is built: backends named for other roles are never started by a GRPO run.
  const { judgeCall } = resolveRoles(
    {
      roles: { judge },
      ...(valid.fixtures ? { fixtures: valid.fixtures } : {}),
      ...(valid.maxAttempts !== undefined ? { maxAttempts: valid.maxAttempts } : {}),
    },
    runtime,
  );
  return judgeCall ? { rewardJudge: judgeCall } : {};
}
