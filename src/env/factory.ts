/**
 * The one environment factory of the library's runners (simulate, evaluate, the trainers, the online Principles
 * evaluation): a {@link DialogueEnv} with its simulator roles and its judge stack assembled in one place. The
 * judge stack is the judge of one judgment (the template judge, an LLM judge, or either wrapped to watch each
 * judgment: the evaluation harness records them for judge agreement, CSTPO counts calls) repeated `judgeRepeats`
 * times (the Cog-Sim paper's three judgments, §E.2).
 */
import { DialogueEnv, type DialogueEnvOptions } from './env';
import { repeatedJudge, TemplateJudge, type Judge } from './judge';
import type { TaskId } from '../tasks/seed';

/** What an environment is built from. Every field is optional: template roles and judge, the task's horizon. */
export interface EnvSpec extends Omit<DialogueEnvOptions, 'judge'> {
  /** The judge of one judgment (default: the template judge). */
  judge?: Judge;
  /** Judgments per call, averaged (numbers) or by majority (booleans); default 3. */
  judgeRepeats?: number;
}

/** The judge part of an {@link EnvSpec}. */
export type JudgeSpec = Pick<EnvSpec, 'judge' | 'judgeRepeats'>;

/**
 * The judge stack of `spec`: `repeatedJudge(judge, judgeRepeats)`, or undefined when `spec` names neither a judge
 * nor a repeat count (the environment's own default: the template judge, asked once per input
 * since it answers the same every time, repeated 3 times — the same judgments, made once).
 * @throws InputError (JUDGE_INPUT_INVALID) when `judgeRepeats` is not a positive integer.
 */
export function judgeStack(spec: JudgeSpec & { judge: Judge }): Judge;
export function judgeStack(spec: JudgeSpec): Judge | undefined;
export function judgeStack(spec: JudgeSpec): Judge | undefined {
  if (spec.judge === undefined && spec.judgeRepeats === undefined) return undefined;
  return repeatedJudge(spec.judge ?? new TemplateJudge(), spec.judgeRepeats ?? 3);
}

/**
 * An environment for `task` built from `spec`. `freezeStates` defaults to false here: a runner that builds its
 * environment with this factory hands no simulator state to other code while it plays (see
 * `DialogueEnvOptions.freezeStates`).
 * @throws as {@link judgeStack}.
 */
export function createEnv(task: TaskId, spec: EnvSpec = {}): DialogueEnv {
  const judge = judgeStack(spec);
  return new DialogueEnv(task, {
    freezeStates: spec.freezeStates ?? false,
    ...(spec.roles ? { roles: spec.roles } : {}),
    ...(spec.protocol ? { protocol: spec.protocol } : {}),
    ...(spec.horizon !== undefined ? { horizon: spec.horizon } : {}),
    ...(spec.routeSampling ? { routeSampling: spec.routeSampling } : {}),
    ...(judge ? { judge } : {}),
  });
}
