/**
 * Authored default seeds for PersuasionForGood: persuadees written for this project (not taken from the
 * dataset), varied in disposition, donation barriers and processing tendencies.
 */
import { buildP4gSeed, type P4gSeedSpec } from '../builders';
import type { Seed } from '../seed';
import { prefix } from '../defaults/turns';

const LA = 'Logical appeal';
const EA = 'Emotion appeal';
const CA = 'Credibility appeal';
const FD = 'Foot in the door';
const SM = 'Self-modeling';
const PST = 'Personal story';
const DI = 'Donation information';
const SI = 'Source-related inquiry';
const TI = 'Task-related inquiry';
const PI = 'Personal-related inquiry';
const PD = 'Proposition of donation';
const GR = 'Greeting';

const SPECS: Omit<P4gSeedSpec, 'source'>[] = [
  {
    id: 'p4g-default:01',
    randomSeed: 2636212142,
    persona: 'A retired accountant who reads charity financial reports before giving anything.',
    barriers: ['trust'],
    disposition: 0.1,
    concerns: ['overhead costs', 'annual reports'],
    tendencies: { eta_R: 0.8, tau_A: 0.3, tau_R: 0.65 },
    prefix: prefix(
      [GR, 'Hi there! How is your day going?'],
      'Fine, thanks. What is this task about?',
      [SI, "We are chatting about a children's charity today. Does the name Save the Children ring a bell?"],
      'Vaguely. A lot of big charities spend most of what they get on salaries, though.',
    ),
    referenceStrategies: [CA, DI, LA, CA, FD, PD, GR],
  },
  {
    id: 'p4g-default:02',
    randomSeed: 3451990757,
    persona: 'A part-time barista saving for tuition who counts every dollar.',
    barriers: ['cost'],
    disposition: 0.2,
    concerns: ['tuition', 'rent'],
    tendencies: { eta_R: 0.55, tau_A: 0.35, tau_R: 0.7 },
    prefix: prefix(
      [GR, 'Hello! Nice to meet you.'],
      'Hey, nice to meet you too.',
      [PI, 'Do you ever give to causes you care about?'],
      'Sometimes, when I can. Money is pretty tight for me right now with school.',
    ),
    referenceStrategies: [EA, DI, FD, LA, PD, SM, GR],
  },
  {
    id: 'p4g-default:03',
    randomSeed: 3054220902,
    persona: 'A nurse who already volunteers and is eager to help children.',
    barriers: [],
    disposition: 0.8,
    concerns: ['children', 'volunteering'],
    tendencies: { eta_R: 0.5, tau_A: 0.4, tau_R: 0.78 },
    prefix: prefix(
      [GR, 'Hi! How are you today?'],
      'Great, just got off a night shift. What are we talking about?',
      [TI, 'A charity that helps kids in crisis zones. Do you think small donations can help?'],
      'Absolutely, I see every day how much a little help means to families.',
    ),
    referenceStrategies: [EA, DI, CA, PD, SM, GR],
  },
  {
    id: 'p4g-default:04',
    randomSeed: 2006562002,
    persona: 'A logistics analyst who doubts that a few cents can matter for a global problem.',
    barriers: ['impact'],
    disposition: -0.2,
    concerns: ['scale of the problem', 'measurable results'],
    tendencies: { eta_R: 0.75, tau_A: 0.32, tau_R: 0.68 },
    prefix: prefix(
      [GR, 'Hey, how are things?'],
      'Good. Let us get this done.',
      [SI, 'Sure! Have you come across Save the Children and their programs?'],
      'I have heard the name. Honestly the problems are so big that a small gift seems pointless.',
    ),
    referenceStrategies: [LA, DI, CA, LA, FD, PD, PD],
  },
  {
    id: 'p4g-default:05',
    randomSeed: 438546883,
    persona: 'A freelance designer wary of charities after a donation scam hit her family.',
    barriers: ['trust', 'cost'],
    disposition: -0.5,
    concerns: ['scams', 'irregular income'],
    tendencies: { eta_R: 0.65, tau_A: 0.28, tau_R: 0.6 },
    prefix: prefix(
      [GR, 'Hi, hope you are having a good day!'],
      'It is okay. Busy week.',
      [PI, 'I hear you. Have you ever donated to a charity online?'],
      'Once, and it turned out to be a scam. My income is also unpredictable, so I am careful now.',
    ),
    referenceStrategies: [CA, DI, CA, FD, PST, LA, PD, GR],
  },
  {
    id: 'p4g-default:06',
    randomSeed: 7431458,
    persona: 'A father of three who likes to give but worries about the family budget.',
    barriers: ['cost'],
    disposition: 0.5,
    concerns: ['three kids', 'groceries'],
    prefix: prefix(
      [GR, 'Good evening! How are you doing?'],
      'Tired but good. Kids are finally asleep.',
      [PI, 'Ha, I bet. How many do you have?'],
      'Three, all under ten. They keep us busy and keep the bank account thin.',
    ),
    referenceStrategies: [EA, PST, DI, FD, PD, SM, GR],
  },
  {
    id: 'p4g-default:07',
    randomSeed: 4233982028,
    persona: 'A philosophy student sceptical of both the charity and the impact of aid.',
    barriers: ['trust', 'impact'],
    disposition: -0.4,
    concerns: ['aid dependency', 'evidence'],
    tendencies: { eta_R: 0.85, tau_A: 0.3, tau_R: 0.62 },
    prefix: prefix(
      [GR, 'Hello! How is it going?'],
      'Fine. I assume you want me to donate something.',
      [TI, 'I would like to tell you about a charity first. What do you think about international aid?'],
      'I have read that aid often does not reach the people it is meant for. I am not convinced it works.',
    ),
    referenceStrategies: [CA, LA, DI, LA, CA, FD, PD, PD],
  },
  {
    id: 'p4g-default:08',
    randomSeed: 422836935,
    persona: 'A friendly retiree who gives to local causes and has never heard of the charity.',
    barriers: [],
    disposition: 0.4,
    concerns: ['local food bank', 'grandchildren'],
    tendencies: { eta_R: 0.45, tau_A: 0.38, tau_R: 0.75 },
    prefix: prefix(
      [GR, 'Hi, nice to chat with you!'],
      'Hello dear, nice to chat with you too.',
      [SI, 'Has anyone ever told you about Save the Children and its work?'],
      'I do not think so. I usually give to the food bank in my town.',
    ),
    referenceStrategies: [DI, EA, CA, PD, SM, GR],
  },
  {
    id: 'p4g-default:09',
    randomSeed: 1832788232,
    persona: 'A gig worker who finds the payment too small to share and doubts it matters.',
    barriers: ['cost', 'impact'],
    disposition: -0.7,
    concerns: ['gig income', 'small amounts'],
    tendencies: { eta_R: 0.55, tau_A: 0.3, tau_R: 0.64 },
    prefix: prefix(
      [GR, 'Hey! How are you?'],
      'Okay. Trying to finish a few tasks before dinner.',
      [TI, 'Same here. Would you consider giving part of this task payment to a charity?'],
      'Not really. It is only a couple of dollars and I need it more than a big charity does.',
    ),
    referenceStrategies: [LA, EA, DI, FD, PST, PD, GR],
  },
  {
    id: 'p4g-default:10',
    randomSeed: 4020358519,
    persona: 'A high-school teacher moved by stories about children but short on money this month.',
    barriers: ['cost'],
    disposition: 0.3,
    concerns: ['car repair', 'students'],
    tendencies: { eta_R: 0.4, tau_A: 0.36, tau_R: 0.72 },
    prefix: prefix(
      [GR, 'Hi! How has your week been?'],
      'Long. My car broke down on Monday.',
      [PI, 'Oh no, sorry to hear that. Are you working with kids by any chance?'],
      'Yes, I teach tenth grade. Why do you ask?',
    ),
    referenceStrategies: [EA, PST, DI, FD, PD, SM, GR],
  },
  {
    id: 'p4g-default:11',
    randomSeed: 4173123227,
    persona: 'An engineer who trusts data and wants to know exactly what a dollar buys.',
    barriers: ['impact'],
    disposition: 0.1,
    concerns: ['cost per outcome', 'transparency'],
    tendencies: { eta_R: 0.85, tau_A: 0.34, tau_R: 0.7 },
    prefix: prefix(
      [GR, 'Hello, how are you?'],
      'Good. What is the charity you are supposed to tell me about?',
      [CA, 'It is Save the Children, which has worked in dozens of countries for about a century.'],
      'Okay, but what does a dollar actually do there? I like numbers.',
    ),
    referenceStrategies: [DI, LA, CA, DI, FD, PD, GR],
  },
  {
    id: 'p4g-default:12',
    randomSeed: 4105960894,
    persona: 'A busy sales manager who gives only to causes friends recommend.',
    barriers: ['trust'],
    disposition: 0,
    concerns: ['recommendations', 'time'],
    prefix: prefix(
      [GR, 'Hi! Thanks for joining.'],
      'Sure. I have a few minutes.',
      [SI, 'Does the name Save the Children mean anything to you?'],
      'Not much. I usually only give when a friend vouches for the cause.',
    ),
    referenceStrategies: [CA, SM, DI, EA, FD, PD, GR],
  },
  {
    id: 'p4g-default:13',
    randomSeed: 293670033,
    persona: 'A pharmacy student with all three worries: money, trust and whether it helps.',
    barriers: ['trust', 'impact', 'cost'],
    disposition: -0.8,
    concerns: ['student loans', 'charity scandals'],
    tendencies: { eta_R: 0.6, tau_A: 0.26, tau_R: 0.6 },
    prefix: prefix(
      [GR, 'Hello there! How are you?'],
      'Hi. Stressed, exams next week.',
      [TI, 'Good luck! Quick question: how do you feel about donating to charities?'],
      'I would rather not. I have loans, I do not trust where the money goes, and it probably changes nothing.',
    ),
    referenceStrategies: [EA, CA, LA, DI, FD, PST, PD, PD, GR],
  },
  {
    id: 'p4g-default:14',
    randomSeed: 3648839869,
    persona: 'A new mother who tears up at news about children and wants to help.',
    barriers: [],
    disposition: 0.6,
    concerns: ['newborn', 'news about children'],
    tendencies: { eta_R: 0.35, tau_A: 0.4, tau_R: 0.76 },
    prefix: prefix(
      [GR, 'Hi! How are you doing today?'],
      'Sleepy, I have a two month old.',
      [PI, 'Congratulations! Does being a parent change how you think about other kids?'],
      'So much. Every story about children in danger hits me harder now.',
    ),
    referenceStrategies: [EA, DI, PD, CA, SM, GR],
  },
  {
    id: 'p4g-default:15',
    randomSeed: 3610576414,
    persona: 'A small-business owner who prefers to help people nearby rather than abroad.',
    barriers: ['impact'],
    disposition: -0.1,
    concerns: ['local community', 'my shop'],
    tendencies: { eta_R: 0.6, tau_A: 0.33, tau_R: 0.68 },
    prefix: prefix(
      [GR, 'Hey there, how is business?'],
      'Slow season, but we manage.',
      [TI, 'Glad you are managing. Would you be open to hearing about a charity for children abroad?'],
      'I can listen, but I think charity should start at home, in my own town.',
    ),
    referenceStrategies: [EA, LA, DI, CA, FD, PD, GR],
  },
];

/** The authored PersuasionForGood seeds (source `authored`). */
export const P4G_DEFAULT_SEEDS: Seed[] = SPECS.map((spec) => buildP4gSeed({ ...spec, source: 'authored' }));
