/**
 * EmoLLM setting `iclr` (academic peer review, ICLR-review-like), seeds 21–40: authors and reviewers facing
 * the review process. Written for this project; no dataset text.
 */
import { seedWriter } from './emollm-author';

const s = seedWriter('iclr');

export const EMOLLM_ICLR_SEEDS_2 = [
  s(
    21,
    'anxiety',
    0.5,
    [-0.4, -0.2, -0.3, 0.2],
    [
      'You are a steady research mentor helping a first-time reviewer worried about their own review.',
      'I am reviewing for the first time and I think a paper has a serious flaw, but the authors are famous. What if I am wrong?',
      'A third-year PhD student invited to review four papers.',
    ],
    ['write a fair, confident review', 'raise the flaw the right way'],
    ['flaw', 'review'],
    [
      ['It is their first time reviewing.', 'first time', 'experienced reviewer|tenth year'],
      ['They were invited to review four papers.', 'four papers', 'one paper|ten papers'],
    ],
  ),
  s(
    22,
    'frustration',
    0.6,
    [-0.5, -0.2, -0.3, 0.2],
    [
      'You are a supportive research mentor helping an author whose reviewer wants a different problem solved.',
      'The reviewer says our paper should have studied multilingual models instead. We study English code generation.',
      'A research engineer on a small open-source team.',
    ],
    ['keep the paper’s scope', 'answer without sounding dismissive'],
    ['scope', 'reviewer'],
    [
      ['The paper studies English code generation.', 'code generation|english', 'multilingual translation'],
      ['The reviewer wanted multilingual models.', 'multilingual', 'smaller models'],
    ],
  ),
  s(
    23,
    'sadness',
    0.6,
    [-0.6, -0.3, -0.5, 0.3],
    [
      'You are a compassionate research mentor talking with an author whose co-author withdrew support.',
      'Right after the bad reviews, my co-author asked to take his name off the paper. I feel abandoned.',
      'A PhD student whose co-author is a senior student who has just graduated.',
    ],
    ['decide how to continue the paper', 'not feel abandoned'],
    ['co-author', 'reviews'],
    [
      ['The co-author asked to remove his name.', 'take his name off|remove', 'added more authors'],
      ['The co-author has just graduated.', 'graduated', 'still a first-year|professor'],
    ],
  ),
  s(
    24,
    'anger',
    0.7,
    [-0.7, -0.3, -0.3, 0.1],
    [
      'You are a level-headed research mentor helping an author who got a rude review.',
      'The review calls our work "amateurish" and says we "should take an introductory course". Score 1.',
      'A junior lecturer at a teaching-focused university working on sparse attention.',
    ],
    ['respond professionally', 'report the tone to the area chair'],
    ['review', 'tone'],
    [
      ['The review scored 1 and called the work amateurish.', 'score 1|amateurish', 'score 6|polite'],
      ['The paper is on sparse attention.', 'sparse attention|attention', 'gradient boosting|clustering'],
    ],
  ),
  s(
    25,
    'anxiety',
    0.7,
    [-0.6, -0.4, -0.5, 0.3],
    [
      'You are a calm research mentor helping an author whose results do not reproduce.',
      'A reviewer could not reproduce our numbers with our released code. I reran it and get 2 points lower too.',
      'A PhD student whose original experiments ran on a machine that has since been wiped.',
    ],
    ['explain the gap honestly', 'fix the release'],
    ['released code', 'numbers'],
    [
      ['The rerun is 2 points lower.', '2 points|two points', 'identical|10 points'],
      ['The original machine was wiped.', 'wiped|original machine', 'still has the logs'],
    ],
  ),
  s(
    26,
    'frustration',
    0.5,
    [-0.4, -0.1, -0.2, 0.2],
    [
      'You are a patient research mentor helping an author write a response for a borderline paper.',
      'Scores are 6, 6, 5, 5. Everyone is lukewarm. Nobody asked anything specific. How do I even move them?',
      'A second-year PhD student with a paper on continual learning.',
    ],
    ['move at least one reviewer', 'use the response well'],
    ['scores', 'response'],
    [
      ['Scores are 6, 6, 5, 5.', '6, 6|6, 6, 5, 5', '8, 8|3, 3'],
      ['The paper is on continual learning.', 'continual learning', 'meta-learning|federated'],
    ],
  ),
  s(
    27,
    'anxiety',
    0.6,
    [-0.5, -0.3, -0.4, 0.3],
    [
      'You are a reassuring research mentor helping an author who broke anonymity by accident.',
      'I just noticed our GitHub link in the paper shows my username. Will they desk-reject us?',
      'A master’s student submitting her first paper on tabular data.',
    ],
    ['handle the anonymity slip correctly', 'not panic'],
    ['github link', 'anonymity'],
    [
      [
        'The link shows her GitHub username.',
        'github|username',
        'her full name in the title|university logo',
      ],
      ['The paper is on tabular data.', 'tabular', 'images|audio'],
    ],
  ),
  s(
    28,
    'sadness',
    0.5,
    [-0.5, -0.2, -0.4, 0.2],
    [
      'You are a kind research mentor talking with an author whose paper was accepted as a poster, not an oral.',
      'We got accepted, but as a poster. My advisor said it should have been an oral and seems disappointed in me.',
      'A third-year PhD student working on diffusion models.',
    ],
    ['enjoy the acceptance', 'talk with the advisor'],
    ['poster', 'advisor'],
    [
      ['The paper was accepted as a poster.', 'poster|accepted', 'rejected|an oral'],
      ['The paper is on diffusion models.', 'diffusion', 'gans|transformers for text'],
    ],
  ),
  s(
    29,
    'frustration',
    0.7,
    [-0.6, -0.3, -0.4, 0.1],
    [
      'You are a supportive research mentor helping an author whose reviewer wants a missing baseline.',
      'The reviewer says we must compare to a method whose code was never released. I emailed the authors twice.',
      'A PhD student working on point cloud segmentation.',
    ],
    ['answer the baseline request convincingly', 'show good faith'],
    ['baseline', 'code'],
    [
      ['The baseline code was never released.', 'never released|no code', 'code is on github'],
      ['He emailed the authors twice.', 'emailed|twice', 'never asked|once'],
    ],
  ),
  s(
    30,
    'anxiety',
    0.5,
    [-0.4, -0.2, -0.3, 0.1],
    [
      'You are a calm research mentor helping an author facing a question about limitations.',
      'A reviewer asks what happens when our method fails. I am afraid listing failures will sink the paper.',
      'A postdoc working on medical image segmentation.',
    ],
    ['write an honest limitations answer', 'keep the paper strong'],
    ['limitations', 'failures'],
    [
      ['The reviewer asked about failure cases.', 'fail|limitation', 'asked about funding'],
      ['The work is medical image segmentation.', 'medical image|segmentation', 'speech|recommendation'],
    ],
  ),
  s(
    31,
    'anger',
    0.6,
    [-0.6, -0.2, -0.3, 0],
    [
      'You are a level-headed research mentor helping an author whose area chair overruled positive reviews.',
      'Three reviewers recommended accept, 8, 7, 7, and the area chair rejected it anyway citing "concerns".',
      'An associate professor submitting on behalf of her student.',
    ],
    ['understand the decision', 'decide whether to appeal or resubmit'],
    ['area chair', 'decision'],
    [
      ['Scores were 8, 7 and 7.', '8, 7|8, 7, 7', '3, 4|5, 5'],
      ['The area chair rejected the paper.', 'area chair|rejected', 'accepted|program chair accepted'],
    ],
  ),
  s(
    32,
    'frustration',
    0.4,
    [-0.3, -0.1, -0.2, 0.2],
    [
      'You are a patient research mentor helping an author who must add a related-work section.',
      'Two reviewers say we missed a whole line of work on kernel methods. I have never even read those papers.',
      'A first-year PhD student from a physics background.',
    ],
    ['cover the missed literature', 'learn the area quickly'],
    ['related work', 'kernel methods'],
    [
      [
        'Two reviewers flagged missing work on kernel methods.',
        'kernel|two reviewers',
        'bayesian optimisation|one reviewer',
      ],
      ['The author comes from physics.', 'physics', 'computer science background|biology'],
    ],
  ),
  s(
    33,
    'anxiety',
    0.8,
    [-0.7, -0.5, -0.6, 0.2],
    [
      'You are a calm research mentor helping a student whose visa depends on a publication.',
      'My scores are 5, 4, 4. My visa extension needs a published paper by March. I feel sick.',
      'An international PhD student on a funded scholarship.',
    ],
    ['have a realistic publication plan', 'stop catastrophising'],
    ['visa', 'scores'],
    [
      ['Scores are 5, 4, 4.', '5, 4|5, 4, 4', '8, 8|2, 2'],
      ['The visa extension needs a publication by March.', 'march|visa', 'june|no deadline'],
    ],
  ),
  s(
    34,
    'sadness',
    0.4,
    [-0.4, -0.1, -0.3, 0.2],
    [
      'You are a kind research mentor talking with an author tired of the review lottery.',
      'Same paper: 8, 8, 6 at one venue last year, then 3, 4, 5 here. I do not believe in reviewing anymore.',
      'A postdoc applying for faculty jobs this year.',
    ],
    ['decide where to send the paper', 'keep perspective for the job search'],
    ['reviews', 'job search'],
    [
      ['Last year the scores were 8, 8, 6; now 3, 4, 5.', '8, 8, 6|3, 4, 5', 'same scores both times'],
      ['The author is applying for faculty jobs.', 'faculty|job', 'industry job|retiring'],
    ],
  ),
  s(
    35,
    'frustration',
    0.6,
    [-0.5, -0.3, -0.3, 0.2],
    [
      'You are a supportive research mentor helping an author answer statistical criticism.',
      'A reviewer says our improvements are within noise because we only report a single seed. Runs take two days each.',
      'A PhD student working on large-scale pretraining with limited compute.',
    ],
    ['show the result is robust', 'plan runs that fit the time left'],
    ['seeds', 'runs'],
    [
      ['Results use a single seed.', 'single seed|one seed', 'five seeds|ten seeds'],
      ['Each run takes two days.', 'two days', 'two hours|two weeks'],
    ],
  ),
  s(
    36,
    'anxiety',
    0.6,
    [-0.5, -0.3, -0.4, 0.1],
    [
      'You are a reassuring research mentor helping an author asked to discuss a dual submission.',
      'The area chair asks if our paper overlaps with our own workshop paper from June. It is an early version.',
      'A PhD student unsure what counts as prior publication.',
    ],
    ['answer the dual-submission question clearly', 'avoid a desk rejection'],
    ['workshop paper', 'overlap'],
    [
      ['The workshop paper is from June.', 'june|workshop', 'december|journal article'],
      ['The workshop paper is an early version.', 'early version', 'identical copy'],
    ],
  ),
  s(
    37,
    'frustration',
    0.5,
    [-0.4, -0.2, -0.3, 0.3],
    [
      'You are a patient research mentor helping an author who cannot explain their method simply.',
      'Every reviewer summarised our method wrongly, each in a different way. Clearly the introduction fails.',
      'A PhD student with a paper on neural architecture search.',
    ],
    ['rewrite the introduction', 'correct the misreadings in the response'],
    ['introduction', 'method'],
    [
      ['Every reviewer misread the method.', 'every reviewer|misread|wrongly', 'one reviewer'],
      ['The paper is on neural architecture search.', 'architecture search', 'data pruning|speech'],
    ],
  ),
  s(
    38,
    'anger',
    0.5,
    [-0.5, -0.1, -0.2, 0],
    [
      'You are a level-headed research mentor helping a reviewer whose review was dismissed by the authors.',
      'I wrote a careful review and the authors’ response calls me "clearly unfamiliar with the field". I have worked on it ten years.',
      'A senior researcher who reviews for several venues each year.',
    ],
    ['respond in the discussion calmly', 'judge the paper fairly despite the tone'],
    ['authors’ response', 'discussion'],
    [
      [
        'The author response called the reviewer unfamiliar with the field.',
        'unfamiliar|response',
        'thanked you|agreed',
      ],
      ['The reviewer has ten years in the field.', 'ten years', 'first year|two years'],
    ],
  ),
  s(
    39,
    'anxiety',
    0.5,
    [-0.4, -0.2, -0.3, 0.2],
    [
      'You are a calm research mentor helping an author preparing a camera-ready version.',
      'We got in, but we promised the reviewers three new experiments and the camera-ready is due in five days.',
      'A master’s student whose first paper was accepted.',
    ],
    ['keep the promises made', 'finish on time'],
    ['camera-ready', 'experiments'],
    [
      ['Three new experiments were promised.', 'three|experiments', 'one experiment|no promises'],
      ['The camera-ready is due in five days.', 'five days|5 days', 'five weeks|tomorrow'],
    ],
  ),
  s(
    40,
    'sadness',
    0.6,
    [-0.6, -0.3, -0.5, 0.4],
    [
      'You are a compassionate research mentor talking with an author who thinks about quitting the PhD.',
      'Another 3 from a reviewer who says the problem "does not matter". Maybe my whole thesis topic does not matter.',
      'A fourth-year PhD student working on low-resource speech translation.',
    ],
    ['see the worth of the topic', 'decide the next step calmly'],
    ['thesis', 'reviewer'],
    [
      [
        'The reviewer gave a 3 and said the problem does not matter.',
        'a 3|does not matter',
        'a 7|important problem',
      ],
      [
        'The topic is low-resource speech translation.',
        'low-resource|speech translation',
        'image generation|chess',
      ],
      ['The author is in the fourth year.', 'fourth year', 'first year|final month'],
    ],
  ),
];
