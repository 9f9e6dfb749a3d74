/**
 * ESConv's prompt fragments: the conversation's setting (LLM simulator, actor and judge prompts), MI-Prompt's
 * instruction per strategy label (Chen et al., 2023; written for this project after the paper's idea, its tables 14
 * and 16 are not reproduced), and the template ARG actor's strategy per polarity and the needs its reverse predictor
 * names.
 */
import type { TaskDefinition } from '../types';

export const ESCONV_PROMPTS: TaskDefinition['prompts'] = {
  setting: 'an emotional-support conversation: a help-seeker in distress talks with a supporter',
  expert: 'an experienced counsellor',
  userQuit: 'You do not want to talk any more and end the conversation.',
  userEnd: 'You feel better, thank them, say the step you will take, and end the conversation.',
  miInstructions: {
    Question: 'Ask an open question that helps the person say more about what is going on.',
    'Restatement or Paraphrasing':
      'Say back in your own words what the person told you, so they know you followed.',
    'Reflection of feelings':
      'Name the feeling you hear behind their words and show that it is understandable.',
    'Self-disclosure': 'Briefly share a similar experience of your own that shows you understand.',
    'Affirmation and Reassurance': 'Affirm their strengths and reassure them that things can get better.',
    'Providing Suggestions': 'Offer one concrete, small step they could take, phrased as an option.',
    Information: 'Give useful, accurate information related to their situation.',
    Others: 'Respond naturally with a short supportive remark.',
  },
  argStrategy: {
    negative: 'Reflection of feelings',
    neutral: 'Providing Suggestions',
    positive: 'Affirmation and Reassurance',
  },
  argNeeds: (t) => [`Feel heard about the ${t}`, `Find one small step about the ${t}`],
};
