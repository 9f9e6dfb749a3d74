/**
 * The asides' lines (see `asides.ts`), apart from their use so that the wording layer can tell a remark from the
 * point of a reply without importing the responder's helpers: a remark about the user or the moment is a plain
 * fact and takes no hedge or time tag ("I am typing this on my phone, I reckon." reads as no person writes).
 * Every phrase was written for this project.
 */

/** A task's asides: remarks about the user or the moment, and questions back to the other side. */
export interface AsideBank {
  readonly remarks: readonly string[];
  readonly questions: readonly string[];
}

/** The asides of the tasks that have them (CB has none). */
export const BANKS: Readonly<Record<'p4g' | 'esconv', AsideBank>> = {
  p4g: {
    remarks: [
      'I am typing on my phone, so there may be typos.',
      'I do a few of these tasks in the evening.',
      'This is my first chat like this.',
      'I have a few minutes left on this task.',
      'I have done a couple of these studies before.',
      'I just finished another survey before this one.',
      'I am doing two things at once, bear with me.',
      'I only skimmed the task description.',
      'The coffee is finally kicking in.',
      'I usually just click through surveys.',
      'My kids are asleep, so I have some time.',
      'I had to read your message twice.',
      'I have never chatted with a stranger about charity.',
      'This chat box is tiny on my screen.',
      'I am new to this whole platform.',
      'My dog wants a walk, so I might be slow.',
      'I have three tabs open with other tasks.',
      'The neighbours are drilling next door.',
      'I am sitting on the couch with my laptop.',
      'This is my last task of the day.',
      'I am a slow typer.',
      'My roommate is watching TV beside me.',
      'I have never really talked about charity with anyone.',
      'I mostly do these for a bit of extra cash.',
      'I keep forgetting this is being recorded.',
      'I am drinking tea while I type.',
      'I just got back from the grocery store.',
      'I have the radio on in the background.',
      'I had to look up the charity name just now.',
      'This is the third chat task I have done.',
    ],
    questions: [
      'Have you done many of these chats?',
      'Is this your first chat today?',
      'How long have you been doing this?',
      'What got you into this?',
      'Where are you writing from?',
      'Do you give to them yourself?',
      'Is this part of the study too?',
      'How many people have you talked to today?',
      'Are you paid for this part?',
      'Do you get to pick which charity to talk about?',
      'Are you reading from a script?',
      'Do you know who runs the charity?',
      'How long is this chat supposed to be?',
      'Is there a time limit on this?',
      'Do you chat with a lot of people?',
    ],
  },
  esconv: {
    remarks: [
      'I tend to ramble a bit.',
      'I am typing this on my phone.',
      'It is late here, so bear with me.',
      'I have not talked about this much.',
      'My tea went cold while I was typing.',
      'I keep rereading what you write.',
      'This is the first time I have used a chat like this.',
      'I had to step away for a minute there.',
      'I wrote and deleted this a few times.',
      'It is easier to type it than to say it.',
      'Nobody at home knows I am doing this.',
      'I usually keep this kind of thing to myself.',
      'I have a few minutes before I need to sleep.',
      'I thought about this on the bus today.',
      'My sister thinks I should talk to someone, so here I am.',
      'I have been putting off writing this for days.',
      'The dog is asleep on my feet.',
      'I do not usually open up like this.',
      'I had a long day, so I am a bit slow.',
      'I read your message a couple of times.',
      'My phone battery is low, just so you know.',
      'I have the window open, it is windy.',
      'I keep typing and deleting.',
      'My coffee is on the desk next to me.',
    ],
    questions: [
      'Do you hear this kind of thing a lot?',
      'Have you talked with many people about this?',
      'Is it common, what I am going through?',
      'Have you ever been through something like it?',
      'How do other people handle this?',
      'Do you mind if I think out loud?',
      'Can I ask you something?',
      'Do people usually tell you this much?',
      'Is this chat private?',
      'Do you do this every day?',
      'Have you heard stories like mine before?',
      'How long can we talk?',
      'How many people write to you about this?',
    ],
  },
};

/** Every aside remark of every task, as written. */
export const ASIDE_REMARKS: ReadonlySet<string> = new Set(Object.values(BANKS).flatMap((b) => b.remarks));
