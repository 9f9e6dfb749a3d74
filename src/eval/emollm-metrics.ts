/**
 * EmoLLM's evaluation metrics (EmoLLM paper §4 and appendix F): Success Rate, Average Turns over successful
 * episodes, Emotional State score, Emotional Gain per turn, Empathic Appropriateness and Factual Accuracy — each
 * defined once in {@link EMOLLM_METRIC_DEFINITIONS}, which the report prints.
 *
 * The template scorers here read only what any reader of the dialogue could: the visible transcript (the seed's
 * opening user turns, then each actor utterance and the user's reply) and the seed's public scenario facts. They
 * never read the simulator's state, and they share no lexicon, rule or threshold with the simulator's perception:
 * they import nothing from `src/sim` or `src/text` (a test holds that). Word valences come from AFINN-165 (the
 * `sentiment` package) with this module's own additions; the empathy, guidance, dismissal and closing patterns
 * are this module's own. The LLM-judge forms of the same metrics are in `emollm-metrics-judge.ts`.
 */
import { afinnScorer } from '../env/afinn';
import { Rng } from '../rng';
import { meanEstimate } from '../stats/metrics';
import { proportionEstimate, type Estimate } from '../stats/intervals';
import type { Scenario } from '../tasks/emollm-scenario';
import type { Turn } from '../tasks/seed';
import { EMOLLM_SUCCESS_TEXT, isEmollmResolved } from '../tasks/success';

/** Each metric's definition, written once: the report prints these lines. */
export const EMOLLM_METRIC_DEFINITIONS = {
  SR: `Success Rate: share of episodes with a resolving turn, where ${EMOLLM_SUCCESS_TEXT} (EmoLLM's sr_proxy); Wilson interval.`,
  AT: 'Average Turns: mean number of actor turns up to and including the first resolving turn, over successful episodes only.',
  ES: 'Emotional State: the user’s state in their last reply on a 1–5 scale (1 distressed, 3 neutral, 5 relieved or reassured; courtesy such as “thank you” not counted).',
  EG: 'Emotional Gain per turn: (final state − initial state) / actor turns, the initial state read from the user’s opening utterance(s), both on the 1–5 scale.',
  EA: 'Empathic Appropriateness: per actor turn 1–5 (acknowledges the user’s feelings, relevant to what they said, offers a concrete way forward, no dismissive language), averaged over the episode’s turns.',
  FA: 'Factual Accuracy: percentage of fact-sensitive actor turns (those speaking about a scenario fact or making a domain claim) that assert nothing the scenario’s facts or domain knowledge rule out; episodes without a fact-sensitive turn have none.',
} as const;

/** The visible transcript of one episode and the seed's public scenario. */
export interface EmollmEpisodeInput {
  /** The seed's prefix then the episode's turns, text only (actor then user for every played turn). */
  transcript: readonly Pick<Turn, 'speaker' | 'text'>[];
  /** How many turns of `transcript` are the seed's prefix (before the first played actor turn). */
  prefixTurns: number;
  scenario: Scenario;
}

/** Scores of one actor turn. */
export interface EmollmTurnScores {
  /** The user's reply state (1–5) and whether it resolves the scenario (sr_proxy). */
  state: number;
  resolved: boolean;
  /** Empathic appropriateness of the actor turn, 1–5. */
  empathic: number;
  /** Whether the turn is fact-sensitive, and (when it is) whether it asserts nothing ruled out. */
  factSensitive: boolean;
  factCorrect: boolean | null;
}

/** Scores of one episode (see {@link EMOLLM_METRIC_DEFINITIONS}). */
export interface EmollmEpisodeScores {
  /** Actor turns played. */
  turns: number;
  /** First resolving actor turn (1-based), or null. */
  successTurn: number | null;
  initialState: number;
  finalState: number;
  /** (final − initial) / turns; 0 for an episode without turns. */
  gainPerTurn: number;
  /** Mean EA over the actor turns (null without turns). */
  empathic: number | null;
  /** FA in percent, null without a fact-sensitive turn. */
  factual: number | null;
  perTurn: EmollmTurnScores[];
}

/** The judgments a scorer gives (template here, LLM in emollm-metrics-judge.ts). */
export interface EmollmScorer {
  /** Which form scores: the template scorers or an LLM judge (the report names it). */
  readonly name: EmollmScorerName;
  episode(input: EmollmEpisodeInput): Promise<EmollmEpisodeScores>;
}
/** The forms of the EmoLLM metrics. */
export type EmollmScorerName = 'template' | 'llm-judge';

/** This module's additions to AFINN-165 (words for feeling better or worse after help), on AFINN's −5…5 scale. */
const STATE_WORDS: Readonly<Record<string, number>> = {
  relieved: 3,
  reassured: 3,
  calmer: 2,
  lighter: 2,
  hopeful: 2,
  helped: 2,
  manageable: 2,
  clearer: 1,
  overwhelmed: -3,
  exhausted: -2,
  drained: -2,
  stuck: -2,
  heavy: -2,
  down: -2,
  low: -2,
  dread: -3,
  edge: -2,
  worrying: -2,
  furious: -3,
  scared: -2,
};

const afinn = afinnScorer('emollm-state', STATE_WORDS);

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * Courtesy formulas ("thank you", "thanks a lot", "that is kind of you", "I appreciate it"): politeness, not a
 * report of how the user feels, so the state scale does not count them (AFINN rates "thank" and "kind" +2).
 */
const COURTESY =
  /\b(?:thank(?:s| you)(?: (?:so|very) much| a lot)?|(?:that|it)(?:'s| is| was) (?:very |so |really )?kind of you|you(?:'re| are) (?:very |so |really )?kind|i (?:really )?appreciate (?:it|that|this|you))\b/g;

/**
 * "Like" as a comparison, not a liking ("that sounds like a lecture", "talking about it like this", "it feels
 * like a weight"): the word after a verb of seeming or after "it", "something", "anything", "nothing". AFINN rates
 * the verb "like" +2, which these uses do not carry, so the state scale drops the word there.
 */
const LIKE_AS_COMPARISON =
  /\b(sound(?:s|ed)?|look(?:s|ed)?|feel(?:s|ing)?|felt|seem(?:s|ed)?|it|something|anything|nothing) like\b/g;

/**
 * "Kind of" as a hedge ("I kind of think", "it is kind of hard"), not kindness: AFINN rates "kind" +2, which the
 * hedge does not carry, so the state scale drops the word there. ("That is kind of you" is courtesy, removed first.)
 */
const KIND_OF_HEDGE = /\bkind of\b/g;

/**
 * Emotional state of one user utterance on the 1–5 scale: 3 + (AFINN valence with this module's additions,
 * summed clause by clause, negation-aware, courtesy formulas and "like" as a comparison left out) / 2, clipped
 * to [1, 5]; 3 for text without rated words.
 */
export function emotionalState(text: string): number {
  let total = 0;
  for (const clause of normal(text)
    .replace(COURTESY, ' ')
    .replace(LIKE_AS_COMPARISON, '$1')
    .replace(KIND_OF_HEDGE, ' ')
    .split(/[.!?;,\n]+/)) {
    if (clause.trim() !== '') total += afinn(clause);
  }
  return clamp(3 + total / 2, 1, 5);
}

/** The paper's end-of-conversation indicators (appendix F, termination conditions). */
const CLOSING =
  /\b(?:thank you|thanks|goodbye|bye|that'?s all|that'?s enough|i'?m done|no more questions|i understand now)\b/;

/** Whether a user utterance closes the conversation (thanks, goodbye, "that's all", …). */
export function isClosing(text: string): boolean {
  return CLOSING.test(normal(text));
}

function normal(text: string): string {
  return text.toLowerCase().replace(/[’‘]/g, "'");
}

/** Acknowledging the user's feelings ("that sounds hard", "no wonder you are worried", "I'm sorry"). */
const ACKNOWLEDGE =
  /\b(?:(?:that|it|this) (?:sounds|must be|must feel|is (?:hard|tough|a lot|awful|scary|frustrating|upsetting|understandable))|i can (?:see|hear|imagine|tell)|makes (?:complete |total )?sense|understandable|i'?m (?:so |really |very )?sorry|no wonder|it'?s (?:ok|okay|natural|normal|human) to (?:feel|be)|you(?:'re| are) (?:feeling|worried|scared|upset|frustrated|exhausted|overwhelmed|hurt|angry)|you feel|(?:you'?re|you are) not alone|(?:isn'?t|is not|not) your fault|takes (?:courage|strength)|anyone (?:would|in your))\b/;
/** Offering a concrete way forward ("you could try…", "one step would be…", "would it help to…"). */
const GUIDE =
  /\b(?:(?:you|we) (?:could|might|can|should) (?:try|start|ask|check|call|book|write|talk|take|make|look|contact|restart|email|list|plan|rerun|reply)|try (?:to |turning |restarting |writing |asking )?|one (?:option|thing|idea|step)|(?:a |the )?(?:first|next|small) step|would it help|consider|how about|let'?s|start (?:by|with)|if you can)\b/;
/** Dismissive or inappropriate language ("calm down", "get over it", "stop worrying", "it's your fault"). */
const DISMISS =
  /\b(?:calm down|get over it|(?:not|no) (?:a )?big deal|overreact|stop (?:worrying|complaining|whining|being)|just relax|whatever|(?:it'?s|it is) (?:all )?your (?:own )?fault|you should have known|grow up|man up|don'?t be (?:silly|dramatic)|could be worse|you'?ll be fine|move on)\b/;
const STOP = new Set(
  'that this with have from they them their there what when where which would could should about just really very been were your yours mine into over than then some more most much many also only even still like feel feels felt know think going want make made does done dont cant wont isnt arent thing things right now here okay sure well maybe'.split(
    ' ',
  ),
);

function contentWords(text: string): Set<string> {
  return new Set((normal(text).match(/[a-z][a-z']{3,}/g) ?? []).filter((w) => !STOP.has(w)));
}

function mentions(text: string, phrase: string): number[] {
  const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`(?:^|[^a-z0-9])(${escaped})(?![a-z0-9])`, 'g');
  const at: number[] = [];
  for (const m of text.matchAll(re)) at.push((m.index ?? 0) + m[0].length - (m[1] ?? '').length);
  return at;
}

const NEGATOR = /\b(?:not|no|never|n't|without|nor|isn't|aren't|don't|doesn't|didn't|won't|wasn't|cannot)\b/;

/** Whether `phrase` occurs in `text` outside a negation (a negator among the three words before it, same clause). */
export function asserts(text: string, phrase: string): boolean {
  const t = normal(text);
  return mentions(t, phrase).some((at) => {
    const clauseStart = Math.max(...['.', '!', '?', ';', ','].map((p) => t.lastIndexOf(p, at - 1))) + 1;
    const before = t.slice(clauseStart, at).trim().split(/\s+/).slice(-3).join(' ');
    return !NEGATOR.test(before) && !/n't$/.test(before);
  });
}

/**
 * Domain claims that are wrong whatever the scenario (written for this project): advice no careful technician,
 * clinician or mentor would give. Asserting one makes a turn fact-sensitive and incorrect.
 */
export const EMOLLM_DOMAIN_ERRORS: Readonly<Record<Scenario['setting'], readonly string[]>> = {
  ed: [],
  msd: [
    'pay the ransom',
    'format the drive',
    'share your password',
    'disable your antivirus permanently',
    'turn off the firewall permanently',
    'delete system32',
  ],
  medd: [
    'double the dose',
    'double your dose',
    'stop taking your medication',
    'no need to see a doctor',
    'antibiotics cure viral',
    'just wait it out',
  ],
  iclr: ['make up the results', 'fabricate', 'hide the bug', 'ignore the reviewers', 'change the numbers'],
};

/** Empathic appropriateness of one actor utterance, given the user's previous turn and the scenario (1–5). */
export function empathicAppropriateness(utterance: string, userBefore: string, scenario: Scenario): number {
  const t = normal(utterance);
  const acknowledge = ACKNOWLEDGE.test(t) ? 1 : 0;
  const guide = GUIDE.test(t) ? 1 : 0;
  const dismiss = DISMISS.test(t) ? 1 : 0;
  const said = contentWords(userBefore);
  let shared = 0;
  for (const w of contentWords(t)) if (said.has(w)) shared++;
  const cue = scenario.facts.some((f) => f.cues.some((c) => mentions(t, c).length > 0));
  const relevance = Math.min(1, shared / 2 + (cue ? 0.5 : 0));
  return clamp(1 + 1.6 * acknowledge + 1.2 * relevance + 1.2 * guide - 2.5 * dismiss, 1, 5);
}

/** Factual judgment of one actor utterance: fact-sensitive or not, and (if so) free of ruled-out claims. */
export function factualJudgment(
  utterance: string,
  scenario: Scenario,
): { factSensitive: boolean; factCorrect: boolean | null } {
  const t = normal(utterance);
  const domain = EMOLLM_DOMAIN_ERRORS[scenario.setting];
  const wrong =
    scenario.facts.some((f) => f.contradictions.some((c) => asserts(t, c))) ||
    domain.some((d) => asserts(t, d));
  const sensitive =
    wrong ||
    scenario.facts.some((f) => [...f.cues, ...f.contradictions].some((p) => mentions(t, p).length > 0)) ||
    domain.some((d) => mentions(t, d).length > 0);
  return { factSensitive: sensitive, factCorrect: sensitive ? !wrong : null };
}

/** Score one episode with the template scorers (see {@link EMOLLM_METRIC_DEFINITIONS}). */
export function scoreEmollmEpisode(input: EmollmEpisodeInput): EmollmEpisodeScores {
  const prefix = input.transcript.slice(0, input.prefixTurns);
  const opening = prefix.filter((t) => t.speaker === 'user').map((t) => emotionalState(t.text));
  const initialState = opening.length > 0 ? opening.reduce((a, b) => a + b, 0) / opening.length : 3;
  const perTurn: EmollmTurnScores[] = [];
  let lastUser = prefix.filter((t) => t.speaker === 'user').at(-1)?.text ?? '';
  const played = input.transcript.slice(input.prefixTurns);
  for (let i = 0; i < played.length; i++) {
    const turn = played[i];
    if (!turn || turn.speaker !== 'actor') continue;
    const reply = played[i + 1]?.speaker === 'user' ? (played[i + 1]?.text ?? '') : '';
    const state = emotionalState(reply);
    const previousState = perTurn.at(-1)?.state ?? null;
    perTurn.push({
      state,
      resolved: isEmollmResolved({ state, previousState, initialState, closing: isClosing(reply) }),
      empathic: empathicAppropriateness(turn.text, lastUser, input.scenario),
      ...factualJudgment(turn.text, input.scenario),
    });
    lastUser = reply;
  }
  return aggregateTurns(initialState, perTurn);
}

/** Episode scores from per-turn scores and the initial state (shared by the template and LLM scorers). */
export function aggregateTurns(
  initialState: number,
  perTurn: EmollmTurnScores[],
  finalState = perTurn.at(-1)?.state ?? initialState,
): EmollmEpisodeScores {
  const turns = perTurn.length;
  const first = perTurn.findIndex((t) => t.resolved);
  const sensitive = perTurn.filter((t) => t.factSensitive);
  return {
    turns,
    successTurn: first < 0 ? null : first + 1,
    initialState,
    finalState,
    gainPerTurn: turns === 0 ? 0 : (finalState - initialState) / turns,
    empathic: turns === 0 ? null : perTurn.reduce((s, t) => s + t.empathic, 0) / turns,
    factual:
      sensitive.length === 0
        ? null
        : (100 * sensitive.filter((t) => t.factCorrect).length) / sensitive.length,
    perTurn,
  };
}

/** The template scorer as an {@link EmollmScorer}. */
export const templateEmollmScorer: EmollmScorer = {
  name: 'template',
  episode: async (input) => scoreEmollmEpisode(input),
};

/** EmoLLM metrics of one policy on one seed set, each with its interval, clustered by seed. */
export interface EmollmSummary {
  episodes: number;
  cases: number;
  successRate: Estimate;
  /** Over successful episodes; null without one. */
  avgTurns: Estimate | null;
  emotionalState: Estimate;
  gainPerTurn: Estimate;
  /** Over episodes with at least one turn; null without one. */
  empathic: Estimate | null;
  /** Over episodes with a fact-sensitive turn (`factualEpisodes`); null without one. */
  factual: Estimate | null;
  factualEpisodes: number;
}

/**
 * Summarise scored episodes: Wilson interval for SR, case-clustered percentile bootstrap for the means (as the
 * harness's other metrics), each mean from its own child stream of `rng`.
 */
export function summarizeEmollm(
  rows: readonly { caseId: string; scores: EmollmEpisodeScores }[],
  options: { rng: Rng; resamples?: number; level?: number },
): EmollmSummary {
  const seeds = [0, 1, 2, 3, 4].map(() => options.rng.deriveSeed());
  const mean = (picked: { caseId: string; value: number }[], seed: number) =>
    meanEstimate(
      picked.map((p) => p.value),
      picked.map((p) => p.caseId),
      Rng.fromSeed(seed),
      options,
    );
  const of = (f: (s: EmollmEpisodeScores) => number | null) =>
    rows.flatMap((r) => {
      const value = f(r.scores);
      return value === null ? [] : [{ caseId: r.caseId, value }];
    });
  const successful = of((s) => s.successTurn);
  const empathic = of((s) => s.empathic);
  const factual = of((s) => s.factual);
  return {
    episodes: rows.length,
    cases: new Set(rows.map((r) => r.caseId)).size,
    successRate: proportionEstimate(
      rows.map((r) => (r.scores.successTurn === null ? 0 : 1)),
      rows.map((r) => r.caseId),
      options.level,
    ),
    avgTurns: successful.length === 0 ? null : mean(successful, seeds[0] as number),
    emotionalState: mean(
      of((s) => s.finalState),
      seeds[1] as number,
    ),
    gainPerTurn: mean(
      of((s) => s.gainPerTurn),
      seeds[2] as number,
    ),
    empathic: empathic.length === 0 ? null : mean(empathic, seeds[3] as number),
    factual: factual.length === 0 ? null : mean(factual, seeds[4] as number),
    factualEpisodes: factual.length,
  };
}
