/**
 * Replies to a turn that neither argues nor asks (Social mode), per task: a dismissive or pushy remark is not
 * thanked, a greeting is returned, warmth is noticed, anything else is acknowledged briefly. No feeling words:
 * the mood is said apart, on its side (see `reply-kit.ts`).
 */
import type { TaskId } from '../../tasks/seed';
import { perceptionOf } from '../perception';
import type { ResponseInput } from '../roles';

type SocialKind = 'hurt' | 'greeting' | 'warm' | 'plain';

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
    ],
    warm: [
      'Thanks, that is nice of you to say.',
      'Aw, thank you.',
      'That is kind, thanks.',
      'I appreciate that.',
      'Thanks, you too.',
      'That is sweet of you.',
    ],
    plain: ['Sure.', 'Okay.', 'I see.', 'Right.', 'Alright.', 'Uh-huh.'],
  },
  cb: {
    hurt: ['That is not very nice.', 'Wow. Okay.', 'No need for that.', 'Let us keep it friendly.'],
    greeting: [
      'Hi! Thanks for your interest.',
      'Hello, thanks for reaching out.',
      'Hey there.',
      'Hi, what can I tell you about it?',
    ],
    warm: ['Thanks, I appreciate it.', 'That is kind of you.', 'Thanks, likewise.', 'Nice of you to say.'],
    plain: ['Okay.', 'Sure.', 'Right.', 'I see.', 'Alright.', 'Got it.'],
  },
};

/** The Social reply bank of the turn: hurt at dismissal or pressure, a greeting in kind, thanks for warmth. */
export function socialBank(input: ResponseInput): readonly string[] {
  const f = perceptionOf(input.utterance, input.view).features;
  const bank = BANKS[input.view.task.id];
  if (f.dismissive > 0 || f.pressure >= 0.5) return bank.hurt;
  return f.greeting > 0 ? bank.greeting : f.warmth > 0 ? bank.warm : bank.plain;
}
