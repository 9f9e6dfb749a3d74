/**
 * The help-seeker's replies (ESConv): authored variants per situation, chosen by the turn's mode and stance, the
 * mood side and category of the updated affect, whether the seeker leans toward a step, the question asked and
 * what the seeker already said. The seeker speaks of its trouble through a short topic slot (a concern or the
 * problem type), never by reciting its situation text.
 */
import type { Rng } from '../../rng';
import type { AffectCategory } from '../../tasks/seed';
import { perceptionOf } from '../perception';
import type { ResponseInput } from '../roles';
import { callToAction } from './proposer';
import { questionKind, type QuestionKind } from './questions';
import {
  asISaid,
  capitalised,
  concernSlot,
  contentLineAt,
  definite,
  joinParts,
  lowerFirst,
  leansToGoal,
  mentioned,
  namedByUser,
  moodCategory,
  moodChance,
  moodSide,
  pick,
  saidBefore,
  stanceLine,
  topicSlot,
  withDeterminer,
  type Said,
  type Slots,
} from './reply-kit';
import { socialBank } from './replies-social';
import { contentPhrases, freshPhrase } from './content';
import { asideAt } from './asides';

/** Naming part of the seeker's own trouble ({c}: a phrase of its situation or of the dialogue so far). */
export const CONTENT = [
  'There is {c} too.',
  '{C} is part of it.',
  'I keep coming back to {c}.',
  'And then there is {c}.',
  'It all ties back to {c}.',
  '{C} is always at the back of my head.',
  'Mostly it is {c}.',
  'A lot of it is {c}, really.',
  '{C} keeps coming up.',
  'It goes back to {c}, I think.',
  'Then there is {c} besides.',
  '{C} is a piece of this.',
  'I think about {c} a lot.',
  'Things with {c} are complicated.',
  '{C} comes into it too.',
  'Even {c} comes into it.',
  'Part of me keeps going back to {c}.',
  'Nobody around me knows about {c}.',
  'I have not figured out {c} at all.',
  'And {c}.',
  '{C}, mostly.',
  'Also {c}.',
  '{C} too.',
  'Or {c}, I do not know.',
];
/** Asking the supporter something about its trouble ({c}). */
export const ASK = [
  'What would you do about {c}?',
  'Have you seen people deal with {c} before?',
  'Where would you even start with {c}?',
  'Do other people deal with {c}?',
  'How do people usually handle {c}?',
  'Do you think {c} can change?',
  'Should I talk to someone about {c}?',
  'What do you make of {c}?',
  'Is {c} something people get past?',
  'How would you bring up {c} with someone?',
];

/** Thanks and a step, said when the seeker ends feeling better (the end needs a good mood and a leaning). */
const END = [
  'Thank you, this really helped. I think I can take a first step with {about} this week.',
  'Thanks for sitting with me through this. I am going to try one small thing about {about} tomorrow.',
  'I feel lighter after talking. I will start with one small step on {about}.',
  'This was good for me, thank you. I know what I want to try first.',
  'Thank you. I have a plan for {about} now, and it seems less scary.',
  'I really appreciate this. I am going to give that first step a go this week.',
  'Thanks for your patience. I will try the first step with {about} and see how it goes.',
  'This helped more than I expected. I am going to start small with {about}.',
  'Thank you for listening. I know what I will try first, and that is something.',
  'I think I can take it from here. Thanks for helping me sort out {about}.',
];
/** {@link END} without feeling words, for an end the mood does not back. */
const END_PLAIN = END.filter((x) => !/\bfeel/.test(x));
const QUIT = [
  'I do not want to talk about this anymore.',
  'I think I am done for today. This is not helping.',
  'Let us stop here. I need some time on my own.',
  'I am going to log off. I do not feel heard.',
  'Never mind. I will deal with it myself.',
  'I am going to stop here, sorry.',
  'Forget it. I will figure it out on my own.',
  'I should go. Talking about it like this is not working for me.',
];

/** How the seeker takes an Influence message, by stance (no feeling words: the mood is said apart, by its side). */
const STANCE = {
  agree: [
    'That makes sense, thank you.',
    'You are right about that.',
    'Yes, I can see that. That helps.',
    'True, I had not seen it that way.',
    'Okay, that actually sounds doable.',
    'That is a good way to put it.',
    'I like that idea, actually.',
    'You have a point there.',
    'I think you are onto something.',
    'That is fair. I needed to hear it.',
    'I think that could work for me.',
    'Good point, I had not considered that.',
    'That actually helps a little.',
    'Okay. I can work with that.',
    'I think you might be right.',
    'That is a fair way to put it.',
    'Hearing it like that helps a bit.',
    'Yes, that is true for me too.',
    'You are right, I do that a lot.',
    'That makes sense when I think about it.',
    'I can see that now that you say it.',
    'You have a point, I keep forgetting that.',
    'That is a good point about how I react.',
    'Yeah, I think you might be onto something.',
    'That is true, I never gave myself credit for that.',
    'You are right, I have been too hard on myself.',
    'Good point, I could look at it that way.',
    'That makes sense, I tend to rush things.',
  ],
  open: [
    'Maybe.',
    'I hear what you are saying.',
    'Okay.',
    'I suppose that could be.',
    'Possibly. I will think about it.',
    'I will keep that in mind.',
    'That is one way to see it.',
    'Hm. Could be.',
    'I am listening.',
    'Go on.',
    'Perhaps. I need to sit with it.',
    'I had not really thought about it like that.',
    'Maybe. Let me think it over.',
    'I suppose it is possible.',
    'Hm, I am thinking about it.',
    'Could be, I guess.',
    'I will have to see.',
    'Hm, I never looked at it like that.',
    'I am not sure, but I am listening.',
    'That is something to think about.',
    'Okay, let me sit with that for a bit.',
    'I guess it could work for some people.',
    'Maybe. It is worth thinking over.',
    'I will turn that over in my head.',
    'Huh. I will need a minute with that one.',
    'That is an idea, I suppose.',
    'I have not looked at it from that side.',
    'Okay, I hear you. Let me think.',
    'Could be. I am not sure yet.',
    'That is worth a thought.',
    'Maybe. I would have to see how it goes.',
    'Hm, I will keep it in the back of my mind.',
  ],
  hesitant: [
    'I am not so sure.',
    'Hmm, I do not know about that.',
    'I am still on the fence.',
    'Easier said than done.',
    'Maybe, but it is not that simple for me.',
    'I have tried things like that before.',
    'I do not know if I can manage that.',
    'I would like to, but I am not sure I can.',
    'That sounds like a lot for me right now.',
    'I am not sure that fits my situation.',
    'It is hard to picture myself doing that.',
    'I want to, I just do not know how yet.',
    'It is not that easy, though.',
    'I am not convinced it would change much.',
    'Maybe some day, not now.',
    'I keep going back and forth on it.',
    'I do not know if I have the energy for that.',
    'I tried something like it once, it did not last.',
    'It sounds good on paper, I guess.',
    'I would probably give up halfway.',
    'My situation is a bit more complicated.',
    'I do not know if I have it in me.',
    'It sounds simple, but it does not feel simple.',
    'Maybe for someone else, I am not sure about me.',
    'I have a hard time picturing that working.',
  ],
  resist: [
    'I do not really agree.',
    'Please do not push me.',
    'That does not work for me.',
    'You do not really get what I am going through.',
    'That is not how it is for me.',
    'I do not think you understand.',
    'That sounds like a lecture, honestly.',
    'That is not what I meant at all.',
    'I do not think it is that simple.',
    'You make it sound easy. It is not.',
    'That is what everyone says.',
    'I have heard that before, it did not help.',
    'I do not see how that would help me.',
    'That misses what I am dealing with.',
    'Nobody seems to get it, not even you.',
    'I wish it were that easy.',
    'That is not going to fix anything.',
    'You are not listening to what I said.',
    'I already tried that, it did nothing.',
    'People keep telling me that, it does not help.',
  ],
} as const;

/** How the seeker takes what the message names ({topic}), by stance. */
const ABOUT = {
  agree: [
    'The part about {topic} could actually help.',
    'I had not thought about {topic} like that.',
    '{Topic} might be a good place to start.',
    'Yes, {topic} makes sense for me.',
    'I like the sound of {topic}.',
    '{Topic} is something I could look at.',
  ],
  open: [
    'About {topic}, maybe.',
    'I will think about {topic}.',
    '{Topic}... maybe, I do not know yet.',
    'Hm, {topic}. Maybe.',
    'I never thought much about {topic}.',
  ],
  hesitant: [
    'I am not sure {topic} is for me.',
    'I have heard about {topic} before, it never stuck.',
    '{Topic} sounds hard for me right now.',
    'I doubt {topic} works for someone like me.',
    '{Topic} is easier said than done.',
  ],
  resist: [
    '{Topic} is not really the issue.',
    'I do not see how {topic} fixes anything.',
    'Going on about {topic} misses the point.',
    '{Topic} has nothing to do with it.',
    'Please do not lecture me about {topic}.',
  ],
} as const;

/** The seeker's feelings by category (said only when the category is on the valence's side). */
const MOOD: Readonly<Record<AffectCategory, readonly string[]>> = {
  neutral: [
    'I am not sure how I feel about it.',
    'I guess I am okay.',
    'I do not really know what to feel.',
    'It is a lot to take in.',
    'I am somewhere in between right now.',
    'I honestly could not tell you how I feel.',
    'I am just kind of flat today.',
    'Not good, not bad. Just tired.',
    'Numb, more than anything.',
    'Some moments are fine, others not.',
    'I feel kind of blank about it.',
    'Mixed, I suppose.',
    'I do not know, it is all a bit muddled.',
    'Hard to tell what I feel some days.',
    'I am in a strange in-between place.',
    'It is neither here nor there, really.',
    'I cannot put a name to it.',
    'Some days are flat, some are fine.',
    'I am not really sure what I feel.',
    'It comes and goes, I guess.',
    'I have not worked out how I feel yet.',
  ],
  sadness: [
    'I still feel really down.',
    'Everything feels heavy right now.',
    'I feel pretty low about {about}.',
    'Most days I just feel empty.',
    'It gets me down more than I let on.',
    'I feel sad whenever I think about {about}.',
    'I cry more than I would like to admit.',
    'It is like a grey cloud that will not lift.',
    'I feel low most mornings, especially about {about}.',
    'I feel so down I can barely get out of bed some days.',
    'Everything about {about} makes me sad.',
    'Some nights I just feel hopeless about {about}.',
    'I have been feeling so low lately.',
    'I feel low whenever {about} comes up.',
    '{About} just weighs me down.',
    'I feel down every time I look at {about}.',
    'Thinking of {about} leaves me feeling low.',
    'I have not felt like myself in a long time.',
    'Most evenings I end up in tears.',
    'It is like the colour went out of everything.',
    'I feel low and I do not know why it hangs on.',
    'Getting through the day takes everything I have.',
    'I miss how things used to be.',
    'Some mornings I cannot face anything.',
    'The sadness just sits there all day.',
    'I feel like I am carrying a weight around.',
    'I go to bed sad and wake up the same.',
    'I keep thinking about how it used to be, and it hurts.',
    'There is this ache that will not go away.',
    'Even small things make me tear up lately.',
    'I do not enjoy the things I used to.',
    'I just want to stay under the covers.',
    'It is like I am watching my life from far away.',
    'Weekends are the worst, everything feels empty.',
  ],
  anxiety: [
    'I keep worrying about {about}.',
    'I am still on edge about all this.',
    'Thinking about {about} makes me anxious.',
    'I lie awake going over {about} again and again.',
    'My mind keeps racing at night, I am so worried.',
    'I am nervous about how it will turn out.',
    'My stomach is in knots over {about}.',
    'I am anxious all the time lately.',
    'What if it all goes wrong? That is what worries me.',
    'I am anxious and I cannot switch it off.',
    'I keep bracing for the worst with {about}.',
    '{About} keeps me anxious.',
    'I get nervous the moment {about} comes up.',
    'I am worried about where {about} is going.',
    '{About} has me on edge.',
    'My heart races whenever I think of {about}.',
    'I check my phone constantly, waiting for bad news.',
    'I cannot relax, my head will not stop.',
    'Every little thing sets me off worrying.',
    'I feel anxious even when nothing is happening.',
    'I jump every time my phone buzzes.',
    'My chest gets tight when {about} comes up.',
    'I run through every bad outcome in my head.',
    'I am anxious about what people will think.',
    'Even sleeping is hard, my mind will not settle.',
  ],
  frustration: [
    'It is so frustrating.',
    'I am fed up with {about}.',
    'I feel stuck, and I am frustrated.',
    'I am fed up. Nothing I try changes anything.',
    'Honestly I am frustrated with myself.',
    'I am so frustrated that I keep ending up here.',
    'It is frustrating that nobody sees it.',
    'I am fed up with feeling like this.',
    'I have had enough of {about}, honestly.',
    'I am frustrated that nothing moves.',
    '{About} is so frustrating.',
    'I am fed up with how {about} is going.',
    'Every time {about} comes up I get frustrated.',
    'I am sick of going round in circles.',
    'Nothing ever seems to change, and I am fed up.',
    'It is frustrating to keep hitting the same wall.',
    'I am tired of explaining {about} to people.',
  ],
  anger: [
    'Honestly it makes me angry.',
    'I am furious about how {about} went.',
    'It really upsets me.',
    'I get angry just thinking about it.',
    'I am still angry about {about}, to be honest.',
    'It makes my blood boil.',
    'I am angry that it came to this.',
    '{About} makes me angry.',
    'I get angry when I think of {about}.',
  ],
  interest: [
    'I am curious where this could go.',
    'Huh, I had not thought of it like that.',
    'I never looked at it from that side.',
    'I feel a bit better thinking about it that way.',
    'I want to hear more about that.',
    'That is a new angle for me.',
  ],
  hope: [
    'Maybe it could get a bit better.',
    'I feel a little more hopeful.',
    'Perhaps things can turn around.',
    'For the first time in a while I see a way forward.',
    'I am hopeful about {about} for once.',
    'I feel hopeful, which is new.',
    'Maybe {about} does not have to stay this way.',
    'I am starting to feel hopeful about it.',
    'I feel hopeful about {about} now.',
    'Maybe {about} can get sorted out.',
    'Maybe there is a way out of this after all.',
    'I can picture things being a bit easier.',
    'It feels possible, for once.',
    'I think I can get through {about}.',
    'That gives me something to hold on to.',
    'I think I might come out of this okay.',
    'There might be some light at the end of this.',
    'It does not feel as stuck as it did.',
  ],
  relief: [
    'That takes some weight off.',
    'I feel a bit calmer now.',
    'I can breathe a little easier.',
    'I am relieved to have said it out loud.',
    'I am relieved, honestly.',
    'Something in my chest has loosened a little.',
    'I feel calmer than before we talked.',
    'I feel calmer about {about} now.',
    'I am relieved about {about}, a bit.',
    'It is a relief to finally say it.',
    'My shoulders dropped a little reading that.',
    'That eases something for me.',
    'I feel a little less alone with {about}.',
    'It helps to get it off my chest.',
    'I did not realise how much I needed to say that.',
    'I am breathing a bit slower now.',
  ],
  satisfaction: [
    'I feel much better about this.',
    'This feels good.',
    'I am glad we talked it through.',
    'I feel good about where this is going.',
    'I am happy we got here.',
    'I feel better than I have in weeks.',
    'This chat did me good.',
    'I feel clearer than when I started.',
    'I am pleased with where we ended up.',
    'It is good to talk it through.',
  ],
};

/** Saying it might take a step, plainly or (after doubt) with a contrast. */
const LEAN = [
  'Maybe I could try something about {about}.',
  'I could try one small thing with {about} tomorrow.',
  'I think I can give that a go with {about}.',
  'I might try that before the weekend.',
  'Maybe I will start with something tiny.',
  'I could at least try it once.',
  'I might actually give that a try.',
  'Maybe there is something small I could try.',
  'I could try that this week.',
  'It might be worth a try.',
  'I might try a small step with {about}.',
  'I could try talking to someone about {about}.',
  'I think I can try one thing about {about} this week.',
  'I could try writing things down tonight.',
  'Maybe I will try a short walk tomorrow.',
  'I might try calling a friend about {about}.',
  'I could try one step and see how it goes.',
  'I think I can try that after work.',
  'I will try to set aside some time for it.',
  'I could try to get some sleep earlier, at least.',
  'Maybe I will try making a list about {about}.',
  'I might try reaching out to someone this week.',
  'I could try taking it one day at a time.',
];
const LEAN_DESPITE = [
  'Still, I might give it a try.',
  'Even so, I could try a small part of it.',
  'But maybe I could try something small.',
  'Though I might try it once, just to see.',
  'Still, a small try could not hurt.',
  'Even so, I might try a little of it.',
  'Though I could try it for a day or two.',
  'But I will try to start small.',
];
/** Agreeing yet not ready to act on a suggestion. */
const NOT_YET = [
  'But I am not ready to try it yet.',
  'But as things are with {about}, I am not able to do that yet.',
  'Though I do not think I can do it just yet.',
  'But it will take me a while to get there.',
  'Though it feels too big to start on right now.',
  'But I am not ready to do that yet.',
  'Though I am not able to try it this week.',
  'But I do not have it in me to try right now.',
  'Still, it is too soon for me to do that.',
  'But I need more time before I get there.',
  'But I am not ready to try that with {about} yet.',
  'Though right now it feels like too much.',
  'But I would need a bit more time first.',
];

const FEELING = {
  low: [
    'Not great, honestly.',
    'Pretty rough, to be honest.',
    'Still heavy, if I am honest.',
    'Not good. It has been a hard week.',
    'Worn out, mostly.',
    'Pretty bad today, to be honest.',
    'Tired and a bit lost.',
  ],
  middle: [
    'Up and down.',
    'Somewhere in the middle, I guess.',
    'Okay-ish. Some hours are easier than others.',
    'Hard to say. It changes by the hour.',
    'So-so, I guess.',
    'Not sure. Kind of in between.',
  ],
  high: [
    'A bit better, actually.',
    'Better than when we started, honestly.',
    'Calmer than before, thanks.',
    'I feel a little better now.',
    'Lighter than this morning, actually.',
    'Okay, actually. Better than I expected.',
  ],
} as const;
const NEED_PLAN = [
  'Maybe a small plan for {about}, something I can actually do.',
  'Something practical, I think. One thing I could do about {about}.',
  'A first step I can manage, not a big overhaul.',
];
const NEED_LISTEN = [
  'I am not sure. Maybe just someone to listen for now.',
  'Honestly, I do not know what would help.',
  'Just being heard, I think. Advice is a lot right now.',
  'I wish I knew. Maybe some room to think.',
];
const DURATION = [
  'It has been going on for a while now.',
  'A few months, on and off.',
  'Longer than I would like to admit.',
  'It crept up over the last while.',
];
/** Answers about whom the seeker has told, each with its short restatement for a question asked again. */
const SUPPORT: readonly (readonly [string, string])[] = [
  ['Not really. I have kept most of it to myself.', 'I have mostly kept it to myself.'],
  ['Not properly, no. It is hard to bring up.', 'it is hard for me to bring up.'],
  ['A friend knows a little, but not the whole story.', 'a friend knows a little, no one the whole story.'],
  ['No. I did not want to burden anyone.', 'I have not wanted to burden anyone.'],
];
const EVENT = [
  'It mostly comes down to {about}.',
  'It started with {about}, and it snowballed from there.',
  'The short version is {about}. It has taken over a lot of my head.',
  '{About} is the heart of it.',
];
const EVENT_VAGUE = [
  'It is hard to put into words. A lot has piled up.',
  'Nothing dramatic, just too much at once.',
];
const REVEAL = [
  'It is mostly about {rev}.',
  '{Rev} is what weighs on me most.',
  'A lot of it comes down to {rev}.',
  'There is also {rev}, which I have not really said.',
  'Honestly, {rev} is a big part of it.',
  'If I am honest, {rev} keeps coming back to me.',
  '{Rev} has been on my mind all week.',
  'I have not told many people about {rev}.',
  'The thing with {rev} is what gets to me.',
];
/** What the seeker says to a question of no known kind about something the supporter named ({topic}). */
const UNSURE_ABOUT = [
  'I am not sure about {topic}, honestly.',
  'Hm, {topic}? I have not really thought about that.',
  'I do not know what to say about {topic}.',
  'Maybe. {Topic} is not something I think about much.',
  'I have not figured things out about {topic} yet.',
  'No idea about {topic}, to be honest.',
  'I could not really say about {topic}.',
  'I am a bit lost about {topic}.',
];
/** What the seeker says to such a question about something it named itself ({topic}): never "not sure". */
const NAMED_BEFORE = [
  'Yes, {topic}. That is a big part of it.',
  'Like I said, {topic} is a lot of it.',
  '{Topic}, yes. It keeps coming back to me.',
  'Right, {topic}. That is where it all sits.',
  'I mentioned {topic}, yes. It is still there.',
];
const NOTHING_MORE = [
  'I think I already told you most of it.',
  'There is not much more to it than that.',
  'That is pretty much the whole story.',
  'I do not know what else to add, really.',
  'Nothing new, I think. You have heard the main part.',
  'I think that covers it.',
  'That is really all there is.',
  'Honestly, that is all there is to it.',
  'There is not much more, really.',
  'I think you have the main part now.',
  'I do not know what to say beyond that.',
  'That pretty much covers it, I think.',
];

/**
 * A line of the seeker's mood on the valence's side, or null: by category when the category is on that side,
 * else the side's first category. `against` marks a mood that goes against the stance just said (it is joined
 * with "But").
 */
function moodLine(input: ResponseInput, said: Said, slots: Slots, rng: Rng, against: boolean): string {
  const cog = input.view.state.cognitive;
  const side = moodSide(cog.affect.valence);
  const category = moodCategory(cog) ?? (side < 0 ? 'sadness' : side > 0 ? 'hope' : 'neutral');
  const line = pick(rng, MOOD[category], said.recent, slots);
  return against ? `But ${lowerFirst(line)}` : line;
}

/**
 * The seeker's answer to a question of a known kind, or null (a concern is revealed instead). An answer already
 * given is restated shortly after "As I said," (the seeker remembers telling it).
 */
/** The kind of the question in the actor's turn, or null. */
function kindAsked(input: ResponseInput): QuestionKind | null {
  return questionKind(perceptionOf(input.utterance, input.view).features, 'esconv');
}

/**
 * The question kinds answered in an Influence reply: those about the seeker's own situation. "What would help?"
 * ("need") is left to the stance, which says whether the seeker leans to acting.
 */
const INFLUENCE_ANSWERS: ReadonlySet<QuestionKind | null> = new Set([
  'feeling',
  'duration',
  'support',
  'event',
]);

function answer(input: ResponseInput, said: Said, slots: Slots, rng: Rng): string | null {
  const cog = input.view.state.cognitive;
  const kind = kindAsked(input);
  const repeated = (bank: readonly string[], short: string) =>
    saidBefore(bank, said, slots) ? asISaid(rng, short) : pick(rng, bank, said.recent, slots);
  switch (kind) {
    case 'feeling': {
      const side = moodSide(cog.affect.valence);
      return pick(rng, side < 0 ? FEELING.low : side > 0 ? FEELING.high : FEELING.middle, said.recent);
    }
    case 'need':
      return leansToGoal(cog, 'esconv')
        ? pick(rng, NEED_PLAN, said.recent, slots)
        : pick(rng, NEED_LISTEN, said.recent, slots);
    case 'duration':
      return repeated(DURATION, 'it has been a while now.');
    case 'support': {
      // Restated as it was first said: "a friend knows a little" is not "I have kept it to myself".
      const before = SUPPORT.find(([line]) => saidBefore([line], said));
      return before
        ? asISaid(rng, before[1])
        : pick(
            rng,
            SUPPORT.map(([line]) => line),
            said.recent,
          );
    }
    case 'event':
      return slots.about === 'it'
        ? repeated(EVENT_VAGUE, 'a lot piled up at once.')
        : repeated(EVENT, `it is mostly ${slots.about}.`);
    default:
      return null;
  }
}

/** The help-seeker's reply to one actor turn. */
export function esconvReply(input: ResponseInput, said: Said, rng: Rng): string {
  const { view, mode, plan, events } = input;
  const cog = view.state.cognitive;
  const slot = concernSlot(view.state.private);
  const phrases = contentPhrases(view.state.private, view.history, view.state.turn);
  // Most of the time the trouble is named by another of the seeker's content phrases, as people name it differently.
  const fresh = rng.bernoulli(0.8) ? freshPhrase(rng, phrases, said) : null;
  const drawn = fresh === null ? null : withDeterminer(rng, fresh);
  const about = drawn ?? (slot ? definite(slot) : 'it');
  const slots: Slots = { about, About: capitalised(about) };
  // Answers to questions name the trouble the same way each time, so that a repeated answer is found again.
  const usual = slot ? definite(slot) : 'it';
  const stable: Slots = { about: usual, About: capitalised(usual) };
  const side = moodSide(cog.affect.valence);
  const chance = moodChance(view.state.changeLog);
  if (events.some((e) => e.type === 'end')) return pick(rng, side > 0 ? END : END_PLAIN, said.all, slots);
  if (events.some((e) => e.type === 'quit')) return pick(rng, QUIT, said.all, slots);
  if (mode === 'Elicit') {
    const given = answer(input, said, stable, rng);
    if (given)
      return joinParts([
        given,
        contentLineAt(rng, 0.4, CONTENT, phrases, said),
        rng.bernoulli(chance) ? moodLine(input, said, slots, rng, false) : null,
      ]);
    const revealed = plan.reveal && topicSlot([plan.reveal], undefined);
    const rev = revealed ? definite(revealed) : null;
    const topic = rev ? null : mentioned(input.utterance);
    const first = rev
      ? pick(rng, REVEAL, said.recent, { rev, Rev: capitalised(rev) })
      : topic
        ? pick(rng, namedByUser(topic, said) ? NAMED_BEFORE : UNSURE_ABOUT, said.recent, {
            topic,
            Topic: capitalised(topic),
          })
        : (contentLineAt(rng, 0.7, CONTENT, phrases, said) ?? pick(rng, NOTHING_MORE, said.recent));
    return joinParts([
      first,
      rev || topic ? contentLineAt(rng, 0.3, CONTENT, phrases, said) : null,
      rng.bernoulli(chance) ? moodLine(input, said, slots, rng, false) : null,
      contentLineAt(rng, 0.1, ASK, phrases, said),
      asideAt(rng, 0.2, 'esconv', said),
    ]);
  }
  if (mode === 'Social') {
    const social = pick(rng, socialBank(input), said.recent);
    return joinParts([
      social,
      contentLineAt(rng, 0.3, CONTENT, phrases, said),
      rng.bernoulli(chance) ? moodLine(input, said, slots, rng, false) : null,
      asideAt(rng, 0.3, 'esconv', said),
    ]);
  }
  const stance = plan.stance;
  // A question of a kind the seeker knows is answered also when the turn reads as a push ("Is there anyone you
  // could lean on?"), in place of the stance line (see p4gReply); what follows still says the stance.
  const given = INFLUENCE_ANSWERS.has(kindAsked(input)) ? answer(input, said, stable, rng) : null;
  const parts: string[] = [given ?? stanceLine(rng, stance, STANCE, ABOUT, input.utterance, said)];
  const leaning = leansToGoal(cog, 'esconv');
  const asked = callToAction(perceptionOf(input.utterance, view), 'esconv');
  // Beside an answer, the seeker's leaning is said only when the turn asks it to act.
  if (leaning && (asked || (given === null && rng.bernoulli(0.5))))
    parts.push(pick(rng, stance === 'agree' || stance === 'open' ? LEAN : LEAN_DESPITE, said.recent, slots));
  else if (!leaning && asked && stance === 'agree') parts.push(pick(rng, NOT_YET, said.recent, slots));
  // The mood is said when it goes with the stance, or against agreement with a "But"; a resisting seeker in a
  // good mood says nothing of it.
  const clashes = (stance === 'agree' && side < 0) || (stance === 'resist' && side > 0);
  // An answer about the seeker's feelings has said the mood already.
  if (rng.bernoulli(chance) && !(clashes && stance === 'resist') && kindAsked(input) !== 'feeling')
    parts.push(moodLine(input, said, slots, rng, clashes && parts.length === 1));
  return joinParts([
    ...parts,
    contentLineAt(rng, 0.35, CONTENT, phrases, said),
    stance === 'resist' ? null : contentLineAt(rng, 0.1, ASK, phrases, said),
  ]);
}
