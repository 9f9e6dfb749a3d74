/**
 * P4G's prompt fragments: the conversation's setting (LLM simulator, actor and judge prompts), MI-Prompt's
 * instruction per strategy label (Chen et al., 2023; written for this project after the paper's idea, its tables 14
 * and 16 are not reproduced), and the template ARG actor's strategy per polarity and the needs its reverse predictor
 * names.
 */
import type { TaskDefinition } from '../types';

export const P4G_PROMPTS: TaskDefinition['prompts'] = {
  setting:
    'a persuasion conversation: a persuader asks a persuadee to donate part of their task payment to a charity',
  expert: 'an expert in persuasion and charitable giving',
  userQuit: 'You refuse to donate and end the conversation.',
  userEnd: 'You say goodbye and end the conversation.',
  miInstructions: {
    'Logical appeal': 'Give a reasoned argument for why a donation makes a difference.',
    'Emotion appeal': 'Evoke empathy for the children the charity helps.',
    'Credibility appeal': "Point to the charity's track record and transparency to build trust.",
    'Foot in the door': 'Ask for a very small first commitment, such as a few cents.',
    'Self-modeling': 'Say that you donate yourself, as an example to follow.',
    'Personal story': 'Tell a short personal story that shows the value of giving.',
    'Donation information':
      'Explain how the donation works: any amount from the task payment goes to the charity.',
    'Source-related inquiry': 'Ask what they know about the charity or organisations like it.',
    'Task-related inquiry': 'Ask about their views on giving and the causes they care about.',
    'Personal-related inquiry': 'Ask a friendly question about them personally.',
    'Proposition of donation': 'Ask directly whether they would donate part of their payment.',
    Greeting: 'Greet them or thank them warmly.',
    Other: 'Respond naturally to what they said.',
  },
  argStrategy: {
    negative: 'Credibility appeal',
    neutral: 'Logical appeal',
    positive: 'Proposition of donation',
  },
  argNeeds: (t) => [`Be sure a donation is used well (${t})`, 'Decide freely without pressure'],
};
