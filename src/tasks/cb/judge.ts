/** CraigslistBargain's judge questions (LLM judge, src/env/prompts/judge.ts) and PPDPP per-turn answers, worst to best. */
import type { TaskDefinition } from '../types';

export const CB_JUDGE: TaskDefinition['judge'] = {
  terminalQuestion:
    'Did the buyer and the seller agree on a price by the end? deal: both explicitly agreed; price: the agreed price (null without a deal).',
  turnQuestion:
    "After the latest exchange, has the negotiation become worse for the buyer, stayed the same, become better (the seller moved toward the buyer's target), or is it solved (a deal)?",
  turnLabels: ['worse', 'same', 'better', 'solved'],
};
