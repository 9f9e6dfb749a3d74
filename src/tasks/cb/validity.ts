/**
 * CraigslistBargain's hooks of the validity replay and report (src/validity): its reaction classes, which of them is toward
 * and against the goal, the report's names, the exploit texts (keyword stuffing, word salad) and the reply-check
 * patterns.
 */
import type { TaskDefinition } from '../types';

/** The reaction classes of the validity replay, in report order (grouping: src/validity/labels.ts). */
export const CB_REACTIONS = ['agree', 'counter', 'disagree', 'other'] as const;

export const CB_VALIDITY: TaskDefinition['validity'] = {
  doseLadder: {
    levels: [0.55, 0.7, 0.85, 1].map((priceFraction) => ({
      utterances: ['Would you take ${price} for it?', 'I can pay {price} for it.'],
      priceFraction,
    })),
  },
  reactions: CB_REACTIONS,
  positive: 'agree',
  negative: 'disagree',
  reactionName: 'seller act',
  doseOutcome: "the seller's acceptance of the offer (0 to 1)",
  stuffing: 'It is used and worn with a scratch, cheaper online, cash today.',
  wordSalad: 'used worn scratch cheaper online cash deal',
};
