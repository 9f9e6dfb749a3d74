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
import { questionKind } from './questions';
import {
  asISaid,
  capitalised,
  contentLineAt,
  joinParts,
  leansToGoal,
  mentioned,
  moodCategory,
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

const COMMIT = [
  'Okay, I will donate {amount} of my payment.',
  'Alright, put me down for {amount}.',
  'Let us do it. {amount} from my payment can go to the kids.',
  'I can spare {amount}. Count me in.',
  'Okay. I will give {amount} and see how it goes.',
  'Fine, {amount} it is. Please make sure it gets there.',
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
  ],
} as const;

/** How the persuadee takes what the appeal names ({topic}), by stance. */
const ABOUT = {
  agree: [
    'The part about {topic} is a good point.',
    'I did not know that about {topic}.',
    'Okay, {topic} is worth thinking about.',
    'I had not heard that about {topic}.',
  ],
  open: [
    'Okay, {topic}. Go on.',
    'Hm, {topic}. I see.',
    'I did not know much about {topic}.',
    'Okay, tell me more about {topic}.',
  ],
  hesitant: [
    'I am not sure what to think about {topic}.',
    '{Topic} is a lot to take in.',
    'I would want to know more about {topic} first.',
    'I would need to know more about {topic}.',
  ],
  resist: [
    '{Topic} does not really change my mind.',
    'I have heard all that about {topic} before.',
    'I am not convinced about {topic}.',
    'Talking about {topic} will not change my answer.',
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
];
const LEAN_DESPITE = [
  'Still, I might give a little.',
  'But I could still chip in something.',
  'Though I would probably give a bit anyway.',
  'That said, I could chip in a bit.',
  'Even so, I may donate something small.',
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
];
const REFUSE_DESPITE = [
  'But I am not ready to give yet.',
  'Even so, I am not going to give today.',
  'Though I am still not going to donate.',
  'Still, I am not going to donate just yet.',
  'But I am not planning to donate right now.',
  'But it is still a no for now.',
  'Though I still do not plan to give.',
];
const NOT_YET = [
  'I am not ready to give yet.',
  'Not ready to donate yet, sorry.',
  'I am not going to give just yet.',
  'I am not going to donate until I know more.',
  'I will hold off for the moment.',
  'Not today, I think.',
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
  ],
  anxiety: [
    'I worry a bit about spending the money.',
    'I am a little uneasy about parting with it.',
    'I get nervous about money things.',
    'I am wary of handing money over online.',
    'Part of me is nervous this is a scam.',
  ],
  frustration: [
    'I feel a bit pushed here.',
    'This is starting to feel like a sales pitch.',
    'I am getting a little frustrated.',
    'I wish you would ease off a bit.',
    'We keep going around in circles.',
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
  ],
  hope: [
    'It is good to hear the money actually helps.',
    'Sounds like it could make a difference.',
    'That makes me hopeful about it.',
    'Maybe a little really can go a long way.',
    'Knowing it reaches the kids helps.',
    'It is nice to think it could change something.',
  ],
  relief: [
    'Okay, that clears up my doubts a bit.',
    'Good, that is reassuring.',
    'I am relieved to hear that.',
    'That puts my mind at ease somewhat.',
    'Alright, that settles one of my doubts.',
    'Okay, that answers what I was wondering.',
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
  ],
};

/** How the persuadee says a doubt it holds, by topic. */
const BARRIER: Readonly<Record<string, readonly string[]>> = {
  trust: [
    'I am honestly not sure charities use the money well.',
    'How do I know the money actually reaches the kids?',
    'I have read about charities wasting donations, so I am wary.',
    'A lot of charities spend most of it on overhead, from what I hear.',
  ],
  impact: [
    'I doubt a small donation really changes much.',
    'What difference can a dollar or two really make?',
    'It feels like a drop in the ocean, honestly.',
    'I am not sure my little bit would matter.',
  ],
  cost: [
    'Money is tight for me right now.',
    'I do not have much to spare at the moment.',
    'Honestly, every dollar counts for me this month.',
    'I am saving up, so spending is hard right now.',
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
];
const NOTHING_MORE = [
  'Not much else to say, really.',
  'I do not know much more than that.',
  'That is about it from my side.',
  'Nothing else comes to mind.',
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
  const repeated = (bank: readonly string[], short: string) =>
    saidBefore(bank, said) ? asISaid(rng, short) : pick(rng, bank, said.recent);
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
            ],
            'I give now and then.',
          )
        : repeated(
            [
              'Not really, not on any regular basis.',
              'Hardly ever, to be honest.',
              'No, it is not something I usually do.',
            ],
            'it is not something I do much.',
          );
    case 'charity':
      if (phraseCount(persona, ['never heard']) > 0)
        return repeated(
          [
            'No, I had never heard of them before today.',
            'Not until today, no.',
            'I do not think I have, no.',
          ],
          'I had not heard of them before today.',
        );
      return view.state.private.barriers?.includes('trust')
        ? repeated(
            [
              'I have heard the name, but I do not know much about how they use the money.',
              'A little. I am not sure where the money actually goes, though.',
            ],
            'I know the name, not where the money goes.',
          )
        : repeated(
            [
              'I have heard of them, but I do not know much about what they do.',
              'Vaguely. Something about helping children abroad?',
              'The name rings a bell, that is about all.',
              'I think so. They work with kids in poor countries, right?',
            ],
            'I know the name, not much more.',
          );
    case 'stance': {
      if (leansToGoal(cog, 'p4g') || view.state.lastUserPrice !== null)
        return pick(
          rng,
          [
            'I am open to it. I might give a little.',
            'I am leaning toward giving something small.',
            'I could see myself giving a bit.',
          ],
          said.recent,
        );
      if (barrier)
        return `${pick(rng, ['I am not sure yet.', 'Still deciding.', 'Undecided.'], said.recent)} ${objectionLine(barrier, said, rng)}`;
      return pick(
        rng,
        ['I have not made up my mind yet.', 'Still undecided, honestly.', 'I am on the fence.'],
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
        ],
        said.recent,
      );
    default:
      return null;
  }
}

/** The persuadee's mood line on the valence's side, or null (a neutral persuadee says nothing of it). */
function moodLine(input: ResponseInput, said: Said, rng: Rng, against: boolean): string | null {
  const cog = input.view.state.cognitive;
  const side = moodSide(cog.affect.valence);
  if (side === 0) return null;
  const category = moodCategory(cog) ?? (side < 0 ? 'anxiety' : 'interest');
  const line = pick(rng, MOOD[category], said.recent);
  return against ? `But ${line.charAt(0).toLowerCase()}${line.slice(1)}` : line;
}

/** The persuadee's reply to one actor turn. */
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
  'Same with {c}.',
];

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
    if (given) return joinParts([given, contentLineAt(rng, 0.6, CONTENT, phrases, said)]);
    const bank = plan.reveal ? objectionBank(input, plan.reveal) : undefined;
    if (bank) return objectionLine(bank, said, rng);
    if (plan.reveal)
      return pick(rng, CONCERN, said.recent, { rev: plan.reveal, Rev: capitalised(plan.reveal) });
    const topic = mentioned(input.utterance);
    return topic ? pick(rng, UNSURE_ABOUT, said.recent, { topic }) : pick(rng, NOTHING_MORE, said.recent);
  }
  if (mode === 'Social')
    return joinParts([
      pick(rng, socialBank(input), said.recent),
      contentLineAt(rng, 0.6, CONTENT, phrases, said),
    ]);
  const stance = plan.stance;
  const parts: string[] = [stanceLine(rng, stance, STANCE, ABOUT, input.utterance, said)];
  const leaning = leansToGoal(cog, 'p4g') || pledged !== null;
  const asked = callToAction(perceptionOf(input.utterance, view), 'p4g');
  const doubtful = stance === 'hesitant' || stance === 'resist';
  if (leaning) {
    if (asked || rng.bernoulli(0.5)) parts.push(pick(rng, doubtful ? LEAN_DESPITE : LEAN, said.recent));
  } else if (stance === 'resist') {
    if (asked || rng.bernoulli(0.5)) parts.push(refusal(input, REFUSE, said, rng));
  } else if (asked) {
    parts.push(refusal(input, stance === 'agree' ? REFUSE_DESPITE : NOT_YET, said, rng));
  } else if (strengthOf(cog, TASK_RULES.p4g.goalIntention) > 0 && rng.bernoulli(0.2)) {
    parts.push(
      pick(rng, ['I will think it over.', 'Let me think about it.', 'I need to mull it over.'], said.recent),
    );
  }
  // The mood goes with the stance, or against agreement with a "But"; a resisting persuadee in a good mood says
  // nothing of it.
  const side = moodSide(cog.affect.valence);
  const clashes = (stance === 'agree' && side < 0) || (stance === 'resist' && side > 0);
  if (rng.bernoulli(moodChance(view.state.changeLog)) && !(clashes && stance === 'resist'))
    parts.push(moodLine(input, said, rng, clashes && parts.length === 1) ?? '');
  return joinParts([...parts, contentLineAt(rng, 0.55, CONTENT, phrases, said)]);
}
