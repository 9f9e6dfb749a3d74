/**
 * EmoLLM setting `medd` (medical consultation, MedDialog-like), seeds 21–40. Written for this project; no
 * dataset text. The facts are the patient's situation as stated, not medical advice.
 */
import { seedWriter } from './emollm-author';

const s = seedWriter('medd');

export const EMOLLM_MEDD_SEEDS_2 = [
  s(
    21,
    'anxiety',
    0.5,
    [-0.4, -0.2, -0.3, 0.2],
    [
      'You are a reassuring medical consultant talking with someone about a child’s rash.',
      'My son is four and has a red rash on his tummy. It fades when I press a glass on it. He is playing happily.',
      'A mother of two who works nights at a supermarket.',
    ],
    ['know whether to worry', 'know what to watch for'],
    ['rash', 'glass test'],
    [
      ['The boy is four.', 'four|4', 'fourteen|baby'],
      ['The rash fades under a glass.', 'fades|glass', 'does not fade|stays under the glass'],
      ['He is playing happily.', 'playing|happily', 'floppy|drowsy'],
    ],
  ),
  s(
    22,
    'frustration',
    0.6,
    [-0.5, -0.3, -0.3, 0.2],
    [
      'You are a helpful medical consultant talking with someone troubled by tinnitus.',
      'There has been a high whistling in my ears since a gig two weeks ago. It is worst when I try to sleep.',
      'A 22-year-old drummer in a local band who never wears earplugs.',
    ],
    ['make the ringing bearable', 'protect his hearing'],
    ['whistling', 'gig'],
    [
      ['It started after a gig two weeks ago.', 'gig|two weeks', 'two years|ear infection'],
      ['He never wears earplugs.', 'earplugs|ear protection', 'always wears earplugs'],
    ],
  ),
  s(
    23,
    'sadness',
    0.7,
    [-0.6, -0.4, -0.5, 0.2],
    [
      'You are a compassionate medical consultant talking with someone caring for a parent with dementia.',
      'Mum does not recognise me some days now. Yesterday she called the police because she thought I was a stranger.',
      'A 57-year-old daughter who cares for her mother full-time.',
    ],
    ['cope with the caring', 'get support for her mother'],
    ['mum', 'caring'],
    [
      [
        'Her mother has dementia and sometimes does not recognise her.',
        'dementia|recognise',
        'stroke|recognises everyone',
      ],
      ['She cares for her mother full-time.', 'full-time|carer', 'care home|weekends only'],
    ],
  ),
  s(
    24,
    'anxiety',
    0.6,
    [-0.5, -0.3, -0.4, 0.1],
    [
      'You are a careful medical consultant talking with someone stung by a wasp who has an allergy history.',
      'A wasp stung my hand ten minutes ago. Last time my lips swelled up. Right now my hand is just red.',
      'A 40-year-old roofer working alone on a job.',
    ],
    ['know whether to get help now', 'be safe at work'],
    ['sting', 'lips'],
    [
      ['He was stung on the hand ten minutes ago.', 'hand|ten minutes', 'face|yesterday'],
      ['Last time his lips swelled.', 'lips|swelled|last time', 'never reacted'],
      [
        'Signs of a severe reaction need emergency help.',
        'emergency|999|ambulance',
        'it is nothing|just ice it and carry on',
      ],
    ],
  ),
  s(
    25,
    'frustration',
    0.5,
    [-0.4, -0.2, -0.3, 0.3],
    [
      'You are a patient medical consultant talking with someone trying to quit smoking.',
      'This is my fifth time trying to quit. I lasted nine days on patches then caved at a party.',
      'A 44-year-old bar manager who smokes twenty a day.',
    ],
    ['quit for good', 'not feel like a failure'],
    ['patches', 'party'],
    [
      ['It is the fifth attempt.', 'fifth|five times', 'first attempt'],
      ['He lasted nine days on patches.', 'nine days|patches', 'nine weeks|vaping'],
    ],
  ),
  s(
    26,
    'anxiety',
    0.7,
    [-0.6, -0.4, -0.5, 0.1],
    [
      'You are a calm medical consultant talking with someone waiting for biopsy results.',
      'They took a biopsy of my thyroid nodule on Monday and said results take two weeks. I am going out of my mind.',
      'A 48-year-old head teacher who hates not being in control.',
    ],
    ['cope with the wait', 'understand what the results could mean'],
    ['biopsy', 'thyroid'],
    [
      ['The biopsy was of a thyroid nodule.', 'thyroid|nodule', 'breast|liver|skin'],
      ['Results take two weeks.', 'two weeks', 'two days|two months'],
    ],
  ),
  s(
    27,
    'frustration',
    0.6,
    [-0.5, -0.3, -0.4, 0.1],
    [
      'You are a helpful medical consultant talking with someone whose antibiotics did not clear an infection.',
      'I finished a week of antibiotics for a urine infection and the burning is back three days later.',
      'A 34-year-old flight attendant who gets these infections often.',
    ],
    ['clear the infection', 'stop it coming back'],
    ['infection', 'antibiotics'],
    [
      ['She finished a week of antibiotics.', 'week|antibiotics', 'three days of|no antibiotics'],
      ['Symptoms came back three days later.', 'three days|back', 'three weeks|never cleared'],
    ],
  ),
  s(
    28,
    'anxiety',
    0.5,
    [-0.4, -0.3, -0.3, 0.2],
    [
      'You are a reassuring medical consultant talking with someone whose child swallowed a button battery.',
      'My three-year-old might have swallowed a small round battery from the TV remote. He seems fine. What do I do?',
      'A father of two working from home.',
    ],
    ['keep his son safe', 'act quickly enough'],
    ['battery', 'son'],
    [
      ['The child is three.', 'three|3', 'thirteen|baby'],
      [
        'A swallowed button battery needs emergency care even if the child seems fine.',
        'emergency|a&e|hospital|999',
        'wait for it to pass|he seems fine so wait|no need to go',
      ],
    ],
  ),
  s(
    29,
    'sadness',
    0.5,
    [-0.5, -0.2, -0.4, 0.3],
    [
      'You are a kind medical consultant talking with someone struggling with weight and knee pain.',
      'My knees ache and the doctor says losing weight would help, but every diet I try I give up in a fortnight.',
      'A 50-year-old call centre team leader who eats at her desk.',
    ],
    ['find a change she can keep', 'ease the knee pain'],
    ['knees', 'diets'],
    [
      ['Diets last about a fortnight.', 'fortnight|two weeks', 'six months|never tried'],
      ['Both knees ache.', 'knees', 'hip|back'],
    ],
  ),
  s(
    30,
    'anxiety',
    0.6,
    [-0.5, -0.3, -0.4, 0.2],
    [
      'You are a careful medical consultant talking with someone with palpitations after energy drinks.',
      'My heart skips and flutters in the evenings. I drink three energy drinks a day to stay awake on shift.',
      'A 28-year-old security guard on twelve-hour night shifts.',
    ],
    ['stop the flutters', 'stay alert at work another way'],
    ['palpitations', 'energy drinks'],
    [
      ['He drinks three energy drinks a day.', 'three|energy drink', 'one coffee|no caffeine'],
      ['He works twelve-hour night shifts.', 'night shift|twelve-hour', 'day job|part-time'],
    ],
  ),
  s(
    31,
    'frustration',
    0.5,
    [-0.4, -0.2, -0.3, 0.1],
    [
      'You are a patient medical consultant talking with someone whose acne is affecting their confidence.',
      'I am 25 and my acne is worse than when I was a teenager. I have tried every face wash in the chemist.',
      'A 25-year-old shop assistant about to start a customer-facing job.',
    ],
    ['clear the skin', 'feel confident at the new job'],
    ['acne', 'face washes'],
    [
      ['She is 25 and the acne is worse than as a teenager.', '25|teenager', '15|getting better'],
      [
        'She has only tried over-the-counter washes.',
        'face wash|chemist',
        'prescription|antibiotics already',
      ],
    ],
  ),
  s(
    32,
    'anxiety',
    0.8,
    [-0.7, -0.5, -0.6, 0.1],
    [
      'You are a calm medical consultant talking with someone whose father seems to be having a stroke.',
      'Dad’s face has dropped on one side and his words are slurred. It started fifteen minutes ago.',
      'A 35-year-old son visiting his 74-year-old father.',
    ],
    ['get his father help immediately', 'know what to do while waiting'],
    ['dad', 'face'],
    [
      [
        'Face drooping and slurred speech began fifteen minutes ago.',
        'face|slurred|fifteen minutes',
        'yesterday|an hour ago',
      ],
      [
        'These are stroke signs that need an ambulance now.',
        '999|ambulance|emergency',
        'wait and see|let him rest|see the gp tomorrow',
      ],
    ],
  ),
  s(
    33,
    'frustration',
    0.4,
    [-0.3, -0.1, -0.2, 0.2],
    [
      'You are a helpful medical consultant talking with someone with recurring mouth ulcers.',
      'I always have two or three mouth ulcers. They sting when I eat. I thought they were from stress.',
      'A 37-year-old software tester who eats a lot of crisps.',
    ],
    ['stop the ulcers coming back', 'eat without pain'],
    ['ulcers', 'stress'],
    [
      ['He always has two or three ulcers.', 'two or three|always', 'one ulcer once'],
      ['He thinks stress causes them.', 'stress', 'you said they are from braces'],
    ],
  ),
  s(
    34,
    'anxiety',
    0.5,
    [-0.4, -0.2, -0.3, 0.2],
    [
      'You are a reassuring medical consultant talking with someone about to have surgery.',
      'I have my gallbladder removed on Thursday. I have never had an anaesthetic and I am scared I will not wake up.',
      'A 42-year-old florist who has never been in hospital.',
    ],
    ['feel calmer about the anaesthetic', 'know what recovery looks like'],
    ['operation', 'anaesthetic'],
    [
      ['The operation is gallbladder removal on Thursday.', 'gallbladder|thursday', 'appendix|hernia|monday'],
      ['She has never had an anaesthetic.', 'never|first anaesthetic', 'had one before'],
    ],
  ),
  s(
    35,
    'sadness',
    0.6,
    [-0.6, -0.3, -0.4, 0.2],
    [
      'You are a compassionate medical consultant talking with someone after a miscarriage.',
      'I lost the pregnancy at nine weeks last Friday. Everyone says it is common but I feel empty.',
      'A 32-year-old primary teacher in her second pregnancy.',
    ],
    ['grieve without being rushed', 'know about trying again'],
    ['pregnancy', 'trying again'],
    [
      ['The miscarriage was at nine weeks last Friday.', 'nine weeks|friday', 'nineteen weeks|last year'],
      ['It was her second pregnancy.', 'second', 'first pregnancy'],
    ],
  ),
  s(
    36,
    'frustration',
    0.6,
    [-0.5, -0.3, -0.3, 0.1],
    [
      'You are a patient medical consultant talking with someone whose asthma is getting worse.',
      'I am using my blue inhaler four or five times a day and I still wheeze at night. The brown one I stopped.',
      'A 19-year-old apprentice bricklayer with asthma since childhood.',
    ],
    ['breathe easily at night', 'keep working on site'],
    ['inhalers', 'wheeze'],
    [
      [
        'He uses the blue reliever four or five times a day.',
        'blue|four or five',
        'once a week|brown inhaler daily',
      ],
      ['He stopped the brown preventer inhaler.', 'brown|stopped|preventer', 'takes the brown one daily'],
    ],
  ),
  s(
    37,
    'anxiety',
    0.4,
    [-0.3, -0.2, -0.3, 0.1],
    [
      'You are a reassuring medical consultant talking with a traveller about vaccines.',
      'I fly to Kenya in ten days for a volunteering trip and just realised I have not had any travel jabs.',
      'A 20-year-old geography student on her first trip outside Europe.',
    ],
    ['be protected in time', 'not cancel the trip'],
    ['vaccines', 'trip'],
    [
      ['She flies to Kenya in ten days.', 'kenya|ten days', 'ghana|ten weeks|tomorrow'],
      ['She has had no travel vaccines yet.', 'no jabs|not had|vaccine', 'already vaccinated'],
    ],
  ),
  s(
    38,
    'frustration',
    0.5,
    [-0.4, -0.2, -0.3, 0.1],
    [
      'You are a helpful medical consultant talking with someone with constant tiredness.',
      'I sleep nine hours and still feel exhausted. My periods are heavy and I get dizzy when I stand up.',
      'A 29-year-old vegetarian social worker.',
    ],
    ['find out why she is tired', 'get her energy back'],
    ['tiredness', 'periods'],
    [
      ['She sleeps nine hours and is still exhausted.', 'nine hours|exhausted', 'four hours|insomnia'],
      [
        'She has heavy periods and is vegetarian.',
        'heavy periods|vegetarian',
        'vegan|light periods|eats meat',
      ],
    ],
  ),
  s(
    39,
    'anxiety',
    0.6,
    [-0.5, -0.3, -0.4, 0.2],
    [
      'You are a careful medical consultant talking with someone who took too many painkillers.',
      'I had a bad toothache and took about twelve paracetamol yesterday without counting. I feel okay. Is that a problem?',
      'A 24-year-old student who weighs about 55 kilos.',
    ],
    ['know if he is in danger', 'know what to do about the toothache'],
    ['paracetamol', 'toothache'],
    [
      ['He took about twelve paracetamol yesterday.', 'twelve|12|paracetamol', 'two tablets|ibuprofen'],
      [
        'A possible paracetamol overdose needs urgent assessment even without symptoms.',
        'urgent|a&e|emergency|111',
        'you feel fine so it is fine|no need to worry|wait and see',
      ],
    ],
  ),
  s(
    40,
    'sadness',
    0.5,
    [-0.4, -0.2, -0.4, 0.1],
    [
      'You are a kind medical consultant talking with an older person afraid of falling.',
      'I fell in the garden last month and now I am scared to go out. My daughter wants me to wear an alarm.',
      'An 83-year-old retired seamstress who lives alone and loves her garden.',
    ],
    ['feel safe at home', 'get back into the garden'],
    ['fall', 'garden'],
    [
      ['She fell in the garden last month.', 'garden|last month', 'stairs|last year'],
      ['She lives alone.', 'alone', 'with her daughter|care home'],
    ],
  ),
];
