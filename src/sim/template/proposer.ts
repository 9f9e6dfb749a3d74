/**
 * Template cognitive change proposer (§A.3): reads the utterance text and the simulator's own state, never a
 * strategy label.
 *
 * Assessment, each in [0, 1]: relevance grows with hits on topics the user holds records on (weighted by their
 * strength) and with references to the user's own words; argument quality with evidence, specificity and
 * concrete suggestions, and falls with dismissal and pressure; cue strength with warmth, pressure, greetings,
 * self-disclosure and exclamation. Discrepancy combines the strength of opposing records on the addressed topics
 * (for a call to action: the opposing intention; for a price: the gap to the seller's acceptable price),
 * pressure and dismissal, less rapport: below 0.3 low, below 0.6 medium, else high.
 */
import { contentWordSet, extractFeatures, topicHits, type TextFeatures } from '../../text/features';
import { sellerAcceptablePrice } from '../dynamics';
import { CHANGE_LIMITS, isSupported } from '../updater';
import { records, strengthOf, topicStrength } from '../records';
import type { ChangeProposer, MessageAssessment, SimView } from '../roles';
import { TASK_RULES } from '../rules';
import type { Judgment, Level, Proposal, Route } from '../types';
import { LEVEL_VALUE } from '../types';

/**
 * Beliefs moving toward the goal carry the goal intention with them only up to this strength (half scale);
 * beyond it, the intention needs a call to action (a suggestion, a donation request, an offer).
 */
export const COHERENCE_CEILING = 2;

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

function lastUserText(view: SimView): string {
  for (let i = view.history.length - 1; i >= 0; i--) {
    const t = view.history[i];
    if (t && t.speaker === 'user') return t.text;
  }
  return '';
}

/**
 * How much the utterance repeats the actor's earlier ones, in [0, 1]: 1 for a verbatim repeat, else the largest
 * share of its content words already used in one earlier actor turn. Repetition reads as nagging.
 */
export function repetition(utterance: string, view: SimView): number {
  const words = contentWordSet(utterance);
  const trimmed = utterance.trim();
  let best = 0;
  for (const t of view.history) {
    if (t.speaker !== 'actor') continue;
    if (t.text.trim() === trimmed) return 1;
    if (words.size === 0) continue;
    const other = contentWordSet(t.text);
    let shared = 0;
    for (const w of words) if (other.has(w)) shared++;
    best = Math.max(best, shared / words.size);
  }
  return best >= 0.6 ? best : 0;
}

/** Mean strength / 4 of the records supporting an intention, in [0, 1] (0 when it has none). */
function supportOf(view: SimView, intentionId: string): number {
  const cog = view.state.cognitive;
  const goal = records(cog).find((r) => r.id === intentionId);
  if (!goal || goal.supports.length === 0) return 0;
  return goal.supports.reduce((s, id) => s + strengthOf(cog, id) / 4, 0) / goal.supports.length;
}

function pressureLevel(f: TextFeatures, repeated: number): Level {
  const p = Math.max(f.pressure, f.exclamation) + 0.4 * repeated;
  return p >= 0.7 ? 'high' : p >= 0.4 ? 'medium' : 'low';
}

/** Whether the utterance asks the user to act (a call to action for this task). */
export function isCallToAction(utterance: string, view: SimView): boolean {
  const f = extractFeatures(utterance);
  const hits = topicHits(utterance, view.task.topics);
  return f.suggestion > 0 || f.price !== null || TASK_RULES[view.task.id].callToAction.some((t) => hits[t]);
}

function levelOf(score: number): Level {
  return score < 0.3 ? 'low' : score < 0.6 ? 'medium' : 'high';
}

export class TemplateChangeProposer implements ChangeProposer {
  async assess(utterance: string, view: SimView): Promise<MessageAssessment> {
    const cog = view.state.cognitive;
    const rules = TASK_RULES[view.task.id];
    const f = extractFeatures(utterance, lastUserText(view), ...view.state.private.concerns);
    const hits = topicHits(utterance, view.task.topics);
    let topical = 0;
    let opposition = 0;
    for (const [topic, hit] of Object.entries(hits)) {
      if (topic === 'rapport') continue;
      topical += hit * (0.4 + 0.6 * (topicStrength(cog, topic) / 4));
      opposition = Math.max(opposition, (0.6 + 0.4 * hit) * (topicStrength(cog, topic, 'against') / 4));
    }
    if (isCallToAction(utterance, view)) {
      const against = strengthOf(cog, rules.againstIntention) / 4;
      opposition = Math.max(opposition, against, 1 - supportOf(view, rules.goalIntention));
    }
    if (view.task.id === 'cb' && f.price !== null && view.state.private.listPrice) {
      const gap = (sellerAcceptablePrice(view.state) - f.price) / view.state.private.listPrice;
      opposition = Math.max(opposition, clamp01(gap / 0.3));
    }
    const repeated = repetition(utterance, view);
    const pressure = pressureLevel(f, repeated);
    const rapport = strengthOf(cog, rules.rapportBelief) / 4;
    const score =
      0.8 * opposition +
      0.3 * ((LEVEL_VALUE[pressure] - 0.2) / 0.6) +
      0.6 * f.dismissive +
      0.25 * repeated -
      0.3 * rapport;
    return {
      relevance: clamp01(0.15 + 0.7 * topical + 0.5 * f.specificity),
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
      discrepancy: levelOf(score),
      pressure,
    };
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
    const f = extractFeatures(utterance, lastUserText(view));
    const hits = topicHits(utterance, view.task.topics);
    const q = route === 'central' ? 0.5 + 0.5 * a.argumentQuality : 0.4 + 0.6 * a.cueStrength;
    const pressure = LEVEL_VALUE[a.pressure] - 0.2;
    const deltas = new Map<string, number>();
    const add = (id: string, d: number) => deltas.set(id, (deltas.get(id) ?? 0) + d);

    for (const r of records(cog)) {
      if (!r.active || r.topic === 'rapport') continue;
      const hit = hits[r.topic];
      if (!hit) continue;
      if (r.type === 'belief') add(r.id, (r.direction === 'against' ? -1 : 1) * 1.2 * hit * q);
      if (r.type === 'desire' && route === 'central' && judgment === 'accept' && r.direction !== 'neutral') {
        add(r.id, (r.direction === 'against' ? -0.3 : 0.3) * hit);
      }
    }
    // Coherence: beliefs moving toward the goal carry the intentions with them (and away from it, against).
    if (judgment !== 'reject') {
      let progress = 0;
      for (const [id, d] of deltas) {
        const r = records(cog).find((x) => x.id === id);
        if (r?.type === 'belief' && r.direction !== 'neutral') progress += r.direction === 'for' ? d : -d;
      }
      const goalNow = strengthOf(cog, rules.goalIntention);
      if (goalNow < COHERENCE_CEILING)
        add(rules.goalIntention, Math.min(0.15 * progress, COHERENCE_CEILING - goalNow));
      add(rules.againstIntention, -0.3 * progress);
    }
    add(rules.rapportBelief, 0.8 * f.warmth + 0.4 * (hits.rapport ?? 0) - f.dismissive - 0.4 * pressure);

    const support = supportOf(view, rules.goalIntention);
    if (judgment === 'reject') {
      add(rules.againstIntention, 0.5 * (0.5 + pressure));
    } else if (isCallToAction(utterance, view)) {
      add(rules.goalIntention, (judgment === 'accept' ? 1.0 : 0.4) * q * (0.3 + support));
      if (judgment === 'accept') add(rules.againstIntention, -0.4 * q);
    }
    add(rules.againstIntention, 0.6 * pressure + 0.8 * f.dismissive);

    // Respect the updater's rule instead of having the whole proposal rejected: without grounds, an intention
    // rises by at most half its limit.
    const halfLimit = CHANGE_LIMITS[route][judgment].intention / 2;
    for (const r of cog.intentions) {
      const d = deltas.get(r.id);
      if (d !== undefined && d > halfLimit && !isSupported(cog, r)) deltas.set(r.id, halfLimit);
    }
    const shift =
      judgment === 'accept' ? 0.12 + 0.12 * q : judgment === 'non-commit' ? 0.04 : -0.12 - 0.1 * pressure;
    const claimTopics = Object.keys(hits).filter((t) => t !== 'rapport');
    const changes = [...deltas]
      .filter(([, d]) => Math.abs(d) > 1e-9)
      .map(([id, delta]) => ({ id, delta: Math.round(delta * 1e6) / 1e6 }));
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
      appraisal: {
        CP: cog.appraisal.CP + shift + (judgment === 'accept' ? 0.1 * f.suggestion : 0),
        FE: cog.appraisal.FE + shift - 0.2 * f.dismissive,
      },
      plan: { stance },
    };
  }
}
