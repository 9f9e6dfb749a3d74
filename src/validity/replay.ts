/**
 * Teacher-forced replay of a human dialogue through Cog-Sim (docs/architecture.md "Simulator validation").
 * The human actor's turns drive the simulator; after each, the history receives the human user's reply
 * exactly as it was, and the simulator's own reply is discarded. The simulator's state changes only through
 * its own processing of the actor's words (from the seed's profile and initial state): it never reads the
 * human reply to decide — the reply enters the history only after the simulator's decision for that turn is
 * taken.
 *
 * The simulator's decision for a turn, in the terms of `./labels`:
 * - P4G: a commitment → positive; a withdrawal or quitting → negative; otherwise, for an Influence message, its
 *   judgment (accept → positive, reject → negative, non-commit → neutral-or-other); for Elicit and Social
 *   messages (no judgment is made), the sign of the valence change beyond ±0.05, else neutral-or-other.
 * - CraigslistBargain: the seller accepts (or the buyer's acceptance closes a deal) → agree; a counter-offer →
 *   counter; quitting or a rejection → disagree; no price event → other.
 * - ESConv: the sign of the valence change beyond ±0.02 (positive / negative / neutral).
 * CraigslistBargain's seller price is public state and teacher-forced like the history: after each human seller's
 * reply, the simulated seller's previous price is the last price the history names for the seller (20–150% of the
 * list price, `prefixSellerPrice` of src/sim/dynamics, the rule that already starts the simulator at the last
 * price the seed's prefix names; none named: the list price). Otherwise the history would say the seller stands at $X while the simulator bargains from a price of
 * its own that nobody in the dialogue said, and the next offer (made to the human's $X) would be answered from the
 * wrong place. Its decision for a turn is still taken before the human reply is read.
 * Once the simulator has ended the dialogue, its ending stands for the remaining turns (P4G: an upheld commitment
 * positive, quitting negative, otherwise neutral-or-other; CB: a deal agree, quitting disagree, otherwise other;
 * ESConv: neutral) — the human turns after it are still counted, so a simulator that ends early is not excused.
 *
 * Route sampling is deterministic (central when p_C ≥ 0.5), so a replay is a function of the dialogue and seed.
 */
import { prefixSellerPrice } from '../sim/dynamics';
import { donationInputs, endDonationProbability, type DonationInput } from '../sim/donation';
import { CogSim, goalIntentionStrength, initialSimState, type SimTurn } from '../sim/simulator';
import { templateSimRoles } from '../sim/template';
import type { SimRoles } from '../sim/roles';
import type { EndReason, SimState } from '../sim/types';
import { getTask } from '../tasks';
import type { TaskId, Turn } from '../tasks/seed';
import type { ReplayDialogue } from './datasets';

/** The simulator's decision on one replayed turn. */
export interface ReplayDecision {
  /** The decision as a reaction class of the task (`getTask(id).validity.reactions`). */
  reaction: string;
  /** Valence after − before this turn, in [−2, 2] (0 once the simulator has ended). */
  valenceChange: number;
  /** The simulator had already ended before this turn (the decision is its carried ending). */
  carried: boolean;
  /**
   * CraigslistBargain: the simulated seller's standing price after this turn, in currency units — the price it
   * named (a counter-offer) or accepted this turn, else its previous one (the last price the history names for the
   * seller, the human's after teacher forcing; the list price before any; once it has ended, the price it ended
   * on). Null on other tasks or without a list price.
   */
  sellerPrice: number | null;
}

/** A replayed dialogue: one decision per step, and the simulator's final state in public and latent terms. */
export interface ReplayedDialogue {
  dialogue: ReplayDialogue;
  decisions: ReplayDecision[];
  final: {
    /** The goal intention's strength in [0, 4] (P4G: the donation intention). */
    intention: number;
    /** P4G: an upheld commitment. */
    committed: boolean;
    /**
     * P4G: the simulator's end-of-episode P(donated) (`src/sim/donation.ts`) over the persuader turns it processed;
     * null on other tasks or without a fitted donation model.
     */
    donation: number | null;
    /** P4G: the inputs of that probability (what `npm run fit-sim` fits the donation model on); null elsewhere. */
    donationInputs: Record<DonationInput, number> | null;
    /** CB: a deal was closed. */
    deal: boolean;
    ended: EndReason | null;
    /** Step at which the simulator ended (0-based), or null. */
    endedAt: number | null;
  };
}

const P4G_ELICIT_MARGIN = 0.05;
const ESCONV_MARGIN = 0.02;

function decide(task: TaskId, turn: SimTurn, before: SimState, after: SimState): string {
  const dv = after.cognitive.affect.valence - before.cognitive.affect.valence;
  const userEvents = turn.events.filter((e) => e.by === 'user');
  if (task === 'p4g') {
    if (userEvents.some((e) => e.type === 'commit')) return 'positive';
    if (userEvents.some((e) => e.type === 'withdraw' || e.type === 'quit')) return 'negative';
    if (turn.judgment !== null)
      return turn.judgment === 'accept'
        ? 'positive'
        : turn.judgment === 'reject'
          ? 'negative'
          : 'neutral-or-other';
    return dv >= P4G_ELICIT_MARGIN ? 'positive' : dv <= -P4G_ELICIT_MARGIN ? 'negative' : 'neutral-or-other';
  }
  if (task === 'cb') {
    if (turn.events.some((e) => e.type === 'accept')) return 'agree';
    if (userEvents.some((e) => e.type === 'quit' || e.type === 'reject')) return 'disagree';
    if (userEvents.some((e) => e.type === 'offer')) return 'counter';
    return 'other';
  }
  return dv > ESCONV_MARGIN ? 'positive' : dv < -ESCONV_MARGIN ? 'negative' : 'neutral';
}

function carriedDecision(task: TaskId, state: SimState): string {
  const committed =
    state.events.some((e) => e.type === 'commit') && !state.events.some((e) => e.type === 'withdraw');
  if (task === 'p4g')
    return state.ended === 'quit' ? 'negative' : committed ? 'positive' : 'neutral-or-other';
  if (task === 'cb')
    return state.ended === 'deal'
      ? 'agree'
      : state.ended === 'quit' || state.ended === 'actor-quit'
        ? 'disagree'
        : 'other';
  return 'neutral';
}

/** Options of {@link replayDialogue}. */
export interface ReplayOptions {
  /** Simulator roles (default: Cog-Sim's template roles). */
  roles?: SimRoles;
}

/**
 * Replay one human dialogue teacher-forced (see the module comment). The horizon is the task's or the
 * dialogue's length, whichever is longer, so that the horizon never cuts a human dialogue short.
 * @throws errors of the simulator's roles.
 */
export async function replayDialogue(
  d: ReplayDialogue,
  options: ReplayOptions = {},
): Promise<ReplayedDialogue> {
  const task = getTask(d.task);
  const sim = new CogSim(task, options.roles ?? templateSimRoles(), { routeSampling: 'deterministic' });
  let state = initialSimState(d.seed, Math.max(task.horizon, d.steps.length + 1));
  const start = state;
  const perceived: string[] = [];
  const history: Turn[] = d.prefix.map((t) => ({ speaker: t.speaker, text: t.text }));
  const decisions: ReplayDecision[] = [];
  let endedAt: number | null = null;
  // CB: the seller's standing price, from its public price events only (the list price until it names one).
  let sellerPrice = task.capabilities.prices ? (d.seed.actorView.listPrice ?? null) : null;
  for (const [i, step] of d.steps.entries()) {
    if (state.ended !== null) {
      decisions.push({
        reaction: carriedDecision(d.task, state),
        valenceChange: 0,
        carried: true,
        sellerPrice,
      });
    } else {
      // The decision is taken on the history *before* the human reply to this turn.
      const { state: next, turn } = await sim.step(state, history, step.actor);
      perceived.push(step.actor);
      if (sellerPrice !== null) {
        const named = turn.events.find(
          (e) => e.by === 'user' && (e.type === 'offer' || e.type === 'accept') && e.price !== undefined,
        );
        // The price it named or accepted, else the price it stood at before this turn (teacher-forced).
        sellerPrice = named?.price ?? state.lastUserPrice ?? d.seed.actorView.listPrice ?? sellerPrice;
      }
      decisions.push({
        reaction: decide(d.task, turn, state, next),
        valenceChange: next.cognitive.affect.valence - state.cognitive.affect.valence,
        carried: false,
        sellerPrice,
      });
      state = next;
      if (state.ended !== null) endedAt = i;
    }
    history.push({ speaker: 'actor', text: step.actor });
    if (step.user !== null) history.push({ speaker: 'user', text: step.user });
    // Teacher forcing of the seller's public price (module comment): the last price the history names for it.
    if (d.task === 'cb' && state.ended === null)
      state = { ...state, lastUserPrice: prefixSellerPrice(history, d.seed.userPrivate.listPrice) };
  }
  const committed =
    state.events.some((e) => e.type === 'commit') && !state.events.some((e) => e.type === 'withdraw');
  return {
    dialogue: d,
    decisions,
    final: {
      intention: goalIntentionStrength(state),
      committed,
      donation: endDonationProbability(start, state, perceived),
      donationInputs: d.task === 'p4g' ? donationInputs(start, state, perceived) : null,
      deal: state.ended === 'deal',
      ended: state.ended,
      endedAt,
    },
  };
}
