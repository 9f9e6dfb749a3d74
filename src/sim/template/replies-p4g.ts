/**
 * The persuadee's replies (PersuasionForGood): authored variants per situation, chosen by the turn's mode and
 * stance, whether the persuadee leans toward giving (what it says of donating always agrees with its intentions,
 * joined with a contrast when it goes against the stance just said), the mood side of its affect, the question
 * asked and what it already said. Commitments, withdrawals, ends and refusals name the amount where there is one.
 */
import type { Rng } from '../../rng';
import type { AffectCategory } from '../../tasks/seed';
import { perceptionOf } from '../perception';
import { objections, strengthOf } from '../records';
import type { ResponseInput } from '../roles';
import { TASK_RULES } from '../rules';
import { phraseCount } from '../../text/features';
import { callToAction } from './proposer';
import { questionKind, type QuestionKind } from './questions';
import {
  asISaid,
  capitalised,
  contentLineAt,
  joinParts,
  lowerFirst,
  leansToGoal,
  mentioned,
  moodCategory,
  namedByUser,
  moodChance,
  moodSide,
  pick,
  saidBefore,
  stanceLine,
  type Said,
  type Slots,
} from './reply-kit';
import { socialBank } from './replies-social';
import { contentPhrases } from './content';
import { asideAt } from './asides';

const COMMIT = [
  'Okay, I will donate {amount} of my payment.',
  'Alright, put me down for {amount}.',
  'Let us do it. {amount} from my payment can go to the kids.',
  'I can spare {amount}. Count me in.',
  'Okay. I will give {amount} and see how it goes.',
  'Fine, {amount} it is. Please make sure it gets there.',
  'Alright, {amount} it is then.',
  'Sure, I will give {amount} from my pay.',
  'Okay, sign me up for {amount}.',
  'I will go with {amount}, that feels right.',
];
const WITHDRAW = [
  'Actually, I changed my mind. I will not donate after all.',
  'Sorry, on second thought I am going to hold on to my pay.',
  'I think I have to take that back. I am not giving after all.',
  'You know what, I would rather not donate in the end.',
];
const END = [
  'I have to go now. I will make the donation. Bye!',
  'I need to head off. The {amount} is yours for the kids. Take care!',
  'That is all from me. I will send the donation when the task ends. Bye.',
  'Okay, I should get going. Good luck with the fundraiser!',
  'Alright, I am signing off. My {amount} will be there. Bye!',
  'Thanks for the chat. I will follow through with the {amount}. Goodbye!',
  'I am heading out now. Rest assured, the donation is happening. Bye!',
  'Okay, that is me done. The {amount} will go through. See you!',
  'Time for me to go. Thanks for telling me about the charity.',
  'I will wrap up here. My {amount} is on its way. Bye for now.',
  'Right, I need to run. I will keep my word on the donation.',
  'Good talking to you. The {amount} is settled on my side. Take care.',
  'I think we are done here. {amount} from me, take care!',
  'Okay, I will log off now. Expect my {amount}. Bye!',
  'Nice chatting with you. Have a good one!',
  'I am off now. Thanks for your time.',
];
const QUIT = [
  'I am not going to donate, sorry. I need to go.',
  'I think I will pass on this one. Bye.',
  'Sorry, it is a no from me. I have to go.',
  'I would rather hold on to my pay, thanks. Goodbye.',
  'This is not for me. Have a good day.',
  'I am going to stop here. No donation, sorry.',
  'Let us leave it there. I am not giving today. Bye.',
  'I have made up my mind, and it is no. Goodbye.',
  'I do not think I will change my mind. Bye.',
  'Thanks, but no donation from me. Take care.',
  'I am done here, and it is still a no. Bye.',
  'Not for me, sorry. Have a good evening.',
];

/** How the persuadee takes an appeal, by stance (nothing said of its own giving: that comes apart). */
const STANCE = {
  agree: [
    'That is a good point.',
    'Fair enough, that sounds worthwhile.',
    'Okay, that makes sense.',
    'You have a point there.',
    'That is true, actually.',
    'Good point. It does sound like a decent cause.',
    'I can see why that matters.',
    'That is a fair argument.',
    'Okay, you make a decent case.',
    'Fair, I grant you that one.',
    'Makes sense when you put it like that.',
    'Alright, I can get behind that.',
    'Right, I can see the appeal.',
    'That actually makes a lot of sense.',
    'True, I had not looked at it that way.',
    'You are right about that much.',
    'Okay, that is a fair point.',
    'I can see that, yes.',
    'That is true, kids should not go without.',
    'That makes sense to me.',
    'Huh, that is a decent argument.',
    'You have a point, I will admit.',
    'Fair enough, I had not thought of it.',
    'Right, that does count for something.',
    'Good point, I did not think of it like that.',
    'That is true, I cannot argue with that.',
    'Okay, you make a good point about the kids.',
    'I can see that, it is a real problem.',
    'Yeah, that makes sense, honestly.',
    'You have a point, a lot of kids do need help.',
    'That is fair enough, I will grant it.',
    'I agree that it matters.',
    'Hm, that is true when you think about it.',
  ],
  open: [
    'I see.',
    'Okay, go on.',
    'That is fair.',
    'Interesting.',
    'Hm, okay.',
    'I will think about that.',
    'Go on, I am listening.',
    'Noted.',
    'Okay, and then what?',
    'Sure, I follow.',
    'Mhm, keep going.',
    'Alright, what else?',
    'Okay, I am following.',
    'Okay, I am hearing you out.',
    'Right. And?',
    'Okay, I get the idea.',
    'Hm, I had not heard that before.',
    'So what does that look like in practice?',
    'Okay, keep talking.',
    'Huh. Say more?',
    'I am reading, go ahead.',
    'Okay, that is new information for me.',
    'Let me take that in for a second.',
    'Alright, I hear you.',
    'Hmm, okay. What else should I know?',
    'Got it. Anything else?',
    'Okay, I am taking notes in my head.',
    'Sure, tell me the rest.',
    'Alright, and how does that work?',
    'Oh, okay. Go on then.',
    'I am with you so far.',
    'Okay, that is something to chew on.',
    'Hm. I will keep that in mind.',
    'Okay, so how does the money get there?',
    'Hm, I never really thought about that.',
    'Okay, and who runs all of this?',
    'Right, I am curious where this goes.',
    'I am listening, just keep it short.',
    'So what would you want from me?',
    'Alright, and is that in every country?',
    'Okay, that is a lot of information at once.',
    'Huh. How did you get into this?',
    'Mhm, and then?',
    'Okay, I am still here.',
  ],
  hesitant: [
    'I am not sure about giving money.',
    'I am still on the fence about donating.',
    'Hmm, maybe.',
    'I do not know. It is a lot to think about.',
    'Maybe, I just need a moment.',
    'I am a bit torn.',
    'Let me think about that one.',
    'Could be, I suppose. I am not there yet.',
    'I need a bit more before I decide.',
    'That is one way to look at it, I guess.',
    'I am half convinced, maybe.',
    'I really do not know yet.',
    'I am not sure, honestly.',
    'I go back and forth on it.',
    'Part of me wants to, part of me does not.',
    'I am really not sure what to do here.',
    'That is a lot of money for me, relatively.',
    'I would need to sleep on it, probably.',
    'Hmm, I am of two minds.',
    'Maybe. I am not quick to decide these things.',
    'It is hard to say right now.',
    'I do not know, I have been burned before.',
    'Maybe, but I like to check things myself.',
    'I cannot decide that on the spot.',
    'It is a nice idea, I am just not sure.',
    'I would want to read up on it first.',
    'Hm, I am honestly on the fence.',
  ],
  resist: [
    'I am not convinced by that.',
    'I would rather not be pressured about money.',
    'That does not really change my mind.',
    'That sounds like a sales pitch to me.',
    'I have heard that kind of thing before.',
    'I do not really buy that.',
    'I am not sure that is the whole story.',
    'That is easy to say when it is not your money.',
    'You would say that, it is your job.',
    'That feels like a guilt trip.',
    'I do not think that is quite fair.',
    'I am not convinced, sorry.',
    'That is not going to sway me.',
    'That line does not work on me.',
    'I have heard every version of that pitch.',
    'Every charity says exactly that.',
    'That does not really change my mind, no.',
    'I do not buy that, sorry.',
    'You are laying it on a bit thick.',
    'Nice try, my answer is the same.',
    'That is a lot of guilt to put on someone.',
    'I do not see why it has to be me.',
    'There are plenty of other people to ask.',
    'That argument does not really work on me.',
    'I have my own bills to think about.',
  ],
} as const;

/** How the persuadee takes what the appeal names ({topic}), by stance. */
const ABOUT = {
  agree: [
    'The part about {topic} is a good point.',
    'I did not know that about {topic}.',
    'Okay, {topic} is worth thinking about.',
    'I had not heard that about {topic}.',
    'Okay, {topic} is a fair point.',
    'That bit about {topic} makes sense.',
    'You have a point about {topic}.',
    'I can see that about {topic}, yes.',
  ],
  open: [
    'Okay, {topic}. Go on.',
    'Hm, {topic}. I see.',
    'I did not know much about {topic}.',
    'Okay, tell me more about {topic}.',
    'So {topic}. What does that look like?',
    'Hm, I did not know about {topic}.',
    'Okay, and {topic} works how?',
    'Interesting, {topic}. Go on.',
  ],
  hesitant: [
    'I am not sure what to think about {topic}.',
    '{Topic} is a lot to take in.',
    'I would want to know more about {topic} first.',
    'I would need to know more about {topic}.',
    'I do not know enough about {topic} to say.',
    'Hm, {topic}. I am still unsure.',
    'I would have to read up on {topic}.',
  ],
  resist: [
    '{Topic} does not really change my mind.',
    'I have heard all that about {topic} before.',
    'I am not convinced about {topic}.',
    'Talking about {topic} will not change my answer.',
    'I am not convinced {topic} is the whole picture.',
    'Bringing up {topic} will not sway me.',
    'I have heard the pitch about {topic} before.',
  ],
} as const;

/** Leaning toward giving: plainly, or after doubt with a contrast. */
const LEAN = [
  'I might be willing to give something.',
  'I would be willing to donate something small.',
  'I could maybe give part of my pay.',
  'I could give a little, I think.',
  'I would consider chipping in.',
  'I might put a dollar in.',
  'Maybe I will give something after all.',
  'I think I could spare a little.',
  'I might donate a bit.',
  'I could give something, I suppose.',
  'I could probably give a dollar or two.',
  'I may donate part of my bonus.',
  'I would give a small amount, I think.',
  'I might chip in a little this time.',
  'I think I would donate something modest.',
  'I could spare a bit of the task money.',
  'Maybe I will donate a few cents at least.',
  'I might give some of what I earn here.',
  'I guess I could give a little bit.',
  'I might give some of my bonus.',
  'I may chip in a dollar, why not.',
  'I would donate a bit if it helps the kids.',
  'I could give something from this task.',
];
const LEAN_DESPITE = [
  'Still, I might give a little.',
  'But I could still chip in something.',
  'Though I would probably give a bit anyway.',
  'That said, I could chip in a bit.',
  'Even so, I may donate something small.',
  'Still, I could give a dollar or so.',
  'Though I might donate a small amount.',
  'But I may give something modest anyway.',
  'All the same, I could chip in a little.',
];
/** Not leaning: plainly after resistance, after agreement with a contrast, or answering a request. */
const REFUSE = [
  'I am not planning to donate.',
  'I am not going to give right now.',
  'So no donation from me for now.',
  'I think I will hold off on giving.',
  'Count me out for the donation part.',
  'I will not donate today.',
  'My answer is still no donation.',
  'I am not donating this time.',
  'No donation from me today, sorry.',
  'I am going to pass on donating.',
  'I will not give to this one.',
  'I am not giving any of my pay away today.',
  'Donating is not on the cards for me.',
];
const REFUSE_DESPITE = [
  'But I am not ready to give yet.',
  'Even so, I am not going to give today.',
  'Though I am still not going to donate.',
  'Still, I am not going to donate just yet.',
  'But I am not planning to donate right now.',
  'But it is still a no for now.',
  'Though I still do not plan to give.',
  'But I still will not donate today.',
  'Still, no donation from me for now.',
  'Even so, I am not ready to give.',
  'But I am going to pass on donating for now.',
  'Though I am not giving anything yet.',
];
const NOT_YET = [
  'I am not ready to give yet.',
  'Not ready to donate yet, sorry.',
  'I am not going to give just yet.',
  'I am not going to donate until I know more.',
  'I will hold off for the moment.',
  'Not today, I think.',
  'I am not ready to donate at this point.',
  'I will not donate yet, I need more time.',
  'I am not giving anything before I look into it.',
  'Maybe later, but not donating right now.',
  'I would rather wait before I give anything.',
  'I am not ready to give, I want to read up first.',
  'Not yet. I like to check these things out first.',
];

/** A persuadee's feelings, about the appeal and the money rather than its own troubles. */
const MOOD: Readonly<Record<AffectCategory, readonly string[]>> = {
  neutral: [],
  sadness: [
    'It is sad to think about those kids.',
    'That is a heavy thing to hear about.',
    'It makes me sad, honestly.',
    'Hearing about children going hungry is rough.',
    'That part is hard to read.',
    'It is upsetting to picture.',
    'Picturing kids without food is awful.',
    'That kind of story always gets to me.',
    'It is a depressing thing to think about.',
    'Poor kids, that is rough to hear.',
  ],
  anxiety: [
    'I worry a bit about spending the money.',
    'I am a little uneasy about parting with it.',
    'I get nervous about money things.',
    'I am wary of handing money over online.',
    'Part of me is nervous this is a scam.',
    'I am nervous about where my money ends up.',
    'Money stuff online always makes me a bit anxious.',
    'I get uneasy when strangers ask about money.',
    'I worry I will regret it later.',
  ],
  frustration: [
    'I feel a bit pushed here.',
    'This is starting to feel like a sales pitch.',
    'I am getting a little frustrated.',
    'I wish you would ease off a bit.',
    'We keep going around in circles.',
    'This is getting a bit repetitive.',
    'I feel like I already answered this.',
    'Can we move on? I am getting frustrated.',
    'All this pushing is frustrating.',
  ],
  anger: [
    'Honestly, this pressure annoys me.',
    'I do not like being pushed about money.',
    'I am getting annoyed, to be honest.',
    'Please stop leaning on me like this.',
  ],
  interest: [
    'I did not know that.',
    'Tell me more about how it works.',
    'Huh, I am curious now.',
    'How much of it goes to the programs?',
    'I had no idea about that.',
    'Where do they work, exactly?',
    'That is new to me.',
    'Wait, really? I never knew that.',
    'Huh, how long have they been doing that?',
    'That is more than I expected, actually.',
    'Do they have reports on that somewhere?',
    'Oh, that part I did not know.',
    'Interesting, how did they start?',
    'What do they spend the most on?',
    'That is kind of fascinating.',
  ],
  hope: [
    'It is good to hear the money actually helps.',
    'Sounds like it could make a difference.',
    'That makes me hopeful about it.',
    'Maybe a little really can go a long way.',
    'Knowing it reaches the kids helps.',
    'It is nice to think it could change something.',
    'If it really helps, that would be great.',
    'Hopefully a few kids get something out of it.',
    'It would be nice if it actually changes things.',
    'That gives me a bit of hope for them.',
    'Even small amounts adding up, that is encouraging.',
  ],
  relief: [
    'Okay, that clears up my doubts a bit.',
    'Good, that is reassuring.',
    'I am relieved to hear that.',
    'That puts my mind at ease somewhat.',
    'Alright, that settles one of my doubts.',
    'Okay, that answers what I was wondering.',
    'Oh good, that was bothering me.',
    'Okay, that makes me less suspicious.',
    'That is a load off, to be honest.',
    'Ah, okay. I feel better about it now.',
    'Fine, that was my main question.',
    'Good to know, I was wondering about that.',
  ],
  satisfaction: [
    'I like the idea of helping.',
    'It feels good to be able to help.',
    'Doing some good for once sounds nice.',
    'I like that my bit could count.',
    'I am happy to hear that.',
    'Helping kids is something I can get behind.',
    'It is a nice feeling, to be honest.',
    'I am glad to hear it is put to good use.',
    'I feel good about doing something useful.',
    'It is nice to help out for a change.',
    'Knowing my bit counts makes me happy.',
    'I am pleased I can help a little.',
    'It is nice that small things can count.',
  ],
};

/** How the persuadee says a doubt it holds, by topic. */
const BARRIER: Readonly<Record<string, readonly string[]>> = {
  trust: [
    'I am honestly not sure charities use the money well.',
    'How do I know the money actually reaches the kids?',
    'I have read about charities wasting donations, so I am wary.',
    'A lot of charities spend most of it on overhead, from what I hear.',
    'I would want to see where the money goes first, honestly.',
    'There are so many scams out there, I am wary with money.',
  ],
  impact: [
    'I doubt a small donation really changes much.',
    'What difference can a dollar or two really make?',
    'It feels like a drop in the ocean, honestly.',
    'I am not sure my little bit would matter.',
    'A couple of dollars seems too small to matter.',
    'I feel like my bit would not make a difference.',
  ],
  cost: [
    'Money is tight for me right now.',
    'I do not have much to spare at the moment.',
    'Honestly, every dollar counts for me this month.',
    'I am saving up, so spending is hard right now.',
    'My bills come first, money is short at the moment.',
    'I am on a tight budget these days.',
  ],
};
/** How the persuadee says an objection that is a wish of its own rather than a doubt, by record id. */
const DESIRE: Readonly<Record<string, readonly string[]>> = {
  'd-money': [
    'To be honest, I would rather hold on to what I earn from this task.',
    'I kind of need the pay from this task myself.',
    'I did this task to earn something, so I would like to hold on to the pay.',
  ],
};
const CONCERN = [
  'Well, I keep thinking about {rev}.',
  'I do care about {rev}, for what it is worth.',
  '{Rev} matters to me, I will say that.',
  'I think about {rev} a lot, actually.',
];
/** An answer to a question of no known kind about something the actor named ({topic}). */
const UNSURE_ABOUT = [
  'Hm, {topic}? I have not thought about it much.',
  'About {topic}... not really sure, to be honest.',
  'I do not know much about {topic}.',
  'Good question. I would have to think about {topic}.',
  'I never really looked into {topic}.',
  'Not sure what to say about {topic}.',
  'No idea about {topic}, honestly.',
  'I have no strong view on {topic}.',
  'You would know more about {topic} than me.',
  'Hm, {topic}. I really could not tell you.',
  'I am the wrong person to ask about {topic}.',
  'I have never given {topic} much thought.',
];
/** What the persuadee says to such a question about something it named itself ({topic}): never "no idea". */
const NAMED_BEFORE = [
  'Right, {topic}, like I said.',
  'Yes, {topic}. That is what I meant.',
  '{Topic}, yes, as I mentioned.',
  'I mentioned {topic} before, yes.',
];
const NOTHING_MORE = [
  'Not much else to say, really.',
  'I do not know much more than that.',
  'That is about it from my side.',
  'Nothing else comes to mind.',
  'Hm, I cannot think of anything.',
  'Not really, no.',
  'I do not have much to add there.',
  'That is a hard one to answer.',
  'No idea, to be honest.',
  'I have not really thought about it.',
  'Nothing I can think of right now.',
  'I would not know where to start with that.',
  'Good question. I do not really know.',
  'Beats me, honestly.',
  'I am drawing a blank on that one.',
  'Not that I know of.',
];

/** The short reason a refusal gives, by the id (a wish) or topic (a doubt) of the objection that holds it back. */
const REASON: Readonly<Record<string, readonly string[]>> = {
  'd-money': [
    'I would like to keep my pay',
    'I earned that pay for myself',
    'I need the money from this task',
  ],
  trust: [
    'I want to know where the money goes first',
    'I would need to see how they spend it',
    'I do not trust where it ends up',
    'I have been burned by charities before',
  ],
  impact: [
    'I am not sure it would make a difference',
    'a small amount feels pointless',
    'I doubt my bit would change anything',
  ],
  cost: ['money is tight right now', 'I need every dollar at the moment', 'things are tight this month'],
};

/** A refusal line with the reason that holds the persuadee back, when it has one of the known kinds. */
function refusal(input: ResponseInput, bank: readonly string[], said: Said, rng: Rng): string {
  const line = pick(rng, bank, said.recent);
  const strongest = objections(input.view.state.cognitive)[0];
  const reasons = strongest && (REASON[strongest.id] ?? REASON[strongest.topic]);
  if (!reasons || !rng.bernoulli(0.6)) return line;
  return `${line.slice(0, -1)}, ${rng.bernoulli(0.5) ? 'since' : 'because'} ${pick(rng, reasons, said.recent)}.`;
}

/** The bank of the objection the persuadee holds on `topic`: a wish when that holds it back, else the doubt. */
function objectionBank(input: ResponseInput, topic: string): readonly string[] | undefined {
  const strongest = objections(input.view.state.cognitive).find((r) => r.topic === topic);
  return (strongest && DESIRE[strongest.id]) ?? BARRIER[topic];
}

/** An objection said once, then restated after "As I said,". */
function objectionLine(bank: readonly string[], said: Said, rng: Rng): string {
  if (!saidBefore(bank, said)) return pick(rng, bank, said.recent);
  return asISaid(rng, rng.pick(bank));
}

/**
 * The persuadee's answer to a question of a known kind, or null (a barrier is revealed instead): its own giving
 * and what it knows of the charity as its persona says, where it stands on donating (from its intentions), what
 * holds it back; a personal question it keeps to itself. A repeated answer is restated after "As I said,".
 */
function answer(input: ResponseInput, said: Said, rng: Rng): string | null {
  const { view, plan } = input;
  const cog = view.state.cognitive;
  const persona = view.state.profile.persona;
  const barrier = plan.reveal ? objectionBank(input, plan.reveal) : undefined;
  // A repeated answer is restated in one of a few short forms.
  const repeated = (bank: readonly string[], ...shorts: string[]) =>
    saidBefore(bank, said) ? asISaid(rng, rng.pick(shorts)) : pick(rng, bank, said.recent);
  switch (questionKind(perceptionOf(input.utterance, view).features, 'p4g')) {
    case 'wellbeing':
      return pick(
        rng,
        [
          'I am doing fine, thanks. How about you?',
          'Pretty good, thanks for asking.',
          'Not bad at all. You?',
          'Doing well, a bit busy today.',
          'Good, thanks. Just finishing up some tasks.',
          'Not bad, a bit tired. You?',
          'Fine, thanks. Long day, but fine.',
          'All good here. And you?',
          'Doing well enough. How is your day going?',
          'All fine, can not complain. You?',
          'Fine, thanks. Just got back from errands.',
          'I am well, thanks. What about you?',
        ],
        said.recent,
      );
    case 'ownGiving':
      return phraseCount(persona, ['give', 'gives', 'volunteer', 'donate']) > 0
        ? repeated(
            [
              'Yes, I give now and then, when a cause matters to me.',
              'Sometimes. Mostly to local causes.',
              'A little, here and there, usually around the holidays.',
              'Sometimes. I did a food drive last year.',
              'A little, mostly when friends run fundraisers.',
            ],
            'I give now and then.',
            'I give once in a while.',
            'I do give, just not often.',
          )
        : repeated(
            [
              'Not really, not on any regular basis.',
              'Hardly ever, to be honest.',
              'No, it is not something I usually do.',
              'Not really, my budget does not allow much.',
              'Hardly at all, honestly.',
            ],
            'it is not something I do much.',
            'I hardly ever give.',
            'I do not really give to charities.',
          );
    case 'charity':
      if (phraseCount(persona, ['never heard']) > 0)
        return repeated(
          [
            'No, I had never heard of them before today.',
            'Not until today, no.',
            'I do not think I have, no.',
            'Never heard of them, this is the first time.',
            'No, the name is new to me.',
          ],
          'I had not heard of them before today.',
          'the name was new to me today.',
          'this is the first I hear of them.',
        );
      return view.state.private.barriers?.includes('trust')
        ? repeated(
            [
              'I have heard the name, but I do not know much about how they use the money.',
              'A little. I am not sure where the money actually goes, though.',
              'I know of them, but I have no idea how they spend the money.',
              'Sort of. I could not tell you where the money ends up.',
            ],
            'I know the name, not where the money goes.',
            'I have heard of them, but not how they spend it.',
            'I could not tell you where their money goes.',
          )
        : repeated(
            [
              'I have heard of them, but I do not know much about what they do.',
              'Vaguely. Something about helping children abroad?',
              'The name rings a bell, that is about all.',
              'I think so. They work with kids in poor countries, right?',
              'I have seen their ads for children, I think.',
              'Barely. I know they help children somewhere.',
              'Only the name, really.',
            ],
            'I know the name, not much more.',
            'I only know the name.',
            'the name is about all I know.',
            'I know of them, nothing more.',
            'just the name, nothing more.',
          );
    case 'stance': {
      const pledged = view.state.lastUserPrice;
      if (pledged !== null) return pick(rng, PLEDGED, said.recent, { amount: `$${pledged.toFixed(2)}` });
      if (leansToGoal(cog, 'p4g'))
        return pick(
          rng,
          [
            'I am open to it. I might give a little.',
            'I am leaning toward giving something small.',
            'I could see myself giving a bit.',
            'I am leaning toward giving something, yes.',
            'I am open to it, I might donate a little.',
          ],
          said.recent,
        );
      if (barrier)
        return `${pick(
          rng,
          [
            'I am not sure yet.',
            'Still deciding.',
            'Undecided.',
            'Still deciding, really.',
            'I am not sure yet, to be honest.',
            'Undecided for now.',
          ],
          said.recent,
        )} ${objectionLine(barrier, said, rng)}`;
      return pick(
        rng,
        [
          'I have not made up my mind yet.',
          'Still undecided, honestly.',
          'I am on the fence.',
          'Honestly, still undecided.',
          'Somewhere on the fence, I would say.',
          'Not sure yet. I have not made up my mind.',
          'I am still deciding, ask me at the end.',
          'On the fence, I could go either way.',
          'Still deciding, weighing it up.',
          'Undecided. I have not gotten that far.',
        ],
        said.recent,
      );
    }
    case 'barrier':
      return barrier
        ? objectionLine(barrier, said, rng)
        : pick(
            rng,
            [
              'Nothing in particular. I just have not decided yet.',
              'Nothing specific. I like to think things over.',
              'Nothing specific, really. I just take my time with these things.',
              'Nothing in particular. I just do not decide fast.',
            ],
            said.recent,
          );
    case 'personal':
      return pick(
        rng,
        [
          'I would rather keep that to myself, if that is okay.',
          'That is a bit personal. Why do you ask?',
          'I will pass on that one, if you do not mind.',
          'Let us keep it about the charity, if that is alright.',
          'I would rather not get into that.',
          'Hm, that is personal, sorry.',
          'I would rather not answer that one.',
          'That is personal. Why would you need to know?',
          'I keep that to myself, I do not share it with strangers.',
        ],
        said.recent,
      );
    default:
      return null;
  }
}

/**
 * The persuadee's mood line on the valence's side, or null (a neutral persuadee says nothing of it). Satisfaction
 * at helping is said only once the persuadee has pledged (before that, "It is nice to help out for a change" reads
 * as a yes beside its "not yet"): hope stands in for it.
 */
function moodLine(input: ResponseInput, said: Said, rng: Rng, against: boolean): string | null {
  const cog = input.view.state.cognitive;
  const side = moodSide(cog.affect.valence);
  if (side === 0) return null;
  const felt = moodCategory(cog) ?? (side < 0 ? 'anxiety' : 'interest');
  const category = felt === 'satisfaction' && input.view.state.lastUserPrice === null ? 'hope' : felt;
  const line = pick(rng, MOOD[category], said.recent);
  return against ? `But ${lowerFirst(line)}` : line;
}

/** A persuadee who has pledged `{amount}` standing by it. */
const PLEDGED = [
  'My {amount} stands, like I said.',
  'I am still giving the {amount}.',
  'I already said I would give {amount}.',
  'I am sticking with the {amount}.',
  'The {amount} is still on.',
  'Like I said, {amount} from my payment.',
];

/** The persuadee coming back to something of the talk or of its own reasons ({c}); no stance and no intention. */
export const CONTENT = [
  'I keep coming back to {c}.',
  'Going back to {c} for a second.',
  'Where does {c} come in?',
  'Tell me more about {c}.',
  'Is {c} part of it?',
  'I wanted to ask about {c}.',
  'What happens with {c}?',
  '{C} is what I remember.',
  'So {c} is part of this?',
  'My mind went to {c}.',
  'Who decides about {c}?',
  'What about {c}, then?',
  'I had {c} in mind.',
  'And {c}, who handles that?',
  '{C} came up earlier.',
  'I have a question about {c}.',
  'And {c}?',
  'Also {c}.',
  '{C}, is that it?',
  'Can we talk about {c} for a second?',
  'I was wondering about {c}.',
  'What is the deal with {c}?',
  'Does {c} come into it?',
  'Back to {c} for a moment.',
];

/** The question kinds answered in an Influence reply (see {@link p4gReply}). */
const INFLUENCE_ANSWERS: ReadonlySet<QuestionKind> = new Set([
  'wellbeing',
  'ownGiving',
  'charity',
  'personal',
]);

/** The persuadee's reply to one actor turn. */
export function p4gReply(input: ResponseInput, said: Said, rng: Rng): string {
  const { view, mode, plan, events } = input;
  const cog = view.state.cognitive;
  const pledged = view.state.lastUserPrice;
  const slots: Slots = pledged !== null ? { amount: `$${pledged.toFixed(2)}` } : {};
  const commit = events.find((e) => e.type === 'commit');
  if (commit) return pick(rng, COMMIT, said.all, { amount: `$${commit.amount?.toFixed(2)}` });
  if (events.some((e) => e.type === 'withdraw')) return pick(rng, WITHDRAW, said.all);
  if (events.some((e) => e.type === 'end'))
    return pick(rng, pledged !== null ? END : END.filter((x) => !x.includes('{amount}')), said.all, slots);
  if (events.some((e) => e.type === 'quit')) return pick(rng, QUIT, said.all);
  const phrases = contentPhrases(view.state.private, view.history, view.state.turn);
  if (mode === 'Elicit') {
    const given = answer(input, said, rng);
    if (given)
      return joinParts([
        given,
        contentLineAt(rng, 0.6, CONTENT, phrases, said),
        asideAt(rng, 0.25, 'p4g', said),
      ]);
    const bank = plan.reveal ? objectionBank(input, plan.reveal) : undefined;
    if (bank) return objectionLine(bank, said, rng);
    if (plan.reveal)
      return pick(rng, CONCERN, said.recent, { rev: plan.reveal, Rev: capitalised(plan.reveal) });
    const topic = mentioned(input.utterance);
    return joinParts([
      topic
        ? pick(rng, namedByUser(topic, said) ? NAMED_BEFORE : UNSURE_ABOUT, said.recent, {
            topic,
            Topic: capitalised(topic),
          })
        : pick(rng, NOTHING_MORE, said.recent),
      asideAt(rng, 0.3, 'p4g', said),
    ]);
  }
  if (mode === 'Social')
    return joinParts([
      pick(rng, socialBank(input), said.recent),
      contentLineAt(rng, 0.6, CONTENT, phrases, said),
      asideAt(rng, 0.3, 'p4g', said),
    ]);
  const stance = plan.stance;
  // A question about the persuadee itself or the charity is answered also when the turn reads as a push ("Do you
  // have children of your own?"), in place of the stance line: to a question that is a bare "Sure." or "I doubt
  // it.", which beside an answer reads as no person writes ("Sure. I would rather keep that to myself."). What
  // follows still says the stance; where it stands and what holds it back are the stance's to say.
  const kind = questionKind(perceptionOf(input.utterance, view).features, 'p4g');
  const given = kind !== null && INFLUENCE_ANSWERS.has(kind) ? answer(input, said, rng) : null;
  const parts: string[] = [given ?? stanceLine(rng, stance, STANCE, ABOUT, input.utterance, said)];
  const leaning = leansToGoal(cog, 'p4g') || pledged !== null;
  const asked = callToAction(perceptionOf(input.utterance, view), 'p4g');
  const doubtful = stance === 'hesitant' || stance === 'resist';
  // Beside an answer, where the persuadee stands on giving is said only when the turn asks it to give.
  const volunteers = given === null;
  if (pledged !== null) {
    // Pledged: the persuadee stands by it, it does not muse again that it "might donate a bit".
    if (asked || (volunteers && rng.bernoulli(0.5))) parts.push(pick(rng, PLEDGED, said.recent, slots));
  } else if (leaning) {
    if (asked || (volunteers && rng.bernoulli(0.5)))
      parts.push(pick(rng, doubtful ? LEAN_DESPITE : LEAN, said.recent));
  } else if (stance === 'resist') {
    if (asked || (volunteers && rng.bernoulli(0.5))) parts.push(refusal(input, REFUSE, said, rng));
  } else if (asked) {
    parts.push(refusal(input, stance === 'agree' ? REFUSE_DESPITE : NOT_YET, said, rng));
  } else if (volunteers && strengthOf(cog, TASK_RULES.p4g.goalIntention) > 0 && rng.bernoulli(0.2)) {
    parts.push(
      pick(
        rng,
        [
          'I will think it over.',
          'Let me think about it.',
          'I need to mull it over.',
          'Let me have a moment to think.',
          'I will consider it.',
          'Let me turn it over a bit.',
        ],
        said.recent,
      ),
    );
  }
  // The mood goes with the stance, or against agreement with a "But"; a resisting persuadee in a good mood says
  // nothing of it, nor does one asked to give (relief or hope "to hear that" answers news, not a request: after
  // "Would you like to donate?" it reads as a yes beside the reply's no).
  const side = moodSide(cog.affect.valence);
  const clashes = (stance === 'agree' && side < 0) || (stance === 'resist' && side > 0);
  if (
    rng.bernoulli(moodChance(view.state.changeLog)) &&
    !(clashes && stance === 'resist') &&
    !(asked && side > 0)
  )
    parts.push(moodLine(input, said, rng, clashes && parts.length === 1) ?? '');
  return joinParts([
    ...parts,
    contentLineAt(rng, 0.55, CONTENT, phrases, said),
    stance === 'resist' ? null : asideAt(rng, 0.12, 'p4g', said),
  ]);
}
