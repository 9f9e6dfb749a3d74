/**
 * EmoLLM setting `ed` (emotional support in everyday situations, EmpatheticDialogues-like), seeds 21–40. Written
 * for this project; no dataset text.
 */
import { seedWriter } from './emollm-author';

const s = seedWriter('ed');

export const EMOLLM_ED_SEEDS_2 = [
  s(
    21,
    'anxiety',
    0.6,
    [-0.5, -0.3, -0.4, 0.2],
    [
      'You are a reassuring friend talking with someone about to meet their partner’s parents.',
      'I meet his parents for Sunday lunch and they are very traditional. I am vegan and I already feel judged.',
      'A vegan yoga instructor dating a farmer’s son for eight months.',
    ],
    ['make a good first impression', 'not hide who she is'],
    ['sunday lunch', 'parents'],
    [
      ['The meeting is a Sunday lunch.', 'sunday|lunch', 'saturday dinner|christmas'],
      ['She is vegan.', 'vegan', 'vegetarian|allergic|gluten'],
      ['They have dated for eight months.', 'eight months|8 months', 'two years|engaged|married'],
    ],
  ),
  s(
    22,
    'sadness',
    0.6,
    [-0.6, -0.2, -0.4, 0.1],
    [
      'You are a compassionate listener supporting someone whose childhood home is being sold.',
      'Mum is selling the house I grew up in. The buyers want to knock down the tree house Dad built.',
      'A 35-year-old primary teacher whose father died when she was twelve.',
    ],
    ['keep something of the house', 'talk to her mum about it'],
    ['tree house', 'house'],
    [
      ['Her father built the tree house.', 'tree house|dad built', 'grandfather built|bought it'],
      ['Her mother is selling the house.', 'selling|mum', 'renting it out|your brother'],
    ],
  ),
  s(
    23,
    'anger',
    0.5,
    [-0.5, -0.1, -0.2, 0],
    [
      'You are a fair-minded friend listening to someone who was blamed for a colleague’s mistake at a café.',
      'The manager docked my tips because the till was short, but I was not even on the till that shift.',
      'A 20-year-old barista working weekends to pay for college.',
    ],
    ['clear her name', 'get the tips back'],
    ['till', 'manager'],
    [
      ['Her tips were docked because the till was short.', 'tips|till', 'wages cut|fired'],
      ['She was not on the till that shift.', 'not on the till|shift', 'you were on the till'],
    ],
  ),
  s(
    24,
    'frustration',
    0.4,
    [-0.4, 0, -0.2, 0.3],
    [
      'You are an encouraging companion talking with someone who gave up on learning the guitar.',
      'Six months of guitar and I still cannot play a clean F chord. Maybe I am just not musical.',
      'An accountant in his forties who always wanted to play in a band.',
    ],
    ['make progress again', 'enjoy practising'],
    ['f chord', 'guitar'],
    [
      ['He has played for six months.', 'six months|6 months', 'six years|a week'],
      ['The F chord is the sticking point.', 'f chord|barre', 'g chord|strumming'],
    ],
  ),
  s(
    25,
    'sadness',
    0.9,
    [-0.8, -0.5, -0.6, 0.1],
    [
      'You are a gentle listener for someone whose close friend died suddenly.',
      'My friend Sam died in a cycling accident on Tuesday. We were meant to go camping next week.',
      'A 29-year-old carpenter who met Sam at a climbing club ten years ago.',
    ],
    ['get through the funeral', 'not be alone with it'],
    ['funeral', 'camping trip'],
    [
      ['Sam died in a cycling accident.', 'cycling|accident', 'illness|car crash|cancer'],
      ['It happened on Tuesday.', 'tuesday', 'last month|friday'],
      ['They were going camping next week.', 'camping|next week', 'holiday abroad|festival'],
    ],
  ),
  s(
    26,
    'anxiety',
    0.4,
    [-0.3, -0.2, -0.3, 0.2],
    [
      'You are a friendly companion talking with someone nervous about a first date.',
      'First date tomorrow since my divorce. I have not done this in fifteen years and I do not know the rules anymore.',
      'A 48-year-old librarian with two grown-up children.',
    ],
    ['feel relaxed on the date', 'not rush anything'],
    ['date', 'divorce'],
    [
      ['The date is tomorrow.', 'tomorrow', 'tonight|next week'],
      [
        'It is his first date since his divorce after fifteen years.',
        'divorce|fifteen years|15 years',
        'widowed|five years',
      ],
    ],
  ),
  s(
    27,
    'frustration',
    0.7,
    [-0.6, -0.4, -0.4, 0.1],
    [
      'You are a supportive friend listening to someone whose wedding plans keep changing.',
      'The venue cancelled on us eight weeks before the wedding. We already sent the invitations.',
      'A 30-year-old veterinary nurse planning a small wedding for sixty guests.',
    ],
    ['find a new venue in time', 'keep the wedding enjoyable'],
    ['venue', 'invitations'],
    [
      [
        'The venue cancelled eight weeks before.',
        'eight weeks|8 weeks|venue',
        'eight days|six months|caterer',
      ],
      ['Invitations are already sent.', 'invitations', 'not sent yet'],
      ['There are sixty guests.', 'sixty|60', 'two hundred|twenty'],
    ],
  ),
  s(
    28,
    'sadness',
    0.5,
    [-0.5, -0.1, -0.3, 0.3],
    [
      'You are a caring listener talking with someone whose child has left for university.',
      'My daughter left for university on Saturday. Her room is so tidy now it hurts to look at it.',
      'A mother of one who works part-time at the council.',
    ],
    ['adjust to the empty house', 'stay close without hovering'],
    ['room', 'university'],
    [
      ['Her daughter left on Saturday.', 'saturday|left', 'last year|next week'],
      ['Her daughter went to university.', 'university', 'moved in with a boyfriend|army|abroad for work'],
    ],
  ),
  s(
    29,
    'anger',
    0.7,
    [-0.6, -0.2, -0.3, 0],
    [
      'You are a calm listener for someone who was humiliated by a relative at a family party.',
      'My uncle made a joke about my weight in front of everyone at my cousin’s engagement party.',
      'A 26-year-old dental hygienist who has been working hard on her health.',
    ],
    ['respond without a scene', 'feel less humiliated'],
    ['uncle', 'party'],
    [
      ['The uncle made the joke.', 'uncle', 'aunt|father|cousin made'],
      ['It was at a cousin’s engagement party.', 'engagement|party', 'wedding|funeral|christmas'],
    ],
  ),
  s(
    30,
    'anxiety',
    0.7,
    [-0.5, -0.4, -0.5, 0.3],
    [
      'You are a steady companion supporting someone behind on bills.',
      'I got a red letter about the electricity bill today. I am £400 behind and payday is two weeks away.',
      'A care worker on a zero-hours contract who lives alone.',
    ],
    ['avoid being cut off', 'make a plan for the arrears'],
    ['electricity bill', 'payday'],
    [
      ['She owes £400 on electricity.', '£400|400|electricity', '£4,000|gas bill|council tax'],
      ['Payday is two weeks away.', 'two weeks|payday', 'tomorrow|next month'],
    ],
  ),
  s(
    31,
    'sadness',
    0.4,
    [-0.4, 0, -0.2, 0.2],
    [
      'You are a warm friend talking with someone who feels invisible at a new job.',
      'Three weeks in at the new office and nobody has asked me to lunch once. Everyone already has their group.',
      'A 25-year-old marketing assistant who moved from a small team she loved.',
    ],
    ['feel part of the team', 'make one friend at work'],
    ['new office', 'lunch'],
    [
      ['She has been there three weeks.', 'three weeks|3 weeks', 'three months|a year'],
      ['Nobody has asked her to lunch.', 'lunch', 'drinks|parties'],
    ],
  ),
  s(
    32,
    'frustration',
    0.6,
    [-0.5, -0.2, -0.3, 0.4],
    [
      'You are an understanding companion for someone who keeps procrastinating on a personal project.',
      'I promised myself I would finish painting the spare room in May. It is September and it is half blue.',
      'A freelance translator who works from home.',
    ],
    ['finish the room', 'stop feeling like a failure about it'],
    ['spare room', 'painting'],
    [
      ['The plan was to finish in May.', 'may', 'june|january'],
      ['The room is half painted blue.', 'half|blue', 'green|not started'],
    ],
  ),
  s(
    33,
    'anxiety',
    0.8,
    [-0.7, -0.4, -0.6, 0.1],
    [
      'You are a reassuring listener for someone whose cat has gone missing.',
      'Pepper has not come home for two nights. She never misses dinner. I have walked the street calling her.',
      'A retired pharmacist who lives with her twelve-year-old tabby.',
    ],
    ['find the cat', 'feel less helpless while searching'],
    ['pepper', 'street'],
    [
      ['Pepper has been gone two nights.', 'two nights|2 nights', 'two weeks|a month'],
      ['Pepper is a twelve-year-old tabby cat.', 'tabby|cat|twelve', 'dog|kitten|puppy'],
    ],
  ),
  s(
    34,
    'sadness',
    0.6,
    [-0.5, -0.2, -0.4, 0.5],
    [
      'You are a compassionate friend listening to someone who feels they let their team down.',
      'I missed the penalty in the cup final and we lost. The lads say it is fine but nobody is talking to me.',
      'A 17-year-old centre-back who plays for his town’s youth team.',
    ],
    ['face the team at training', 'stop replaying the penalty'],
    ['penalty', 'cup final'],
    [
      ['He missed a penalty in the cup final.', 'penalty|cup final', 'own goal|red card|league match'],
      ['The team lost.', 'lost', 'won|drew'],
    ],
  ),
  s(
    35,
    'anger',
    0.6,
    [-0.6, -0.2, -0.2, 0],
    [
      'You are a level-headed friend hearing out someone who was cut off in a queue and then shouted at.',
      'A man pushed in front of me at the post office and when I said something he called me a nosy old cow.',
      'A 63-year-old retired midwife who volunteers at a food bank.',
    ],
    ['let go of the encounter', 'feel safe speaking up'],
    ['post office', 'man'],
    [
      ['It happened at the post office.', 'post office', 'bank|supermarket|bus stop'],
      ['He pushed in and insulted her.', 'pushed in|insulted|called', 'hit you|apologised'],
    ],
  ),
  s(
    36,
    'frustration',
    0.5,
    [-0.4, -0.2, -0.3, 0.2],
    [
      'You are a supportive companion listening to someone whose allotment was vandalised.',
      'Somebody trampled my allotment overnight. The courgettes I grew from seed are all flattened.',
      'A retired engineer who spends most mornings on his allotment.',
    ],
    ['replant what can be saved', 'feel less disheartened'],
    ['allotment', 'courgettes'],
    [
      ['The allotment was trampled overnight.', 'trampled|overnight|allotment', 'frost|slugs|flooded'],
      ['He grew the courgettes from seed.', 'courgette|from seed', 'tomatoes|bought plants'],
    ],
  ),
  s(
    37,
    'sadness',
    0.7,
    [-0.6, -0.3, -0.5, 0.2],
    [
      'You are a kind listener supporting someone who feels lonely since working from home.',
      'Since the office closed I can go a whole week without saying a word out loud to anyone.',
      'A 38-year-old data analyst living alone since her company went fully remote.',
    ],
    ['have more contact with people', 'build a weekly routine outside the flat'],
    ['working from home', 'office'],
    [
      [
        'Her office closed and work went fully remote.',
        'remote|office closed|working from home',
        'lost her job|retired',
      ],
      ['She lives alone.', 'alone', 'with her partner|flatmates'],
    ],
  ),
  s(
    38,
    'anxiety',
    0.5,
    [-0.4, -0.2, -0.3, 0.1],
    [
      'You are a calm companion talking with someone about to fly for the first time.',
      'I fly to Spain on Monday for my sister’s hen do. I have never been on a plane and I keep reading about turbulence.',
      'A 33-year-old hairdresser who has only ever holidayed by train.',
    ],
    ['cope with the flight', 'enjoy the trip'],
    ['flight', 'turbulence'],
    [
      ['The flight is to Spain on Monday.', 'spain|monday', 'portugal|italy|friday'],
      ['It is for her sister’s hen do.', 'hen do|sister', 'wedding abroad|work trip'],
      [
        'She has never flown before.',
        'never been on a plane|first flight|first time',
        'flown before|last flight',
      ],
    ],
  ),
  s(
    39,
    'frustration',
    0.6,
    [-0.5, -0.3, -0.3, 0.3],
    [
      'You are an understanding friend for someone whose diet attempts keep collapsing.',
      'Day four of cutting out sugar and I ate a whole packet of biscuits in the car. Every single time.',
      'A 41-year-old HGV driver told by his GP to cut down on sugar.',
    ],
    ['stick with the change', 'be less hard on himself'],
    ['biscuits', 'sugar'],
    [
      ['It was day four of cutting sugar.', 'day four|four days', 'two weeks|first day'],
      ['His GP told him to cut down on sugar.', 'gp|doctor', 'personal trainer|his wife'],
    ],
  ),
  s(
    40,
    'sadness',
    0.5,
    [-0.5, -0.1, -0.3, 0.2],
    [
      'You are a warm listener talking with someone whose long-distance friendship is fading.',
      'My oldest friend and I used to talk every Sunday. Since she had the baby it has been three months of nothing.',
      'A 34-year-old civil servant without children.',
    ],
    ['keep the friendship going', 'understand her friend’s new life'],
    ['baby', 'sunday calls'],
    [
      ['They used to talk every Sunday.', 'sunday', 'every day|monthly'],
      ['The friend had a baby.', 'baby', 'new job|moved abroad|got married'],
      ['It has been three months.', 'three months|3 months', 'three years|a week'],
    ],
  ),
];
