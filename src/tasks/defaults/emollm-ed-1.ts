/**
 * EmoLLM setting `ed` (emotional support in everyday situations, EmpatheticDialogues-like), seeds 1–20. Written
 * for this project; no dataset text.
 */
import { seedWriter } from './emollm-author';

const s = seedWriter('ed');

export const EMOLLM_ED_SEEDS_1 = [
  s(
    1,
    'sadness',
    0.7,
    [-0.7, -0.3, -0.5, 0.1],
    [
      'You are a caring friend talking with someone whose old dog died last week.',
      'The flat is so quiet now. I keep reaching for the leash at seven in the morning and then remembering.',
      'A graphic designer in her thirties who lived alone with her beagle for fourteen years.',
    ],
    ['find a way to carry the grief', 'keep some routine in the mornings'],
    ['morning walks', 'beagle'],
    [
      [
        'The dog was a beagle she had for fourteen years.',
        'beagle|fourteen years|14 years',
        'puppy|cat|your kitten',
      ],
      ['The dog died last week.', 'last week|died', 'last year|months ago|ran away'],
    ],
  ),
  s(
    2,
    'frustration',
    0.6,
    [-0.6, -0.2, -0.3, 0.3],
    [
      'You are a supportive listener helping someone who was passed over at a pub quiz team selection.',
      'My own friends picked someone they met two weeks ago for the quiz final instead of me. I organised that team.',
      'A secondary-school history teacher who started the pub quiz team five years ago.',
    ],
    ['understand why the friends chose someone else', 'say something without wrecking the friendship'],
    ['quiz final', 'team'],
    [
      [
        'He founded the quiz team five years ago.',
        'five years|founded|organised',
        'joined last month|new to the team',
      ],
      [
        'The replacement was someone the group met two weeks ago.',
        'two weeks|new person',
        'your brother|your boss',
      ],
    ],
  ),
  s(
    3,
    'anxiety',
    0.8,
    [-0.6, -0.5, -0.6, 0.2],
    [
      'You are a calm companion supporting someone dreading a driving test on Friday.',
      'My driving test is on Friday and I failed the last two. My hands shake just thinking about the roundabouts.',
      'A 24-year-old warehouse worker who needs a licence to take a better-paid delivery job.',
    ],
    ['feel steadier before the test', 'get the licence for the delivery job'],
    ['roundabouts', 'test on friday'],
    [
      ['The test is on Friday.', 'friday|test', 'monday|tomorrow morning|next month'],
      [
        'He has failed the test twice before.',
        'failed twice|two times|last two',
        'first attempt|never taken',
      ],
      ['He needs the licence for a delivery job.', 'delivery|job|licence', 'for university|to visit family'],
    ],
  ),
  s(
    4,
    'anger',
    0.7,
    [-0.7, -0.1, -0.3, 0],
    [
      'You are a level-headed friend hearing out someone whose car was scratched in a car park.',
      'Someone keyed the whole side of my car at the supermarket and just drove off. Nobody saw a thing.',
      'A nurse who saved for three years to buy her first new car.',
    ],
    ['decide what to do about the damage', 'stop replaying it'],
    ['car', 'insurance'],
    [
      [
        'The car was keyed in a supermarket car park.',
        'keyed|supermarket|car park',
        'at home|in your driveway|at work',
      ],
      [
        'It is her first new car, saved for over three years.',
        'first new car|saved',
        'second-hand|company car|leased',
      ],
    ],
  ),
  s(
    5,
    'sadness',
    0.5,
    [-0.5, -0.1, -0.3, 0.4],
    [
      'You are a warm listener talking with someone who missed their best friend’s wedding.',
      'I missed my best friend’s wedding because my flight got cancelled. I watched the speeches on a video call from the airport.',
      'A software engineer who has been friends with the bride since primary school.',
    ],
    ['make it up to the friend', 'stop feeling guilty about something outside their control'],
    ['wedding', 'cancelled flight'],
    [
      ['The flight was cancelled.', 'flight|cancelled', 'overslept|forgot the date|missed the train'],
      ['They watched the speeches over a video call.', 'video call|speeches', 'did not see any of it'],
      [
        'The bride has been a friend since primary school.',
        'primary school|best friend',
        'met at work|college friend',
      ],
    ],
  ),
  s(
    6,
    'anxiety',
    0.6,
    [-0.5, -0.3, -0.4, 0.1],
    [
      'You are a gentle companion supporting someone nervous about moving to a new city alone.',
      'I move to Glasgow in three weeks for a new job and I do not know a single person there.',
      'A 27-year-old accountant leaving her hometown for the first time.',
    ],
    ['feel less alone about the move', 'have a plan for meeting people'],
    ['new job', 'glasgow'],
    [
      ['She is moving to Glasgow.', 'glasgow', 'edinburgh|london|manchester'],
      ['The move is in three weeks.', 'three weeks|3 weeks', 'next year|tomorrow'],
      ['She is moving for a new job.', 'new job|job', 'for university|for a partner'],
    ],
  ),
  s(
    7,
    'frustration',
    0.5,
    [-0.4, -0.2, -0.2, 0.2],
    [
      'You are an understanding friend helping someone whose sourdough keeps failing.',
      'Fourth flat loaf in a row. I followed the recipe to the gram and it still comes out like a brick.',
      'A retired postman who took up baking after his wife passed away.',
    ],
    ['get a loaf that rises', 'enjoy the hobby again'],
    ['starter', 'loaves'],
    [
      ['Four loaves in a row came out flat.', 'four|flat|in a row', 'first try|once'],
      ['He weighed everything to the gram.', 'to the gram|weighed|recipe', 'guessed the amounts|no recipe'],
    ],
  ),
  s(
    8,
    'sadness',
    0.8,
    [-0.8, -0.4, -0.6, 0.3],
    [
      'You are a compassionate listener supporting someone after a breakup of six years.',
      'We split up on Sunday after six years. I keep opening the group chat to tell her things.',
      'A 31-year-old bike mechanic whose partner moved out at the weekend.',
    ],
    ['get through the first weeks', 'stop reaching for the old habits'],
    ['group chat', 'flat'],
    [
      ['They were together six years.', 'six years|6 years', 'six months|a few weeks'],
      ['They split up on Sunday.', 'sunday|split up|breakup', 'last year|divorce'],
      ['She moved out.', 'moved out', 'he moved out|you moved out'],
    ],
  ),
  s(
    9,
    'anger',
    0.6,
    [-0.6, -0.2, -0.2, 0.1],
    [
      'You are a steady friend listening to someone whose flatmate keeps eating their food.',
      'My flatmate ate the lasagne I made for the week. Again. He says food in the fridge is fair game.',
      'A physiotherapy student on a tight budget who cooks in batches on Sundays.',
    ],
    ['set a rule that sticks', 'not waste money on food that disappears'],
    ['flatmate', 'fridge'],
    [
      ['The flatmate ate her batch-cooked lasagne.', 'lasagne|batch', 'curry|takeaway'],
      ['It has happened before.', 'again|before|keeps', 'first time|never happened'],
      ['She is a student on a tight budget.', 'budget|student', 'well paid|rich'],
    ],
  ),
  s(
    10,
    'anxiety',
    0.7,
    [-0.6, -0.4, -0.5, 0.3],
    [
      'You are a patient companion supporting someone who has to give a toast at their father’s retirement party.',
      'I have to give the toast at Dad’s retirement do on Saturday and I freeze when more than five people look at me.',
      'A quiet lab technician, the eldest of three, whose father retires after forty years on the railways.',
    ],
    ['get through the toast without freezing', 'make his father proud'],
    ['toast', 'retirement party'],
    [
      ['The party is on Saturday.', 'saturday', 'sunday|tonight|next month'],
      [
        'His father worked forty years on the railways.',
        'forty years|railway',
        'thirty years|at a bank|the army',
      ],
    ],
  ),
  s(
    11,
    'frustration',
    0.7,
    [-0.6, -0.3, -0.4, 0.2],
    [
      'You are a supportive friend listening to a parent whose toddler refuses to sleep.',
      'Our two-year-old has been up at 3am every night this month and I am running on nothing.',
      'A father of one who works early shifts at a bakery.',
    ],
    ['get some sleep back', 'find a bedtime routine that works'],
    ['night wakings', 'early shifts'],
    [
      ['The child is two years old.', 'two-year-old|toddler|two years old', 'baby of six months|teenager'],
      [
        'The wakings happen around 3am every night this month.',
        '3am|every night',
        'once a week|midnight only',
      ],
      ['He works early shifts at a bakery.', 'bakery|early shift', 'night shift|works from home'],
    ],
  ),
  s(
    12,
    'sadness',
    0.6,
    [-0.6, -0.2, -0.4, 0],
    [
      'You are a kind listener talking with someone whose grandmother is moving into a care home.',
      'Nan is going into a care home next month. Her house was where we had every Christmas.',
      'A 22-year-old apprentice electrician who was raised partly by his grandmother.',
    ],
    ['say goodbye to the house', 'keep a close bond with his grandmother'],
    ['care home', 'house'],
    [
      [
        'The grandmother moves into a care home next month.',
        'care home|next month',
        'hospital|moving abroad|hospice',
      ],
      ['Every Christmas was at her house.', 'christmas|her house', 'birthdays at your house'],
    ],
  ),
  s(
    13,
    'anxiety',
    0.5,
    [-0.4, -0.2, -0.4, 0.1],
    [
      'You are a reassuring companion talking with someone waiting for exam results.',
      'Results come out Thursday and I need two As for my medicine offer. I cannot eat.',
      'A sixth-form student who would be the first in her family to go to university.',
    ],
    ['cope with the waiting', 'have a backup plan'],
    ['results', 'medicine offer'],
    [
      ['Results come out on Thursday.', 'thursday|results', 'tomorrow|next week|friday'],
      ['The offer needs two As.', 'two as|offer', 'three as|a pass'],
      ['The offer is for medicine.', 'medicine', 'law|dentistry|nursing'],
    ],
  ),
  s(
    14,
    'anger',
    0.8,
    [-0.7, -0.3, -0.3, 0],
    [
      'You are a calm friend hearing out someone whose landlord kept their deposit.',
      'The landlord is keeping my whole £900 deposit for a mark on the carpet that was there when I moved in.',
      'A bus driver who photographed the flat on move-in day.',
    ],
    ['get the deposit back', 'feel less powerless'],
    ['deposit', 'carpet'],
    [
      ['The deposit is £900.', '£900|900|deposit', '£500|£1,500|two thousand'],
      ['The mark was there at move-in and he has photos.', 'photo|move-in|moved in', 'no photos|no evidence'],
    ],
  ),
  s(
    15,
    'sadness',
    0.4,
    [-0.4, 0, -0.3, 0.2],
    [
      'You are a friendly listener talking with someone who feels left out of their friends’ new hobby.',
      'All my friends took up climbing and now every plan is the climbing wall. I tried once and hated it.',
      'A sociable baker in her late twenties with a fear of heights.',
    ],
    ['stay close to the friends', 'suggest plans she enjoys too'],
    ['climbing wall', 'friends'],
    [
      ['The friends took up climbing.', 'climbing|climbing wall', 'running|cycling|football'],
      ['She tried it once and hated it.', 'tried once|hated', 'never tried|loved it'],
    ],
  ),
  s(
    16,
    'frustration',
    0.6,
    [-0.5, -0.3, -0.3, 0.5],
    [
      'You are an understanding companion helping someone who forgot an important anniversary.',
      'I completely forgot our tenth anniversary. She had booked a table and I came home late with nothing.',
      'A self-employed plumber who has been married ten years.',
    ],
    ['make amends with his wife', 'stop beating himself up'],
    ['anniversary', 'dinner'],
    [
      ['It was their tenth anniversary.', 'tenth|10th|ten years', 'first|fifth|twentieth'],
      ['She had booked a table.', 'table|booked|restaurant', 'cooked at home|party'],
    ],
  ),
  s(
    17,
    'anxiety',
    0.9,
    [-0.7, -0.6, -0.6, 0.1],
    [
      'You are a steady presence for someone whose teenage son did not come home last night.',
      'My son is sixteen and he did not come home last night. His phone goes straight to voicemail.',
      'A single mother who works as a school receptionist.',
    ],
    ['know her son is safe', 'know what to do next'],
    ['son', 'phone'],
    [
      ['The son is sixteen.', 'sixteen|16', 'twelve|twenty|daughter'],
      ['His phone goes straight to voicemail.', 'voicemail|phone', 'he texted|he called'],
    ],
  ),
  s(
    18,
    'sadness',
    0.5,
    [-0.5, -0.1, -0.2, 0.3],
    [
      'You are a caring listener talking with someone who regrets not calling a friend who has since moved away.',
      'My old uni friend moved to Australia and I never made time to see her before she left.',
      'A busy estate agent who keeps meaning to reconnect with people.',
    ],
    ['reconnect with the friend', 'make time for people who matter'],
    ['australia', 'friend'],
    [
      ['The friend moved to Australia.', 'australia', 'canada|new zealand|america'],
      ['They were friends at university.', 'uni|university', 'school friend|work friend'],
    ],
  ),
  s(
    19,
    'frustration',
    0.5,
    [-0.4, -0.1, -0.2, 0.1],
    [
      'You are a supportive friend listening to someone stuck in a noisy flat.',
      'The neighbours upstairs have a drum kit and practise every night until eleven. I have a 6am start.',
      'A paramedic who works early rota weeks.',
    ],
    ['get enough sleep before shifts', 'raise it without a feud'],
    ['drum kit', 'neighbours'],
    [
      ['The neighbours practise drums until eleven.', 'drum|eleven|11', 'guitar|piano|parties'],
      ['He starts work at 6am.', '6am|early start', 'night shifts|works from home'],
    ],
  ),
  s(
    20,
    'sadness',
    0.7,
    [-0.6, -0.3, -0.5, 0.2],
    [
      'You are a gentle companion supporting someone whose best friend no longer replies to messages.',
      'My best friend has left me on read for a month. I do not know what I did.',
      'A 19-year-old art student in her first year away from home.',
    ],
    ['understand what happened', 'decide whether to reach out again'],
    ['messages', 'best friend'],
    [
      ['The friend has not replied for a month.', 'a month|on read', 'a year|a day|blocked you'],
      [
        'She is in her first year away from home.',
        'first year|away from home',
        'final year|lives with parents',
      ],
    ],
  ),
];
