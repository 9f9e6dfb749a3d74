/**
 * The reply form check (src/validity/reply-form.ts): each slip it names is found in a reply that has it, and a
 * near miss in good English passes.
 */
import { describe, expect, it } from 'vitest';
import { replyFormDefects } from '../../../src/validity/reply-form';

describe('replyFormDefects', () => {
  it.each([
    ['No, nothing is wrong with the the while, honestly.', 'doubled word'],
    ['Sure. And and the bedroom.', 'doubled word'],
    ['Hm. Also, and the kids.', 'lead before a conjunction'],
    ['Okay. Besides, so what about the payment?', 'lead before a conjunction'],
    ['I wanted to ask about this children.', 'demonstrative before a plural'],
    ['Tell me more about that kids, then.', 'demonstrative before a plural'],
    ['Okay. The kids is what I remember.', 'plural subject with a singular verb'],
    ['Is the children part of it?', '"is" before a plural'],
    ['And then there is the finals.', '"is" before a plural'],
    ['Not sure, to be honest. One thing worth knowing: included.', 'bare word after a colon'],
    ['Okay. Thanks for your time, at this point.', 'hedge on a formula'],
    ['I still feel really down. The exams keeps coming up.', 'plural subject with a singular verb'],
    ['Oh, also, my kids keeps coming up.', 'plural subject with a singular verb'],
    ['So what would you want from me? Does the children matter here?', 'singular auxiliary before a plural'],
    ['Good question. I really do not really know.', 'repeated intensifier'],
  ])('finds the slip in %j', (reply, kind) => {
    expect(replyFormDefects(reply).map((d) => d.split(':')[0])).toContain(kind);
  });

  it.each([
    'I know that that is a lot to ask.',
    'I keep coming back to that children charity.',
    'Right, I am curious where this goes. I can see why that matters.',
    'Are the kids part of it? The news is not great either.',
    'The part about the kids is a good point.',
    'There is the crisis too, and the physics exam.',
    'Is the children charity part of it?',
    'One thing worth knowing: the original box.',
    'Thanks for your time, I appreciate it. Bye.',
    'The exam keeps coming up. My kids keep coming up too.',
    'Do the children matter here? Does the school?',
    'Sure thing. Does the children organization matter here?',
    'I really do not know. It really helps, though.',
  ])('passes %j', (reply) => {
    expect(replyFormDefects(reply)).toEqual([]);
  });
});
