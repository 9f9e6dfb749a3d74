/** ESConv's judge questions (LLM judge, src/env/prompts/judge.ts) and PPDPP per-turn answers, worst to best. */
import type { TaskDefinition } from '../types';

export const ESCONV_JUDGE: TaskDefinition['judge'] = {
  terminalQuestion:
    'Score the whole conversation. emotion_improvement: how much better the help-seeker feels and how much more hopeful they are at the end than at the start (0 = not at all or worse, 4 = much better). action_plan: how concrete and feasible the next step is that the help-seeker says they will take (0 = none, 2 = vague intention, 4 = specific step with a time).',
  turnQuestion:
    "After the latest exchange, has the help-seeker's emotional state become worse, stayed the same, become better, or is the problem solved (they feel better and have a plan)?",
  turnLabels: ['worse', 'same', 'better', 'solved'],
};
