/**
 * PersuasionForGood (Wang et al., 2019): the actor persuades the user to donate part of a task payment to
 * Save the Children. Terminal utility (CSTPO protocol): 1 when the user commits to a voluntary donation and
 * does not withdraw, else 0.
 */
import { labelMap } from '../labels';
import type { TaskSpec } from '../types';

/** The 10 persuader strategies of Wang et al. plus greeting, proposition of donation and other (13 merged). */
export const P4G_STRATEGIES = [
  'Logical appeal',
  'Emotion appeal',
  'Credibility appeal',
  'Foot in the door',
  'Self-modeling',
  'Personal story',
  'Donation information',
  'Source-related inquiry',
  'Task-related inquiry',
  'Personal-related inquiry',
  'Proposition of donation',
  'Greeting',
  'Other',
] as const;

/** The 27 raw persuader labels of the annotated P4G file mapped onto the 13 merged labels. */
const RAW: Record<string, (typeof P4G_STRATEGIES)[number]> = {
  'logical-appeal': 'Logical appeal',
  'emotion-appeal': 'Emotion appeal',
  'credibility-appeal': 'Credibility appeal',
  'foot-in-the-door': 'Foot in the door',
  'self-modeling': 'Self-modeling',
  'personal-story': 'Personal story',
  'donation-information': 'Donation information',
  'source-related-inquiry': 'Source-related inquiry',
  'task-related-inquiry': 'Task-related inquiry',
  'personal-related-inquiry': 'Personal-related inquiry',
  'proposition-of-donation': 'Proposition of donation',
  'ask-donation-amount': 'Proposition of donation',
  'ask-donate-more': 'Proposition of donation',
  'confirm-donation': 'Proposition of donation',
  'ask-not-donate-reason': 'Proposition of donation',
  greeting: 'Greeting',
  thank: 'Greeting',
  'you-are-welcome': 'Greeting',
  closing: 'Greeting',
  acknowledgement: 'Other',
  'praise-user': 'Other',
  'comment-partner': 'Other',
  'positive-to-inquiry': 'Other',
  'neutral-to-inquiry': 'Other',
  'negative-to-inquiry': 'Other',
  'off-task': 'Other',
  other: 'Other',
};

export const P4G_SPEC: TaskSpec = {
  id: 'p4g',
  title: 'PersuasionForGood donation persuasion',
  actorRole: 'persuader',
  userRole: 'persuadee',
  strategies: P4G_STRATEGIES,
  rawLabelMap: labelMap({ ...RAW, ...Object.fromEntries(P4G_STRATEGIES.map((s) => [s, s])) }),
  topics: {
    trust: [
      'save the children',
      'transparen',
      'rated',
      'charity navigator',
      'accountab',
      'audited',
      'reputable',
      'track record',
      'since 1919',
      'for over',
      'years of',
      // How persuaders of the dev split answer distrust (the persuader turns that follow a persuadee's doubt
      // about where the money goes): low overhead and administrative costs, the charity's financial reports and
      // statements, its ratings and rankings by charity watchdogs (and Forbes), "legitimate", "trustworthy".
      'overhead',
      'administrative',
      'financial report',
      'financial statement',
      'rating',
      'ranked',
      'charity watch',
      'forbes',
      'legit',
      'trustworth',
    ],
    impact: [
      'difference',
      'every dollar',
      'each dollar',
      'provides',
      'feed',
      'vaccin',
      'school supplies',
      'help a child',
      'even a little',
      'goes a long way',
    ],
    cost: [
      'only',
      'just a little',
      'from your payment',
      'task payment',
      'bonus',
      'cents',
      "won't cost",
      'any amount',
      'small part',
      'deducted',
      // Dev-split persuaders answering "I need the money" most often point to how small the gift can be.
      'small amount',
    ],
    need: [
      'children',
      'poverty',
      'hunger',
      'war',
      'suffer',
      'lack',
      'millions of',
      'refugee',
      'malnutrition',
      // Words far more frequent in the dev split's emotion appeals (er_label_1 emotion-appeal) than in the
      // persuaders' other sentences, which the list above missed: the singular and the everyday word for the
      // children, and the harm done to them.
      'child',
      'kids',
      'violence',
      'killed',
      'injured',
      'die',
    ],
    rapport: [
      'how are you',
      'thank',
      'appreciate',
      'i understand',
      'fair enough',
      'nice to',
      'good to hear',
      'i get it',
    ],
    donate: ['donate', 'donation', 'contribute', 'give some', 'how much', 'pledge', 'chip in'],
  },
  horizon: 30,
  ppdppHorizon: 10,
};

/**
 * Terminal utility of P4G under the CSTPO protocol: 1 if committed and not withdrawn, else 0.
 */
export function p4gUtility(committed: boolean, withdrawn: boolean): number {
  return committed && !withdrawn ? 1 : 0;
}
