/**
 * ESConv's hooks of the validity replay and report (src/validity): its reaction classes, which of them is toward
 * and against the goal, the report's names, the exploit texts (keyword stuffing, word salad) and the reply-check
 * patterns.
 */
import type { TaskDefinition } from '../types';

/** The reaction classes of the validity replay, in report order (grouping: src/validity/labels.ts). */
export const ESCONV_REACTIONS = ['positive', 'negative', 'neutral'] as const;

export const ESCONV_VALIDITY: TaskDefinition['validity'] = {
  doseLadder: {
    levels: [
      {
        utterances: [
          'Honestly, it is not a big deal. You should just get over it.',
          'Calm down, you are overreacting. It could be worse.',
        ],
      },
      { utterances: ['Okay.', 'I see.'] },
      {
        utterances: [
          'That sounds really hard, and I am sorry you are going through it.',
          'I hear you. It makes sense that this weighs on you.',
        ],
      },
      {
        utterances: [
          'That sounds really hard, and it is not your fault. One small step could help: tomorrow evening you could write down what worries you most and talk it over with a friend you trust.',
          'I am sorry you are carrying this, and I understand. It might help to plan one small thing for this week, like calling someone you trust on Saturday to talk it through.',
        ],
      },
    ],
  },
  reactions: ESCONV_REACTIONS,
  positive: 'positive',
  negative: 'negative',
  reactionName: 'seeker reply sentiment',
  doseOutcome: "the user's valence (−1 to 1)",
  stuffing:
    'I understand, I hear you, you are not alone, not your fault, sorry, support, hope, better, calm, plan, try, this week, tomorrow, help, thank you.',
  wordSalad: 'sorry understand feel plan hope better step support',
  manyPrices: 'It might help to spend $5, $20, $50 or $100 on something for yourself.',
  lean: /\b(i (will|might|may|could|can) (\w+ )?(try|give (it|that) a (try|go|shot))|give (it|that) a (try|go|shot)|worth a try|i will start)\b/,
  refuse: /\b(not (ready|able) to (try|do)|will not (try|work)|can not do that|not going to try)\b/,
};
