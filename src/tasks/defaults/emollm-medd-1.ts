/**
 * EmoLLM setting `medd` (medical consultation, MedDialog-like), seeds 1–20. Written for this project; no
 * dataset text. The facts are the patient's situation as stated, not medical advice.
 */
import { seedWriter } from './emollm-author';

const s = seedWriter('medd');

export const EMOLLM_MEDD_SEEDS_1 = [
  s(
    1,
    'anxiety',
    0.7,
    [-0.6, -0.4, -0.5, 0.1],
    [
      'You are a careful medical consultant talking with a patient worried about chest tightness after exercise.',
      'I get a tight feeling in my chest when I run for the bus. It goes away after a few minutes of rest.',
      'A 52-year-old taxi driver who smokes ten cigarettes a day.',
    ],
    ['know whether this is serious', 'know who to see and how soon'],
    ['chest tightness', 'smoking'],
    [
      [
        'The tightness comes on with exertion and eases with rest.',
        'exertion|running|rest',
        'only at night|constant',
      ],
      ['He is 52 and smokes ten a day.', '52|smok', 'non-smoker|you are 25'],
    ],
  ),
  s(
    2,
    'anxiety',
    0.6,
    [-0.5, -0.3, -0.4, 0.2],
    [
      'You are a reassuring medical consultant helping a parent whose toddler has a fever.',
      'My 18-month-old has had a temperature of 38.5 since this morning. She is drinking but clingy.',
      'A first-time father whose partner is away for work.',
    ],
    ['know how to care for her tonight', 'know the warning signs'],
    ['fever', 'drinking'],
    [
      ['The child is 18 months old.', '18 months|18-month', 'six months|newborn|five years'],
      ['The temperature is 38.5 since this morning.', '38.5|since this morning', '40|three days'],
      ['She is still drinking.', 'drinking', 'not drinking|refusing fluids'],
    ],
  ),
  s(
    3,
    'frustration',
    0.6,
    [-0.5, -0.3, -0.4, 0.1],
    [
      'You are a patient medical consultant talking with someone with long-lasting lower back pain.',
      'My lower back has hurt for three months. The GP said rest but I have rested and it is no better.',
      'A 45-year-old warehouse supervisor who lifts boxes all day.',
    ],
    ['get relief from the pain', 'keep working'],
    ['back pain', 'lifting'],
    [
      ['The pain has lasted three months.', 'three months|3 months', 'three days|two years'],
      ['The GP advised rest.', 'gp|rest', 'surgery|physio already'],
      ['He lifts boxes at work.', 'lifting|boxes|warehouse', 'desk job|office'],
    ],
  ),
  s(
    4,
    'anxiety',
    0.8,
    [-0.7, -0.5, -0.6, 0.1],
    [
      'You are a calm medical consultant talking with a woman who found a breast lump.',
      'I found a small lump in my left breast in the shower yesterday. I cannot stop thinking the worst.',
      'A 39-year-old schoolteacher whose aunt had breast cancer.',
    ],
    ['get it checked quickly', 'cope with the waiting'],
    ['lump', 'aunt'],
    [
      ['The lump is in the left breast.', 'left', 'right breast|armpit'],
      ['She found it yesterday.', 'yesterday', 'months ago|last year'],
      ['Her aunt had breast cancer.', 'aunt', 'mother|sister|grandmother'],
    ],
  ),
  s(
    5,
    'frustration',
    0.5,
    [-0.4, -0.2, -0.3, 0.2],
    [
      'You are a helpful medical consultant talking with someone with persistent insomnia.',
      'I wake at 3am every night and cannot get back to sleep. It has been six weeks since I started the new job.',
      'A 33-year-old project manager who drinks four coffees a day.',
    ],
    ['sleep through the night', 'cope at work meanwhile'],
    ['waking', 'coffee'],
    [
      ['He wakes at 3am nightly for six weeks.', '3am|six weeks', 'six months|cannot fall asleep'],
      ['He drinks four coffees a day.', 'four coffees|coffee|caffeine', 'no caffeine|one coffee'],
    ],
  ),
  s(
    6,
    'anxiety',
    0.5,
    [-0.4, -0.3, -0.3, 0.3],
    [
      'You are a careful medical consultant talking with a patient who missed doses of blood pressure tablets.',
      'I forgot my amlodipine for four days while on holiday. Should I take extra to catch up?',
      'A 66-year-old retired plumber on one blood pressure tablet a day.',
    ],
    ['restart the medicine safely', 'not miss doses again'],
    ['amlodipine', 'holiday'],
    [
      ['The medicine is amlodipine, once a day.', 'amlodipine', 'ramipril|bisoprolol|twice a day'],
      ['He missed four days.', 'four days|4 days', 'four weeks|one dose'],
      [
        'Taking extra to catch up is not safe.',
        'extra|double',
        'take double|take two tablets|catch up by doubling',
      ],
    ],
  ),
  s(
    7,
    'sadness',
    0.7,
    [-0.6, -0.4, -0.5, 0.3],
    [
      'You are a compassionate medical consultant talking with a new mother who feels low.',
      'My baby is five weeks old and I cry every day. I thought I would feel happy. I feel like a bad mum.',
      'A 29-year-old first-time mother whose partner went back to work last week.',
    ],
    ['feel like herself again', 'know this can be treated'],
    ['crying', 'baby'],
    [
      ['The baby is five weeks old.', 'five weeks|5 weeks', 'five months|newborn of two days'],
      ['She cries every day.', 'cry|every day', 'once a month|never'],
    ],
  ),
  s(
    8,
    'anxiety',
    0.6,
    [-0.5, -0.3, -0.4, 0.1],
    [
      'You are a calm medical consultant talking with someone with a sudden severe headache.',
      'About an hour ago I got the worst headache of my life, suddenly, while lifting weights. Now I feel sick.',
      'A 36-year-old gym instructor with no history of headaches.',
    ],
    ['know what to do right now', 'not overreact if it is nothing'],
    ['headache', 'weights'],
    [
      ['It came on suddenly an hour ago while lifting.', 'sudden|an hour|lifting', 'gradual|for weeks'],
      ['He has no history of headaches.', 'no history|never', 'regular migraines|usual headache'],
      [
        'A sudden worst-ever headache needs emergency care.',
        'emergency|999|a&e',
        'wait and see|sleep it off|nothing to worry about',
      ],
    ],
  ),
  s(
    9,
    'frustration',
    0.4,
    [-0.3, -0.1, -0.2, 0.2],
    [
      'You are a helpful medical consultant talking with someone with recurring heartburn.',
      'I get burning in my chest most evenings after dinner, worse when I lie down. Antacids help for an hour.',
      'A 47-year-old chef who eats his main meal late at night.',
    ],
    ['stop the burning at night', 'keep working in the kitchen'],
    ['heartburn', 'late dinner'],
    [
      [
        'It is worse lying down after dinner.',
        'lie down|after dinner|evening',
        'in the morning|when running',
      ],
      ['Antacids help for about an hour.', 'antacid', 'nothing helps|cures it'],
    ],
  ),
  s(
    10,
    'anxiety',
    0.7,
    [-0.6, -0.4, -0.5, 0.2],
    [
      'You are a reassuring medical consultant helping someone frightened by a mole that changed.',
      'A mole on my back has got bigger and darker in the last two months and it itches sometimes.',
      'A 43-year-old gardener with fair skin who burns easily.',
    ],
    ['get it checked', 'know how urgent it is'],
    ['mole', 'back'],
    [
      ['The mole got bigger and darker over two months.', 'bigger|darker|two months', 'smaller|two years'],
      ['It is on his back.', 'back', 'face|arm|leg'],
    ],
  ),
  s(
    11,
    'frustration',
    0.6,
    [-0.5, -0.3, -0.3, 0.1],
    [
      'You are a patient medical consultant talking with someone with hay fever that ruins their summer.',
      'Every June my eyes stream and I sneeze all day. The supermarket tablets stopped working this year.',
      'A 27-year-old landscape gardener who works outdoors.',
    ],
    ['control the symptoms at work', 'find treatment that works'],
    ['hay fever', 'tablets'],
    [
      ['Symptoms come every June.', 'june|summer', 'winter|all year'],
      ['Over-the-counter tablets stopped working.', 'tablets|supermarket', 'prescription|injection'],
      ['He works outdoors.', 'outdoors|gardener', 'office'],
    ],
  ),
  s(
    12,
    'anxiety',
    0.6,
    [-0.5, -0.3, -0.4, 0.2],
    [
      'You are a careful medical consultant talking with someone who is short of breath after a long flight.',
      'I flew back from Australia two days ago and now my left calf is swollen and I get out of breath on the stairs.',
      'A 58-year-old woman on hormone replacement therapy.',
    ],
    ['know whether this is dangerous', 'know how quickly to act'],
    ['calf', 'flight'],
    [
      ['She flew back from Australia two days ago.', 'australia|two days|flight', 'short flight|two weeks'],
      ['The left calf is swollen.', 'left calf|calf|swollen', 'right calf|ankle only'],
      [
        'Breathlessness with a swollen calf after a flight needs urgent assessment.',
        'urgent|same day|a&e|emergency',
        'wait a week|nothing to worry about|just rest it',
      ],
    ],
  ),
  s(
    13,
    'sadness',
    0.5,
    [-0.5, -0.2, -0.4, 0.2],
    [
      'You are a kind medical consultant talking with someone newly diagnosed with type 2 diabetes.',
      'The doctor says I have type 2 diabetes. My dad lost a foot to it. I feel like my life is over.',
      'A 54-year-old postwoman who walks her round every day.',
    ],
    ['understand the diagnosis', 'believe she can manage it'],
    ['diabetes', 'dad'],
    [
      ['She has type 2 diabetes.', 'type 2', 'type 1|gestational'],
      ['Her father lost a foot to diabetes.', 'foot|dad|father', 'mother|lost his sight'],
    ],
  ),
  s(
    14,
    'anxiety',
    0.5,
    [-0.4, -0.2, -0.3, 0.1],
    [
      'You are a reassuring medical consultant talking with a pregnant woman about medicine.',
      'I am twelve weeks pregnant and have a bad cold. Which painkiller am I allowed to take?',
      'A 31-year-old pharmacist’s assistant in her first pregnancy.',
    ],
    ['ease the cold safely', 'protect the baby'],
    ['painkiller', 'pregnancy'],
    [
      ['She is twelve weeks pregnant.', 'twelve weeks|12 weeks', 'thirty weeks|not pregnant'],
      [
        'Ibuprofen is generally avoided in pregnancy; paracetamol is the usual choice.',
        'paracetamol|ibuprofen',
        'ibuprofen is fine|take ibuprofen|aspirin is safest',
      ],
    ],
  ),
  s(
    15,
    'frustration',
    0.7,
    [-0.6, -0.3, -0.4, 0.1],
    [
      'You are a patient medical consultant talking with someone whose eczema flares constantly.',
      'My hands crack and bleed with eczema every winter. I am a hairdresser and I cannot stop washing them.',
      'A 24-year-old hairdresser with eczema since childhood.',
    ],
    ['heal the cracked skin', 'keep working'],
    ['eczema', 'hand washing'],
    [
      ['The eczema is on her hands, worst in winter.', 'hands|winter', 'face|summer'],
      ['She is a hairdresser.', 'hairdresser', 'nurse|chef'],
    ],
  ),
  s(
    16,
    'anxiety',
    0.8,
    [-0.7, -0.4, -0.5, 0.2],
    [
      'You are a calm medical consultant talking with someone having panic attacks.',
      'Three times this week my heart raced, my hands went numb and I thought I was dying. The hospital said my heart is fine.',
      'A 26-year-old trainee accountant studying for exams.',
    ],
    ['stop the attacks', 'trust that the heart is fine'],
    ['attacks', 'heart'],
    [
      ['It happened three times this week.', 'three times|this week', 'once a year|every hour'],
      ['The hospital found the heart normal.', 'hospital|heart is fine|normal', 'heart problem|abnormal ecg'],
    ],
  ),
  s(
    17,
    'frustration',
    0.5,
    [-0.4, -0.2, -0.3, 0.1],
    [
      'You are a helpful medical consultant talking with a runner with knee pain.',
      'The outside of my right knee hurts after about 5k of running. I have a half marathon in six weeks.',
      'A 35-year-old charity fundraiser training for her first half marathon.',
    ],
    ['run the half marathon', 'not make the injury worse'],
    ['knee', 'half marathon'],
    [
      [
        'Pain on the outside of the right knee after about 5k.',
        'outside|right knee|5k',
        'left knee|inside of the knee',
      ],
      ['The half marathon is in six weeks.', 'six weeks|half marathon', 'six months|full marathon'],
    ],
  ),
  s(
    18,
    'anxiety',
    0.6,
    [-0.5, -0.3, -0.4, 0.3],
    [
      'You are a careful medical consultant talking with a man who noticed blood in his urine.',
      'This morning my urine was pink, almost red. It did not hurt. I have not eaten beetroot.',
      'A 61-year-old retired printer who smoked for thirty years.',
    ],
    ['find out the cause', 'know how soon to be seen'],
    ['blood', 'smoking'],
    [
      [
        'The urine was pink-red this morning, painless.',
        'painless|did not hurt|this morning',
        'painful|burning',
      ],
      ['He smoked for thirty years.', 'smoked|thirty years', 'never smoked'],
      [
        'Visible blood in urine should be checked promptly.',
        'gp|doctor|check',
        'ignore it|it is nothing|no need to see',
      ],
    ],
  ),
  s(
    19,
    'sadness',
    0.6,
    [-0.6, -0.3, -0.5, 0.1],
    [
      'You are a compassionate medical consultant talking with someone with hearing loss.',
      'I keep missing what my grandchildren say and they have stopped talking to me at dinner. I am only 68.',
      'A 68-year-old retired shopkeeper who has never had a hearing test.',
    ],
    ['hear the family again', 'not feel shut out'],
    ['hearing', 'grandchildren'],
    [
      ['He has never had a hearing test.', 'hearing test|never', 'hearing aids already|tested last year'],
      ['He is 68.', '68', '86|58'],
    ],
  ),
  s(
    20,
    'frustration',
    0.5,
    [-0.4, -0.2, -0.3, 0.2],
    [
      'You are a patient medical consultant talking with someone with frequent migraines.',
      'I get migraines with flashing zigzags about twice a week. I take the combined pill. Nothing seems to help.',
      'A 30-year-old sound engineer who works late nights.',
    ],
    ['have fewer migraines', 'know whether the pill is a problem'],
    ['migraines', 'pill'],
    [
      [
        'The migraines come with visual aura about twice a week.',
        'aura|zigzag|twice a week',
        'no aura|once a year',
      ],
      ['She takes the combined pill.', 'combined pill|the pill', 'progesterone-only|coil'],
      [
        'Migraine with aura is a reason to review the combined pill.',
        'review|doctor',
        'combined pill is fine with aura|no problem with the pill',
      ],
    ],
  ),
];
