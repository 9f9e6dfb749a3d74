/**
 * Template cognitive change proposer (§A.3): reads the utterance text and the simulator's own state, never a
 * strategy label.
 *
 * Assessment, each in [0, 1]: relevance grows with hits on topics the user holds records on (weighted by their
 * strength) and with references to the user's own words; argument quality with evidence, specificity and
 * concrete suggestions, and falls with dismissal and pressure; cue strength with warmth, pressure, greetings,
 * self-disclosure and exclamation. Discrepancy combines the strength of opposing records on the addressed topics
 * (for a call to action: the opposing intention; for a price: the gap to the seller's acceptable price),
 * pressure and dismissal, less rapport: below 0.3 low, below 0.6 medium, else high. For a CraigslistBargain offer
 * the opposition is the gap between the offer and the seller's acceptable price alone (that price already holds the
 * seller's resolve), and an offer below the buyer's own earlier best is a retraction, read as bad faith.
 *
 * Proposal: what the message says moves the records on its topics, scaled by its novelty — arguments the user has
 * already heard from the actor in the same words carry no new information (a verbatim repeat moves nothing; the
 * nagging still costs rapport through pressure). In CraigslistBargain the seller reciprocates the buyer's own
 * concessions (an offer above the buyer's earlier best) and holds firmer after a retraction.
 */
import type { CognitiveState, TaskId } from '../../tasks/seed';
import type { TextFeatures } from '../../text/features';
import { perceptionOf, type Perception } from '../perception';
import { sellerAcceptablePrice } from '../dynamics';
import { CHANGE_LIMITS, isSupported } from '../updater';
import { findRecord, objectionStrength, strengthOf, topicStrength } from '../records';
import type { ChangeProposer, MessageAssessment, SimView } from '../roles';
import { TASK_RULES } from '../rules';
import type { Judgment, Level, Proposal, Route } from '../types';
import { LEVEL_VALUE } from '../types';

/**
 * Beliefs moving toward the goal carry the goal intention with them only up to this strength (half scale);
 * beyond it, the intention needs a call to action (a suggestion, a donation request, an offer).
 */
export const COHERENCE_CEILING = 2;

/**
 * Emotional contagion: the tone of what is said (its sentiment in [-1, 1]) moves the listener's coping potential
 * and expectancy by up to this much, on every turn.
 */
export const CONTAGION = 0.1;

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

/** How much `utterance` repeats the actor's earlier turns in the view (see {@link Perception.repetition}). */
export function repetition(utterance: string, view: SimView): number {
  return perceptionOf(utterance, view).repetition;
}

/** Mean strength / 4 of the records supporting an intention, in [0, 1] (0 when it has none). */
function supportOf(cog: CognitiveState, intentionId: string): number {
  const goal = findRecord(cog, intentionId);
  if (!goal || goal.supports.length === 0) return 0;
  let sum = 0;
  for (const id of goal.supports) sum += strengthOf(cog, id) / 4;
  return sum / goal.supports.length;
}

function pressureLevel(f: TextFeatures, repeated: number): Level {
  const p = Math.max(f.pressure, f.exclamation) + 0.4 * repeated;
  return p >= 0.7 ? 'high' : p >= 0.4 ? 'medium' : 'low';
}

/**
 * Whether a perceived utterance asks this user to act: ESConv — a suggestion or a step (`action` topic);
 * P4G — a donation request (`donate` topic, a request to give, or an amount with a suggestion or question); CB — a price
 * offer. A suggestion about something else (a restaurant, the weather) is no call to action for P4G or CB.
 */
export function callToAction(p: Perception, task: TaskId): boolean {
  const f = p.features;
  const topical = TASK_RULES[task].callToAction.some((t) => (p.topics[t] ?? 0) > 0);
  if (task === 'esconv') return f.suggestion > 0 || topical;
  if (task === 'p4g')
    return topical || f.requestToGive > 0 || (f.price !== null && (f.suggestion > 0 || f.question > 0));
  return f.price !== null;
}

/** Whether the utterance asks the user to act (see {@link callToAction}). */
export function isCallToAction(utterance: string, view: SimView): boolean {
  return callToAction(perceptionOf(utterance, view), view.task.id);
}

/**
 * How a CraigslistBargain offer moves from the buyer's own best earlier offer, as fractions of the list price:
 * `concession` when it rises (the buyer gives ground), `retraction` when it falls below it (ground taken back).
 * Both 0 for a first offer, outside CB, or without a price.
 */
export function offerMovement(
  price: number | null,
  view: SimView,
): { concession: number; retraction: number } {
  const list = view.state.private.listPrice;
  if (view.task.id !== 'cb' || price === null || !list) return { concession: 0, retraction: 0 };
  const earlier = view.state.events
    .filter((e) => e.type === 'offer' && e.by === 'actor' && e.price !== undefined)
    .map((e) => e.price as number);
  if (earlier.length === 0) return { concession: 0, retraction: 0 };
  const best = Math.max(...earlier);
  return {
    concession: Math.max(0, price - best) / list,
    retraction: Math.max(0, best - price) / list,
  };
}

/**
 * The goal intention the user's attitude supports, in [0, 4] (theory of planned behaviour: intention follows
 * attitude; Ajzen, 1991): 2 + the mean strength of the records supporting the goal intention − the strength of
 * the strongest active belief or desire against the goal. The strongest objection counts alone, not an average:
 * one unresolved barrier (distrust of charities, a tight budget) is reason enough to decline (a conjunctive
 * decision rule), and an argument that answers it lowers it. Used where the task's `attitudeBound` rule holds ({@link TASK_RULES}).
 */
export function attitudeLevel(cog: CognitiveState, goalIntention: string): number {
  const supports = findRecord(cog, goalIntention)?.supports ?? [];
  let pro = 0;
  for (const id of supports) pro += strengthOf(cog, id);
  if (supports.length > 0) pro /= supports.length;
  const con = objectionStrength(cog);
  return Math.min(4, Math.max(0, 2 + pro - con));
}

/** Largest strength of the active records against the goal on `topic`, except those in `carried`, in [0, 4]. */
function opposingStrength(cog: CognitiveState, topic: string, carried: readonly string[]): number {
  let best = 0;
  for (const list of [cog.beliefs, cog.desires, cog.intentions])
    for (const r of list)
      if (r.active && r.topic === topic && r.direction === 'against' && !carried.includes(r.id))
        best = Math.max(best, r.strength);
  return best;
}

/** Add `d` to the delta of record `id`. */
function addTo(deltas: Map<string, number>, id: string, d: number): void {
  deltas.set(id, (deltas.get(id) ?? 0) + d);
}

function levelOf(score: number): Level {
  return score < 0.3 ? 'low' : score < 0.6 ? 'medium' : 'high';
}

export class TemplateChangeProposer implements ChangeProposer {
  readonly fittedReactions = true;
  async assess(utterance: string, view: SimView): Promise<MessageAssessment> {
    const cog = view.state.cognitive;
    const rules = TASK_RULES[view.task.id];
    const p = perceptionOf(utterance, view);
    const f = p.features;
    const hits = p.topics;
    const asks = callToAction(p, view.task.id);
    // A request meets the opposing intention, which already carries the records that support it (the P4G
    // persuadee's "I cannot spare money"): naming their topic in the request is not counted a second time.
    const carried = asks ? (findRecord(cog, rules.againstIntention)?.supports ?? []) : [];
    let topical = 0;
    let opposition = 0;
    for (const [topic, hit] of Object.entries(hits)) {
      if (topic === 'rapport') continue;
      topical += hit * (0.4 + 0.6 * (topicStrength(cog, topic) / 4));
      opposition = Math.max(opposition, (0.6 + 0.4 * hit) * (opposingStrength(cog, topic, carried) / 4));
    }
    const list = view.state.private.listPrice;
    // Bad faith: taking back part of one's own earlier offer (a retraction of 5% of the list price counts fully).
    const badFaith = clamp01(offerMovement(f.price, view).retraction / 0.05);
    if (view.task.id === 'cb' && f.price !== null && list) {
      // An offer is as far from the seller's view as it is below what the seller would accept now; that price
      // already reflects the seller's resolve (its hold intention), which is not counted a second time.
      const gap = (sellerAcceptablePrice(view.state) - f.price) / list;
      opposition = Math.max(opposition, clamp01(gap / 0.3), badFaith);
    } else if (asks) {
      const against = strengthOf(cog, rules.againstIntention) / 4;
      opposition = Math.max(opposition, against, 1 - supportOf(cog, rules.goalIntention));
    }
    const repeated = p.repetition;
    const pressure = pressureLevel(f, repeated);
    const rapport = strengthOf(cog, rules.rapportBelief) / 4;
    // A gentle, concrete request meets less resistance than a bare one; pressure and dismissal meet more.
    // Evidence that answers a held concern makes the message less discrepant on the central route (ELM).
    const softening = Math.max(0.4, 1 - 0.35 * f.warmth - 0.15 * f.specificity - 0.3 * f.evidence);
    const score =
      0.8 * opposition * softening +
      0.3 * ((LEVEL_VALUE[pressure] - 0.2) / 0.6) +
      0.6 * f.dismissive +
      0.25 * repeated -
      0.3 * rapport;
    // An off-topic message (no task topic, no call to action) is not relevant to this user, however long its words.
    const relevance = topical === 0 && !asks ? 0.1 : clamp01(0.15 + 0.7 * topical + 0.5 * f.specificity);
    return {
      relevance,
      argumentQuality: clamp01(
        0.2 +
          0.45 * f.evidence +
          0.35 * f.specificity +
          0.2 * f.suggestion -
          0.4 * f.dismissive -
          0.2 * f.pressure,
      ),
      cueStrength: clamp01(
        0.45 * f.warmth +
          0.35 * f.pressure +
          0.3 * f.greeting +
          0.3 * f.selfDisclosure +
          0.2 * f.exclamation +
          0.2 * (hits.rapport ?? 0),
      ),
      // Dismissing the user's concern is always far from what they believe about it.
      discrepancy: f.dismissive >= 0.5 ? 'high' : levelOf(score),
      pressure,
    };
  }

  /**
   * Appraisal after an Elicit or Social turn (records stay unchanged): being met warmly raises coping potential
   * and future expectancy a little, dismissal and pressure lower them, and the tone of the message carries over
   * ({@link CONTAGION}); a neutral remark changes nothing. (A question to a user in distress re-evokes the distress
   * for the moment: that is a dip of mood, not of appraisal — `reactivation` in `../affect.ts`.)
   */
  async reappraise(utterance: string, view: SimView): Promise<{ CP: number; FE: number }> {
    const f = perceptionOf(utterance, view).features;
    const { CP, FE } = view.state.cognitive.appraisal;
    const lift =
      0.1 * f.warmth + 0.04 * f.greeting - 0.25 * f.dismissive - 0.2 * f.pressure + CONTAGION * f.sentiment;
    return { CP: CP + 0.5 * lift, FE: FE + lift };
  }

  async propose(
    utterance: string,
    view: SimView,
    route: Route,
    judgment: Judgment,
    a: MessageAssessment,
  ): Promise<Proposal> {
    const cog = view.state.cognitive;
    const rules = TASK_RULES[view.task.id];
    const p = perceptionOf(utterance, view);
    const f = p.features;
    const hits = p.topics;
    const q = route === 'central' ? 0.5 + 0.5 * a.argumentQuality : 0.4 + 0.6 * a.cueStrength;
    const pressure = LEVEL_VALUE[a.pressure] - 0.2;
    // What is new in the message: repeated arguments and requests carry no new information.
    const novelty = 1 - p.repetition;
    const movement = offerMovement(f.price, view);
    const deltas = new Map<string, number>();
    // The task topics the message addresses, which it claims to argue (a short list: cheaper to search than to
    // look every record's topic up in `hits`).
    const claimTopics = Object.keys(hits).filter((t) => t !== 'rapport');

    for (const list of [cog.beliefs, cog.desires, cog.intentions]) {
      for (const r of list) {
        if (!r.active || !claimTopics.includes(r.topic)) continue;
        const hit = hits[r.topic];
        if (!hit) continue;
        if (r.type === 'belief')
          addTo(deltas, r.id, (r.direction === 'against' ? -1 : 1) * 1.2 * hit * q * novelty);
        if (
          r.type === 'desire' &&
          route === 'central' &&
          judgment === 'accept' &&
          r.direction !== 'neutral'
        ) {
          addTo(deltas, r.id, (r.direction === 'against' ? -0.3 : 0.3) * hit * novelty);
        }
      }
    }
    // Coherence: beliefs moving toward the goal carry the intentions with them (and away from it, against).
    if (judgment !== 'reject') {
      let progress = 0;
      for (const [id, d] of deltas) {
        const r = findRecord(cog, id);
        if (r?.type === 'belief' && r.direction !== 'neutral') progress += r.direction === 'for' ? d : -d;
      }
      const goalNow = strengthOf(cog, rules.goalIntention);
      if (goalNow < COHERENCE_CEILING)
        addTo(deltas, rules.goalIntention, Math.min(0.15 * progress, COHERENCE_CEILING - goalNow));
      addTo(deltas, rules.againstIntention, -0.3 * progress);
    }
    addTo(
      deltas,
      rules.rapportBelief,
      0.8 * f.warmth + 0.4 * (hits.rapport ?? 0) - f.dismissive - 0.4 * pressure,
    );

    const support = supportOf(cog, rules.goalIntention);
    if (judgment === 'reject') {
      addTo(deltas, rules.againstIntention, 0.5 * (0.5 + pressure));
    } else if (callToAction(p, view.task.id)) {
      // A request turns attitude into intention. Where the act is the user's own costly choice, it closes part
      // of the gap to the intention their attitude supports and cannot push past it: asking again does not make
      // a reluctant person willing; answering their objection (which lowers it) does.
      const room = rules.attitudeBound
        ? Math.max(0, attitudeLevel(cog, rules.goalIntention) - strengthOf(cog, rules.goalIntention))
        : 0.3 + support;
      addTo(deltas, rules.goalIntention, (judgment === 'accept' ? 1.0 : 0.4) * q * room * novelty);
      if (judgment === 'accept') addTo(deltas, rules.againstIntention, -0.4 * q * novelty);
    }
    addTo(deltas, rules.againstIntention, 0.6 * pressure + 0.8 * f.dismissive);
    // Reciprocity: a buyer's concession (a tenth of the list price counts fully) invites one from the seller;
    // a retraction hardens the seller and costs the buyer's credibility.
    const conceded = clamp01(movement.concession / 0.1);
    const retracted = clamp01(movement.retraction / 0.05);
    if (conceded > 0) {
      addTo(deltas, rules.goalIntention, 0.8 * conceded);
      addTo(deltas, rules.againstIntention, -0.4 * conceded);
    }
    if (retracted > 0) {
      addTo(deltas, rules.againstIntention, 0.5 * retracted);
      addTo(deltas, rules.rapportBelief, -0.8 * retracted);
    }

    // Respect the updater's rule instead of having the whole proposal rejected: without grounds, an intention
    // rises by at most half its limit.
    const halfLimit = CHANGE_LIMITS[route][judgment].intention / 2;
    for (const r of cog.intentions) {
      const d = deltas.get(r.id);
      if (d !== undefined && d > halfLimit && !isSupported(cog, r)) deltas.set(r.id, halfLimit);
    }
    // Under pressure (0 … 0.6 above the floor) a message's good side counts for less: 1 − pressure / 0.6.
    const unpressured = 1 - pressure / 0.6;
    const shift =
      judgment === 'accept'
        ? 0.16 + 0.16 * q + 0.1 * f.warmth
        : judgment === 'non-commit'
          ? 0.06
          : -0.12 - 0.1 * pressure;
    const changes: Proposal['changes'] = [];
    for (const [id, d] of deltas)
      if (Math.abs(d) > 1e-9) changes.push({ id, delta: Math.round(d * 1e6) / 1e6 });
    const stance =
      judgment === 'accept'
        ? 'agree'
        : judgment === 'reject'
          ? 'resist'
          : strengthOf(cog, rules.againstIntention) >= 2.5
            ? 'hesitant'
            : 'open';
    return {
      changes,
      newRecords: [],
      claimTopics,
      // Pressure is not relief: being pushed lowers the sense of control and of a good outcome.
      appraisal: {
        CP:
          CONTAGION * f.sentiment +
          cog.appraisal.CP +
          (shift > 0 ? shift * unpressured : shift) +
          (judgment === 'accept' ? 0.1 * f.suggestion : 0) -
          0.8 * pressure,
        FE:
          CONTAGION * f.sentiment +
          cog.appraisal.FE +
          (shift > 0 ? shift * unpressured : shift) -
          0.2 * f.dismissive -
          0.5 * pressure,
      },
      plan: { stance },
    };
  }
}
