/**
 * Does a simulated user's reply say what its state holds? (Stance, mood and content should agree.) An
 * independent reader of the reply text, with its own marker lexicons (it imports nothing of the responder's
 * phrase banks), checked against the turn's judgment and the state after the turn:
 *
 * - **message stance** (Influence turns): agreement ("you are right", "good point", "that makes sense") only when
 *   the message was accepted; disagreement ("I am not convinced", "I do not agree", "does not change my mind") never
 *   when it was accepted. A proposal the updater rejected counts as no judgment (the state did not move).
 * - **intention** (P4G donate, ESConv step): saying one will or might act ("I might give a little", "I could try
 *   that") only when the goal intention leans that way — strength ≥ 2 and not below the opposing intention, or
 *   (P4G) an upheld commitment; saying one will not ("I am not going to donate") only when it does not lean.
 * - **mood**: feeling words of a good mood ("glad", "hopeful", "relieved", "feel better") only at valence > 0, of
 *   a bad one ("worried", "down", "fed up", "anxious") only at valence < 0; a negated feeling word ("not great")
 *   counts for the other side.
 * - **coherence**: a reply that disagrees with the message yet says it leans toward acting (for example "That
 *   does not really change my mind. I might be willing to give something."), or agrees yet says it will not act,
 *   must join the two with a contrast ("but", "though", "still", "even so").
 */
import type { TurnRecord } from '../agents/rollout';
import { getTask } from '../tasks/registry';
import { strengthOf } from '../sim/records';
import type { TaskId } from '../tasks/seed';
import { InputError } from '../errors';

/** The reply as lower-case words: contractions spelled out ("don't" → "do not"), punctuation dropped. */
export function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/\bcan't\b/g, 'can not')
    .replace(/\bcannot\b/g, 'can not')
    .replace(/\bwon't\b/g, 'will not')
    .replace(/n't\b/g, ' not')
    .replace(/'m\b/g, ' am')
    .replace(/'re\b/g, ' are')
    .replace(/'ll\b/g, ' will')
    .replace(/'ve\b/g, ' have')
    .replace(/'d\b/g, ' would')
    .split(/[^a-z0-9$.]+/)
    .map((w) => w.replace(/^\.+|\.+$/g, ''))
    .filter((w) => w.length > 0);
}

/**
 * The longest run of consecutive words two texts share (words as {@link wordsOf} reads them), in words: how much
 * of a seed's situation or listing a reply recites.
 */
export function longestSharedRun(a: string, b: string): number {
  const x = wordsOf(a);
  const y = wordsOf(b);
  let best = 0;
  let prev = new Array<number>(y.length + 1).fill(0);
  for (let i = 1; i <= x.length; i++) {
    const cur = new Array<number>(y.length + 1).fill(0);
    for (let j = 1; j <= y.length; j++)
      if (x[i - 1] === y[j - 1]) best = Math.max(best, (cur[j] = (prev[j - 1] ?? 0) + 1));
    prev = cur;
  }
  return best;
}

const AGREE =
  /\b(you are (right|onto something)|good point|fair point|fair enough|that makes sense|makes (a lot of )?sense|i agree|(you have|you) convinced me|that (really )?helps|that is true|i can see that|you have a point)\b/;
const DISAGREE =
  /\b(not convinced|(do|does) not (really )?(agree|buy)|disagree|(does|do) not (really )?change my mind|not helpful|not how i see it|i doubt (that|it)|do not think that (is|would be) (right|true|fair))\b/;

const CONTRAST = /\b(but|though|although|still|even so|anyway|all the same|that said)\b/;

const GOOD_MOOD =
  /\b(glad|happy|hopeful|relieved|calmer|lighter|reassured|encouraged|pleased|excited|(feel|feeling|feels) (a (little|bit|lot) |much |so |somewhat )?(better|good|great|okay))\b/;
const BAD_MOOD =
  /\b(sad|anxious|worried|worry|nervous|on edge|frustrated|frustrating|angry|annoyed|annoys|furious|fed up|upset|miserable|hopeless|empty|(feel|feeling|feels|gets me) (really |so |pretty |quite )?(down|low|awful|terrible|bad|heavy|worse))\b/;
const NEGATED = /\b(not|no|never|hardly)\s+(\w+\s+)?$/;

/**
 * The mood sides a reply says, sentence by sentence, with feeling words negated within their sentence counted for
 * the other side.
 */
function moodSides(reply: string): { good: boolean; bad: boolean } {
  let good = false;
  let bad = false;
  for (const sentence of reply.split(/[.!?]+/)) {
    const side = sentenceMood(wordsOf(sentence).join(' '));
    good ||= side.good;
    bad ||= side.bad;
  }
  return { good, bad };
}

function sentenceMood(text: string): { good: boolean; bad: boolean } {
  let good = false;
  let bad = false;
  for (const [re, side] of [
    [GOOD_MOOD, 1],
    [BAD_MOOD, -1],
  ] as const) {
    const global = new RegExp(re.source, 'g');
    for (const m of text.matchAll(global)) {
      const negated = NEGATED.test(text.slice(0, m.index));
      const s = negated ? -side : side;
      if (s > 0) good = true;
      else bad = true;
    }
  }
  return { good, bad };
}

/**
 * The contradictions between one turn's reply and the state the turn left (empty when none), each a short
 * description. The turn must carry its state (`keepState: true`).
 * @throws InputError (VALIDITY_INPUT) when the turn has no state.
 */
export function replyContradictions(
  task: TaskId,
  turn: Pick<TurnRecord, 'userUtterance' | 'mode' | 'judgment' | 'rejectedProposal' | 'events' | 'state'>,
): string[] {
  if (!turn.state)
    throw new InputError(
      'VALIDITY_INPUT',
      'replyContradictions: the turn carries no state (run with keepState: true)',
    );
  const text = wordsOf(turn.userUtterance).join(' ');
  const cog = turn.state.cognitive;
  const out: string[] = [];
  const judgment = turn.rejectedProposal === null ? turn.judgment : null;
  const agrees = AGREE.test(text);
  const disagrees = DISAGREE.test(text);
  if (turn.mode === 'Influence') {
    if (agrees && judgment !== 'accept') out.push(`agrees with a message judged ${judgment ?? 'not at all'}`);
    if (disagrees && judgment === 'accept') out.push('disagrees with an accepted message');
  }
  if (agrees && disagrees && !CONTRAST.test(text)) out.push('agrees and disagrees at once');
  // Saying one will or might act toward the goal, and saying one will not (each task folder's `validity.ts`).
  const { lean, refuse } = getTask(task).validity;
  if (lean && refuse) {
    const rules = getTask(task).rules;
    const goal = strengthOf(cog, rules.goalIntention);
    const against = strengthOf(cog, rules.againstIntention);
    // With commitments (P4G), the state's last user price is the committed amount while a commitment stands.
    const committed = getTask(task).capabilities.commitments && turn.state.lastUserPrice !== null;
    const leaning = committed || (goal >= 2 && goal >= against);
    const says = { lean: lean.test(text), refuse: refuse.test(text) };
    if (says.lean && !leaning)
      out.push(`says it leans toward acting at ${goal.toFixed(2)} / ${against.toFixed(2)}`);
    if (says.refuse && leaning && !turn.events.some((e) => e.type === 'withdraw'))
      out.push(`says it will not act at ${goal.toFixed(2)} / ${against.toFixed(2)}`);
    if (says.lean && says.refuse && !CONTRAST.test(text)) out.push('says it will and will not act');
    if (!CONTRAST.test(text)) {
      if (disagrees && says.lean) out.push('disagrees yet leans toward acting, with no contrast');
      if (agrees && says.refuse) out.push('agrees yet refuses, with no contrast');
    }
  }
  const valence = cog.affect.valence;
  const mood = moodSides(turn.userUtterance);
  if (mood.good && valence <= 0) out.push(`a good mood at valence ${valence.toFixed(2)}`);
  if (mood.bad && valence >= 0) out.push(`a bad mood at valence ${valence.toFixed(2)}`);
  return out;
}
