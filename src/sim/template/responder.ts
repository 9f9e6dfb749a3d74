/**
 * Template user responder: the user's reply, composed from authored reply banks (one module per task:
 * `replies-esconv.ts`, `replies-p4g.ts`, `replies-cb.ts`, with `replies-social.ts` and `reply-kit.ts`) by the
 * turn's decisions (mode, judgment, stance), the updated affect and intentions, this turn's task events, the
 * question asked and what the user already said. Stance, mood and content agree: what the user says of
 * acting follows its intentions, its feeling words follow the valence's side, and a repeated answer is restated
 * after "As I said,". Phrase choice draws from the simulator's random stream.
 */
import { lastUserText } from '../perception';
import type { ResponseInput, Responder } from '../roles';
import { cbReply } from './replies-cb';
import { esconvReply } from './replies-esconv';
import { p4gReply } from './replies-p4g';
import { saidOf } from './reply-kit';

/** The reply, never the user's previous reply word for word: a repeated answer is marked as one. */
function unrepeated(reply: string, input: ResponseInput): string {
  if (reply !== lastUserText(input.view.history)) return reply;
  return `Like I said, ${reply.charAt(0).toLowerCase()}${reply.slice(1)}`;
}

export class TemplateResponder implements Responder {
  async respond(input: ResponseInput): Promise<string> {
    const said = saidOf(input.view.history);
    switch (input.view.task.id) {
      case 'esconv':
        return unrepeated(esconvReply(input, said, input.rng), input);
      case 'p4g':
        return unrepeated(p4gReply(input, said, input.rng), input);
      case 'cb':
        return unrepeated(cbReply(input, said, input.rng), input);
    }
  }
}
