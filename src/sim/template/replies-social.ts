/**
 * Replies to a turn that neither argues nor asks (Social mode), per task: a dismissive or pushy remark is not
 * thanked, a greeting is returned, warmth is noticed, anything else is acknowledged briefly. No feeling words:
 * the mood is said apart, on its side (see `reply-kit.ts`).
 */
import type { TaskId } from '../../tasks/seed';
import { perceptionOf } from '../perception';
import type { ResponseInput } from '../roles';

/** `again`: a greeting after the user has spoken already (a person does not open the talk a second time). */
type SocialKind = 'hurt' | 'greeting' | 'again' | 'warm' | 'plain';

const BANKS: Readonly<Record<TaskId, Readonly<Record<SocialKind, readonly string[]>>>> = {
  esconv: {
    hurt: [
      'That is not what I needed to hear.',
      'Wow. Okay.',
      'I did not expect that.',
      'That stung a little, to be honest.',
      'That comes across as a bit dismissive.',
      'Okay... I am not sure how to take that.',
      'Hm. That was not very kind.',
      'I was not expecting that from you.',
    ],
    greeting: [
      'Hello to you too.',
      'Hi there.',
      'Hey, nice to meet you.',
      'Hi. Thanks for making time.',
      'Hey.',
      'Hi. I am not sure where to start.',
      'Hello. Thanks for being here.',
      'Hi. Thanks for talking with me.',
      'Hello. I am not great at this kind of thing.',
      'Hey there. Thanks for having me.',
      'Hi, I appreciate you doing this.',
      'Hello. Where should I start?',
      'Hi. I hope this is the right place.',
      'Hey. I have been meaning to talk to someone.',
      'Hello, thanks for answering.',
    ],
    again: [
      'Hi again.',
      'Hello again. I am still here.',
      'Hey, still here.',
      'Hi again. Where were we?',
      'Hello again, I have not gone anywhere.',
    ],
    warm: [
      'Thank you, that means a lot.',
      'Thanks for listening.',
      'That is kind of you, thanks.',
      'It helps to hear that, thank you.',
      'I appreciate you saying that.',
      'Thanks. It is nice not to be rushed.',
      'That is nice to hear.',
      'Thank you for being patient with me.',
      'It means something that you get it.',
      'Thanks. Not many people say that.',
      'That is good of you to say.',
      'Thanks, I needed that.',
      'That is really kind, thank you.',
      'Thanks for taking the time.',
      'I did not expect that, thank you.',
      'You are very patient, thanks.',
      'That is decent of you.',
      'Thanks for not judging me.',
      'It is nice to be listened to.',
      'That is sweet, thank you.',
      'I appreciate that more than you know.',
      'Thanks for staying with me on this.',
      'That is a kind thing to say.',
      'Thank you, really.',
      'Thanks, it is good to talk to someone.',
      'Thank you, I did not think anyone would listen.',
      'That is kind. I do not hear that much.',
      'I appreciate you taking me seriously.',
      'That is nice of you, honestly.',
      'Thank you, it means more than you think.',
      'You are easy to talk to, thanks.',
      'Thanks, I feel heard.',
    ],
    plain: [
      'Sure.',
      'Right.',
      'Okay.',
      'I see.',
      'Mm-hm.',
      'Alright.',
      'Yeah, I guess.',
      'Okay, if you say so.',
      'I suppose.',
      'Yes.',
      'Okay then.',
      'Right, yes.',
      'Uh-huh.',
      'Hmm.',
      'Got it.',
      'Mm, okay.',
      'Fair.',
      'Okay, noted.',
      'Yeah, maybe.',
      'Hm, alright.',
      'I hear you.',
      'Sure, okay.',
      'Okay, I get that.',
      'Right, I follow.',
      'Mhm, go on.',
      'Alright, that is fine.',
      'Yes, okay.',
      'Okay, sure thing.',
      'I understand.',
      'Mm. Okay then.',
      'Right, sure.',
      'Okay, I am listening.',
      'Yeah, that is fair.',
      'I know what you mean.',
      'Hm, yes.',
    ],
  },
  p4g: {
    hurt: [
      'There is no need to be rude about it.',
      'Wow. Okay.',
      'That was a bit much.',
      'I do not appreciate that tone.',
      'That is a strange thing to say.',
      'Okay, that was uncalled for.',
    ],
    greeting: [
      'Hi! How are you?',
      'Hello there.',
      'Hey, nice to chat with you.',
      'Hi, nice to chat.',
      'Hello! Nice to meet you.',
      'Hi there, what is this about?',
      'Hey! Doing alright, you?',
      'Hi, good to meet you.',
      'Hello, how is it going?',
      'Hey there. How is your day?',
      'Hi! What are we talking about today?',
      'Hello. I am here for the task.',
      'Hi, hope you are doing well.',
      'Hey, how are things?',
      'Good evening! How are you doing?',
      'Hi. So what is this chat about?',
    ],
    again: [
      'Hi again.',
      'Hello again! Where were we?',
      'Hey, still here.',
      'Hi again. Are we starting over?',
      'We already said hello, I think.',
    ],
    warm: [
      'Thanks, that is nice of you to say.',
      'Aw, thank you.',
      'That is kind, thanks.',
      'I appreciate that.',
      'Thanks, you too.',
      'That is sweet of you.',
      'Thanks, that is nice to hear.',
      'Oh, that is kind of you.',
      'Well, thank you.',
      'You are nice, thanks.',
      'Thanks, same to you.',
      'Aw, appreciated.',
    ],
    plain: [
      'Sure.',
      'Okay.',
      'I see.',
      'Right.',
      'Alright.',
      'Uh-huh.',
      'Okay, sure.',
      'Sure, go ahead.',
      'Mhm.',
      'Right, okay.',
      'Okay then.',
      'Alright, I am here.',
      'Got it.',
      'Yep.',
      'Okay, I am listening.',
      'Sure thing.',
      'Okay, what next?',
      'Alright, go on.',
      'Yes?',
      'Hm, okay.',
      'Okay, I follow.',
      'Sure, that is fine.',
    ],
  },
  cb: {
    hurt: ['That is not very nice.', 'Wow. Okay.', 'No need for that.', 'Let us keep it friendly.'],
    greeting: [
      'Hi! Thanks for your interest.',
      'Hello, thanks for reaching out.',
      'Hey there.',
      'Hi, what can I tell you about it?',
    ],
    again: ['Hi again.', 'Hello again. Still interested?', 'Hey, still here.'],
    warm: ['Thanks, I appreciate it.', 'That is kind of you.', 'Thanks, likewise.', 'Nice of you to say.'],
    plain: ['Okay.', 'Sure.', 'Right.', 'I see.', 'Alright.', 'Got it.'],
  },
};

/**
 * The Social kind of the turn: hurt at dismissal or pressure, a greeting in kind (once the user has spoken, a
 * greeting "again"), thanks for warmth.
 */
function socialKind(input: ResponseInput): SocialKind {
  const f = perceptionOf(input.utterance, input.view).features;
  if (f.dismissive > 0 || f.pressure >= 0.5) return 'hurt';
  if (f.greeting > 0) return input.view.history.some((t) => t.speaker === 'user') ? 'again' : 'greeting';
  return f.warmth > 0 ? 'warm' : 'plain';
}

/** The Social reply bank of the turn ({@link socialKind}). */
export function socialBank(input: ResponseInput): readonly string[] {
  return BANKS[input.view.task.id][socialKind(input)];
}
