/** P4G's judge questions (LLM judge, src/env/prompts/judge.ts) and PPDPP per-turn answers, worst to best. */
import type { TaskDefinition } from '../types';

export const P4G_JUDGE: TaskDefinition['judge'] = {
  terminalQuestion:
    'Did the persuadee commit to donate voluntarily by the end? committed: they agreed to donate; withdrawn: they took it back afterwards; amount: the promised amount in USD (0 if none).',
  turnQuestion:
    'After the latest exchange, has the persuadee refused to donate, stayed neutral, become positive toward donating, or decided to donate?',
  turnLabels: ['refused', 'neutral', 'positive', 'donate'],
};
