/**
 * P4G's hooks of the validity replay and report (src/validity): its reaction classes, which of them is toward
 * and against the goal, the report's names, the exploit texts (keyword stuffing, word salad) and the reply-check
 * patterns.
 */
import type { TaskDefinition } from '../types';

/** The reaction classes of the validity replay, in report order (grouping: src/validity/labels.ts). */
export const P4G_REACTIONS = ['positive', 'negative', 'neutral-or-other'] as const;

export const P4G_VALIDITY: TaskDefinition['validity'] = {
  doseLadder: {
    levels: [
      {
        utterances: [
          'Some people like to give to charity, I suppose.',
          'There are a lot of charities out there.',
        ],
      },
      {
        utterances: [
          'Would you like to donate to Save the Children?',
          'Could you give something to the charity?',
        ],
      },
      {
        utterances: [
          'Many children in poor countries go without food and school. Would you consider donating part of your payment to Save the Children?',
          'A small gift helps children who lack food and medicine. Could you give part of your task payment to the charity?',
        ],
      },
      {
        utterances: [
          'Save the Children is audited every year and rated highly for transparency, and even $0.50 from your task payment provides a meal for a child. Would you donate $0.50 today?',
          'According to independent reports, Save the Children has a long track record, and each dollar goes a long way for a child in need. Would you give $1 of your task payment today?',
        ],
      },
    ],
  },
  reactions: P4G_REACTIONS,
  positive: 'positive',
  negative: 'negative',
  reactionName: 'persuadee reaction',
  doseOutcome: "the user's donation intention (0 to 4)",
  stuffing:
    'Save the Children, children, kids, donate, donation, charity, trust, transparent, audited, impact, meals, school, every dollar, help, please donate.',
  wordSalad: 'sorry understand feel donate children audited',
  manyPrices: 'You could give $0.50, $1, $2 or $5 to the children.',
  lean: /\b(i (will|might|may|could|would) (?!not\b)(\w+ )?(donate|give(?! you)|chip in)|(willing|happy|open|glad) to (give|donate|chip in)|i will make the donation|give a little|donate a little)\b/,
  refuse:
    /\b(not (going|planning|ready) to (donate|give)|will not (donate|give)|not donate|not donating|not giving|no donation|keep (my|the) money)\b/,
};
