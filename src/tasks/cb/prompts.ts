/**
 * CraigslistBargain's prompt fragments: the conversation's setting (LLM simulator, actor and judge prompts), MI-Prompt's
 * instruction per strategy label (Chen et al., 2023; written for this project after the paper's idea, its tables 14
 * and 16 are not reproduced), and the template ARG actor's strategy per polarity and the needs its reverse predictor
 * names.
 */
import type { TaskDefinition } from '../types';

export const CB_PROMPTS: TaskDefinition['prompts'] = {
  setting: 'a price negotiation: a buyer bargains with a seller over an item listed for sale',
  expert: 'an expert negotiator',
  userQuit: 'You walk away from the negotiation.',
  userEnd: 'You say goodbye and end the conversation.',
  miInstructions: {
    'propose price': 'Make a concrete price offer, with a short reason for it.',
    inquire: 'Ask a question about the item: its condition, age or history.',
    inform: 'Share a fact that supports a lower price, such as wear or prices elsewhere.',
    stance: 'State your position on the current price clearly, agreeing if it is acceptable.',
    social: 'Be friendly: greet or thank the seller.',
    other: 'Respond briefly and naturally.',
  },
  argStrategy: { negative: 'inform', neutral: 'propose price', positive: 'propose price' },
  argNeeds: (t) => [`Get a fair price for the item (${t})`, 'Sell it without hassle'],
};
