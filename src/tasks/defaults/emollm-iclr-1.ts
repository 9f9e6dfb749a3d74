/**
 * EmoLLM setting `iclr` (academic peer review, ICLR-review-like), seeds 1–20: authors facing their reviews.
 * Written for this project; no dataset text.
 */
import { seedWriter } from './emollm-author';

const s = seedWriter('iclr');

export const EMOLLM_ICLR_SEEDS_1 = [
  s(
    1,
    'frustration',
    0.7,
    [-0.6, -0.3, -0.4, 0.2],
    [
      'You are a supportive research mentor helping an author respond to a harsh review.',
      'Reviewer 2 gave us a 3 and says our method is "trivially incremental" but clearly did not read Section 4.',
      'A second-year PhD student submitting a graph neural network paper, her first main-conference submission.',
    ],
    ['write a calm, convincing rebuttal', 'not take the review personally'],
    ['reviewer 2', 'section 4'],
    [
      ['Reviewer 2 gave a score of 3.', 'score of 3|a 3|reviewer 2', 'a 1|score of 5|reviewer 3'],
      [
        'The paper is about graph neural networks.',
        'graph neural|gnn',
        'transformers|reinforcement learning',
      ],
      ['The overlooked material is in Section 4.', 'section 4', 'appendix b|section 2'],
    ],
  ),
  s(
    2,
    'anxiety',
    0.6,
    [-0.5, -0.3, -0.5, 0.3],
    [
      'You are a calm research mentor helping an author plan extra experiments during the rebuttal.',
      'Two reviewers want results on ImageNet and we only ran CIFAR-10. The rebuttal closes in six days and we have four GPUs.',
      'A postdoc in a small lab working on data augmentation.',
    ],
    ['decide which experiments are feasible', 'answer the reviewers honestly'],
    ['imagenet', 'gpus'],
    [
      [
        'Reviewers asked for ImageNet results; only CIFAR-10 was run.',
        'imagenet|cifar-10',
        'mnist|already ran imagenet',
      ],
      ['The rebuttal closes in six days.', 'six days|6 days', 'six weeks|tomorrow'],
      ['The lab has four GPUs.', 'four gpus|4 gpus', 'forty gpus|a cluster'],
    ],
  ),
  s(
    3,
    'sadness',
    0.7,
    [-0.7, -0.4, -0.6, 0.4],
    [
      'You are a compassionate research mentor talking with an author whose paper was rejected a third time.',
      'Rejected again, third time for the same paper. Scores 5, 5, 4. I am starting to think I am not cut out for research.',
      'A final-year PhD student whose funding ends in eight months.',
    ],
    ['decide what to do with the paper', 'regain some confidence'],
    ['rejection', 'funding'],
    [
      ['This is the third rejection.', 'third|three times', 'first rejection|second'],
      ['Scores were 5, 5 and 4.', '5, 5|5, 5, 4', '3, 3|6, 6'],
      ['Funding ends in eight months.', 'eight months|8 months', 'eight weeks|two years'],
    ],
  ),
  s(
    4,
    'anger',
    0.8,
    [-0.7, -0.2, -0.4, 0],
    [
      'You are a level-headed research mentor helping an author who suspects a reviewer conflict.',
      'One reviewer demands we cite four papers from the same group, and that group just posted a competing preprint.',
      'An assistant professor working on efficient language model fine-tuning.',
    ],
    ['handle the suspected conflict properly', 'keep the rebuttal professional'],
    ['citations', 'preprint'],
    [
      [
        'The reviewer asks for four citations from one group.',
        'four papers|four citations|cite',
        'one paper|no citations',
      ],
      ['The group posted a competing preprint.', 'preprint|competing', 'published at neurips'],
      [
        'The topic is efficient fine-tuning of language models.',
        'fine-tuning|language model',
        'computer vision|robotics',
      ],
    ],
  ),
  s(
    5,
    'anxiety',
    0.5,
    [-0.4, -0.2, -0.3, 0.2],
    [
      'You are a steady research mentor helping a first-time author read their reviews.',
      'Our scores are 6, 5, 3 and I do not understand what a 6 means. Is the paper dead?',
      'A master’s student whose supervisor is on parental leave.',
    ],
    ['understand where the paper stands', 'know what to prioritise in the response'],
    ['scores', 'supervisor'],
    [
      ['Scores are 6, 5 and 3.', '6, 5|6, 5, 3', '8, 8|3, 3'],
      ['The supervisor is on parental leave.', 'parental leave|supervisor', 'sabbatical|left the university'],
    ],
  ),
  s(
    6,
    'frustration',
    0.6,
    [-0.5, -0.2, -0.3, 0.3],
    [
      'You are a supportive research mentor helping an author whose reviewer misread a table.',
      'Reviewer 1 says our model is worse than the baseline, but they read the error column as accuracy in Table 2.',
      'A third-year PhD student working on speech recognition.',
    ],
    ['correct the misunderstanding politely', 'make Table 2 clearer'],
    ['table 2', 'reviewer 1'],
    [
      ['The misread table is Table 2.', 'table 2', 'table 5|figure 3'],
      ['The column shows error, not accuracy.', 'error|word error', 'accuracy column'],
      ['The paper is on speech recognition.', 'speech', 'image classification|translation'],
    ],
  ),
  s(
    7,
    'anxiety',
    0.7,
    [-0.6, -0.4, -0.5, 0.6],
    [
      'You are a calm research mentor helping an author who found a bug after submission.',
      'A reviewer asked for our code and I found a bug in the evaluation script. The real gain is 1.2 points, not 3.4.',
      'A first-year PhD student terrified of being seen as dishonest.',
    ],
    ['correct the results honestly', 'keep the reviewers’ trust'],
    ['bug', 'evaluation script'],
    [
      ['The bug is in the evaluation script.', 'evaluation script|bug', 'training code|data loader'],
      ['The corrected gain is 1.2 points instead of 3.4.', '1.2|3.4', 'no gain at all|5 points'],
      [
        'Hiding the error is not acceptable.',
        'correct|disclose|tell the reviewers',
        'do not mention it|keep quiet|nobody will notice',
      ],
    ],
  ),
  s(
    8,
    'frustration',
    0.5,
    [-0.4, -0.2, -0.3, 0.2],
    [
      'You are a patient research mentor helping an author squeeze a rebuttal into a length limit.',
      'We have to answer 23 reviewer points and the response box allows 5,000 characters. I have 11,000.',
      'A postdoc coordinating a paper with six co-authors.',
    ],
    ['fit the response in the limit', 'keep the co-authors happy'],
    ['response', 'co-authors'],
    [
      ['There are 23 points to answer.', '23 points|23', '3 points|50 points'],
      ['The limit is 5,000 characters; the draft has 11,000.', '5,000|11,000', '5,000 words|no limit'],
      ['There are six co-authors.', 'six co-authors|co-authors', 'sole author|two authors'],
    ],
  ),
  s(
    9,
    'sadness',
    0.5,
    [-0.5, -0.2, -0.4, 0.3],
    [
      'You are a kind research mentor talking with an author after a discouraging area chair comment.',
      'The area chair wrote that the paper "lacks novelty" in one line after we spent a year on it.',
      'A PhD student whose project on protein structure took a year.',
    ],
    ['understand the comment', 'decide whether to resubmit'],
    ['area chair', 'novelty'],
    [
      [
        'The area chair wrote one line saying it lacks novelty.',
        'area chair|novelty',
        'reviewer 3|lacks clarity',
      ],
      ['The project took a year.', 'a year|one year', 'a month|three years'],
      ['The paper is about protein structure.', 'protein', 'weather forecasting|chess'],
    ],
  ),
  s(
    10,
    'anger',
    0.6,
    [-0.6, -0.2, -0.3, 0],
    [
      'You are a level-headed research mentor helping an author whose reviewer seems to be a language model.',
      'The review is generic, praises things that are not in the paper and mentions a "Section 7" we do not have.',
      'A senior researcher at an industrial lab working on recommender systems.',
    ],
    ['raise the concern with the area chair', 'still answer the valid points'],
    ['review', 'section 7'],
    [
      ['The paper has no Section 7.', 'section 7', 'your section 7 says'],
      ['The paper is on recommender systems.', 'recommender', 'speech recognition|robotics'],
    ],
  ),
  s(
    11,
    'anxiety',
    0.6,
    [-0.5, -0.3, -0.4, 0.2],
    [
      'You are a reassuring research mentor helping an author asked for a theoretical proof.',
      'Reviewer 3 wants a convergence proof for our optimiser. I am an applied person and I do not know where to start.',
      'A data scientist turned PhD student working on optimisers for training.',
    ],
    ['answer the proof request well', 'not overclaim'],
    ['proof', 'reviewer 3'],
    [
      [
        'Reviewer 3 asked for a convergence proof.',
        'reviewer 3|convergence',
        'reviewer 1|generalisation bound',
      ],
      ['The paper proposes an optimiser.', 'optimiser|optimizer', 'dataset|architecture'],
    ],
  ),
  s(
    12,
    'frustration',
    0.7,
    [-0.6, -0.3, -0.4, 0.1],
    [
      'You are a supportive research mentor helping an author with reviewers who disagree with each other.',
      'Reviewer 1 says the paper is too long and dense, Reviewer 2 says it needs more detail. Both gave a 5.',
      'A second-year PhD student writing her first long-format paper on fairness.',
    ],
    ['satisfy both reviewers', 'keep the paper coherent'],
    ['reviewers', 'length'],
    [
      [
        'Reviewer 1 wants it shorter; Reviewer 2 wants more detail.',
        'shorter|more detail',
        'both want it shorter',
      ],
      ['Both scored 5.', 'both gave a 5|5', 'both gave 8|a 3'],
      ['The paper is on fairness.', 'fairness', 'privacy|robustness'],
    ],
  ),
  s(
    13,
    'anxiety',
    0.8,
    [-0.6, -0.5, -0.6, 0.3],
    [
      'You are a calm research mentor helping an author whose rebuttal is due in twelve hours.',
      'The response is due in twelve hours, my co-author is unreachable and I have not started. I cannot think straight.',
      'A PhD student in a time zone nine hours ahead of his co-author.',
    ],
    ['get a solid response in on time', 'calm down enough to work'],
    ['response', 'co-author'],
    [
      ['The response is due in twelve hours.', 'twelve hours|12 hours', 'twelve days|next week'],
      ['The co-author is unreachable.', 'unreachable|co-author', 'co-author is helping'],
    ],
  ),
  s(
    14,
    'sadness',
    0.6,
    [-0.6, -0.3, -0.5, 0.4],
    [
      'You are a compassionate research mentor talking with an author scooped before review.',
      'A paper with almost our exact method went on arXiv yesterday from a big lab. Our submission is under review.',
      'A PhD student in a two-person lab working on video prediction.',
    ],
    ['show the work is concurrent', 'find what still sets it apart'],
    ['arxiv paper', 'method'],
    [
      [
        'The similar paper appeared on arXiv yesterday.',
        'arxiv|yesterday',
        'last year|was published at icml',
      ],
      ['Their own paper is under review.', 'under review', 'rejected|accepted'],
      ['The topic is video prediction.', 'video prediction|video', 'text generation|speech'],
    ],
  ),
  s(
    15,
    'frustration',
    0.4,
    [-0.3, -0.1, -0.2, 0.3],
    [
      'You are a patient research mentor helping an author improve unclear writing flagged by reviewers.',
      'All three reviewers said the notation in Section 3 is confusing. I honestly thought it was clear.',
      'A non-native English speaker in her first year of a PhD on causal inference.',
    ],
    ['make the notation clear', 'feel less embarrassed about the writing'],
    ['notation', 'section 3'],
    [
      [
        'All three reviewers flagged Section 3 notation.',
        'three reviewers|section 3|notation',
        'one reviewer|section 5',
      ],
      ['The paper is on causal inference.', 'causal', 'reinforcement learning|vision'],
    ],
  ),
  s(
    16,
    'anger',
    0.5,
    [-0.5, -0.1, -0.2, 0],
    [
      'You are a level-headed research mentor helping an author whose reviewer asks for an unfair comparison.',
      'A reviewer wants us to beat a model trained on 100 times more data and calls our results "weak" because we do not.',
      'A researcher at a university with a small compute budget.',
    ],
    ['argue for a fair comparison', 'show the contribution clearly'],
    ['comparison', 'compute budget'],
    [
      ['The other model used 100 times more data.', '100 times|more data', 'same data|ten percent more'],
      ['They have a small compute budget.', 'compute budget|small', 'large cluster|unlimited'],
    ],
  ),
  s(
    17,
    'anxiety',
    0.5,
    [-0.4, -0.3, -0.3, 0.2],
    [
      'You are a reassuring research mentor helping an author asked about ethics.',
      'An ethics reviewer flagged our dataset of scraped forum posts and asks about consent. We never thought about it.',
      'A PhD student working on mental health language detection.',
    ],
    ['answer the ethics concern properly', 'fix the data handling'],
    ['dataset', 'consent'],
    [
      ['The dataset is scraped forum posts.', 'forum|scraped', 'clinical records|synthetic data'],
      ['An ethics reviewer raised consent.', 'ethics|consent', 'reviewer 2 raised novelty'],
    ],
  ),
  s(
    18,
    'frustration',
    0.6,
    [-0.5, -0.2, -0.3, 0.2],
    [
      'You are a supportive research mentor helping an author whose reviewer ignored the rebuttal.',
      'We answered every point, ran the ablation they wanted, and Reviewer 4 just wrote "I keep my score". No reasons.',
      'A postdoc working on multi-agent reinforcement learning.',
    ],
    ['get the new results seen', 'know whether to message the area chair'],
    ['reviewer 4', 'ablation'],
    [
      [
        'Reviewer 4 kept the score without reasons.',
        'reviewer 4|keep my score',
        'reviewer 1|raised the score',
      ],
      ['They ran the requested ablation.', 'ablation', 'did not run|new dataset'],
    ],
  ),
  s(
    19,
    'sadness',
    0.4,
    [-0.4, -0.1, -0.3, 0.3],
    [
      'You are a kind research mentor talking with an author whose workshop paper was rejected.',
      'Even the workshop rejected it. Two reviewers, both scored it a 2 out of 5. It was my first paper.',
      'An undergraduate doing summer research on interpretability.',
    ],
    ['learn from the reviews', 'keep going with research'],
    ['workshop', 'reviews'],
    [
      [
        'It was a workshop paper with two reviewers.',
        'workshop|two reviewers',
        'main conference|four reviewers',
      ],
      ['Both scored 2 out of 5.', '2 out of 5', '4 out of 5|1 out of 10'],
      ['It was the author’s first paper.', 'first paper', 'tenth paper'],
    ],
  ),
  s(
    20,
    'anxiety',
    0.6,
    [-0.5, -0.3, -0.4, 0.2],
    [
      'You are a calm research mentor helping an author who must cut a key claim.',
      'Reviewers are right that our "state of the art" claim only holds on one of five benchmarks. Do I have to drop it?',
      'A PhD student whose advisor insists on the headline claim.',
    ],
    ['make claims the evidence supports', 'talk to the advisor about it'],
    ['claim', 'benchmarks'],
    [
      ['The claim holds on one of five benchmarks.', 'one of five|benchmark', 'all five|three of five'],
      ['The advisor insists on the claim.', 'advisor', 'co-author|reviewer insists'],
    ],
  ),
];
