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
import { lowerFirst, moodSide, saidOf, type Said } from './reply-kit';
import { worded, type Tone } from './wording';

/** The reply, never the user's previous reply word for word: a repeated answer is marked as one. */
function unrepeated(reply: string, input: ResponseInput): string {
  if (reply !== lastUserText(input.view.history)) return reply;
  return `Like I said, ${lowerFirst(reply)}`;
}

/** The tone of the reply's wording: an Influence turn's stance, else the side of the updated mood. */
function toneOf(input: ResponseInput): Tone {
  if (input.mode === 'Influence' && input.events.length === 0) return input.plan.stance;
  const side = moodSide(input.view.state.cognitive.affect.valence);
  return side < 0 ? 'low' : side > 0 ? 'warm' : 'plain';
}

function content(input: ResponseInput, said: Said): string {
  switch (input.view.task.id) {
    case 'esconv':
      return esconvReply(input, said, input.rng);
    case 'p4g':
      return p4gReply(input, said, input.rng);
    case 'cb':
      return cbReply(input, said, input.rng);
  }
}

/** The user's own decisions this turn that end or settle the talk: said as written, never hedged. */
const DECISIONS = new Set(['end', 'quit', 'commit', 'withdraw', 'accept']);

export class TemplateResponder implements Responder {
  async respond(input: ResponseInput): Promise<string> {
    const said = saidOf(input.view.history);
    const reply = content(input, said);
    // A closing or a decision goes without the wording layer: a hedge on it ("I kind of feel lighter after
    // talking.", "I know what I want to try first, I suppose.") undercuts what it says, and the judge reads it so.
    const decided = input.events.some((e) => e.by === 'user' && DECISIONS.has(e.type));
    return unrepeated(decided ? reply : worded(input.rng, reply, toneOf(input), said), input);
  }
}
