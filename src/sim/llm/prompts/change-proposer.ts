/**
 * Prompt templates of Cog-Sim's cognitive change proposer (paper §A.3; docs/architecture.md "Turn pipeline",
 * steps 3–6), in two calls around the simulator's own route and judgment rules:
 * 1. **assess**: relevance, argument quality and cue strength in [0, 1], discrepancy with current beliefs and
 *    pressure as low/medium/high — the inputs of the route and judgment rules;
 * 2. **propose**: a sparse change to the user's records (strength deltas, new records), the topics the message
 *    claims, coping potential and future expectancy, an emotion, and a response plan. The prompt states the
 *    update limits of the chosen (route, judgment); the deterministic updater enforces them anyway (it clips, or
 *    rejects the whole proposal and leaves the state unchanged).
 * Both read the utterance text, the dialogue and the user's own state only.
 */
import { getTask } from '../../../tasks/registry';
import { z } from 'zod';
import type { MessageAssessment, SimView } from '../../roles';
import { NewRecordSchema, ProposalSchema, type Judgment, type Proposal, type Route } from '../../types';
import { CHANGE_LIMITS, SUPPORT_MIN_STRENGTH } from '../../updater';
import type { ChatMessage } from '../../../llm/types';
import type { RoleDefaults } from '../../../llm/call';
import { dialogueText, speakerName, userStateText } from './common';

const level = z.enum(['low', 'medium', 'high']);
const unit = z.number().min(0).max(1);

/** The assess answer: exactly a `MessageAssessment`. */
export const AssessAnswerSchema = z.object({
  relevance: unit.describe('how much the message bears on what this user cares about, 0..1'),
  argumentQuality: unit.describe('strength of its reasons and evidence, 0..1'),
  cueStrength: unit.describe('strength of peripheral cues: warmth, authority, pressure, liking, 0..1'),
  discrepancy: level.describe("distance between the message and the user's current beliefs"),
  pressure: level.describe('how pushy the message is'),
}) satisfies z.ZodType<MessageAssessment>;

/**
 * Bounds of a proposal answer, so that a small model cannot run one away: with a grammar-constrained backend
 * (llamacpp, servers that read `response_format`) the JSON-schema `maxItems` / `maxLength` they become close a
 * list or a string where the bound is reached. Gemma 3 270M, unbounded, wrote a `newRecords` list that never
 * closed until `max_tokens` (results/llm-gemma3-270m.md). A sparse change touches few records (paper §A.3).
 */
export const PROPOSE_BOUNDS = {
  /** Strength deltas per turn. */
  changes: 4,
  /** New records per turn ("rarely"). */
  newRecords: 1,
  claimTopics: 3,
  /** Ids a new record supports or conflicts with, each list. */
  links: 2,
  /** Characters of a record id or topic. */
  idChars: 32,
  /** Characters of a new record's content or of the concern to reveal. */
  textChars: 160,
} as const;

const id = z.string().min(1).max(PROPOSE_BOUNDS.idChars);
const links = z.array(id).max(PROPOSE_BOUNDS.links);

/** The propose answer: a Cog-Sim `Proposal` within {@link PROPOSE_BOUNDS}. */
export const ProposeAnswerSchema = ProposalSchema.extend({
  changes: z.array(z.object({ id, delta: z.number() })).max(PROPOSE_BOUNDS.changes),
  newRecords: z
    .array(
      NewRecordSchema.extend({
        id,
        content: z.string().min(1).max(PROPOSE_BOUNDS.textChars),
        topic: id,
        supports: links,
        conflictsWith: links,
      }),
    )
    .max(PROPOSE_BOUNDS.newRecords),
  claimTopics: z.array(id).max(PROPOSE_BOUNDS.claimTopics),
  plan: ProposalSchema.shape.plan.extend({ reveal: z.string().max(PROPOSE_BOUNDS.textChars).optional() }),
}) satisfies z.ZodType<Proposal>;

/**
 * Assessments are five short fields; a bounded proposal is at most ≈ 350 tokens of JSON (most are under 120).
 * Low temperature: the simulator should be steady.
 */
export const ASSESS_DEFAULTS: RoleDefaults = { temperature: 0.2, maxTokens: 120 };
export const PROPOSE_DEFAULTS: RoleDefaults = { temperature: 0.2, maxTokens: 400 };

function persona(view: SimView): string {
  const task = view.task.id;
  return (
    `You simulate the ${speakerName(task, 'user').toLowerCase()} in ${getTask(task).prompts.setting}. ` +
    'You decide how this person privately takes in the other speaker’s newest message.\n\n' +
    userStateText(view.state)
  );
}

function context(view: SimView, utterance: string): string {
  const actor = speakerName(view.task.id, 'actor');
  return (
    `Conversation so far:\n${dialogueText(view.task.id, view.history)}\n\n` +
    `Newest message of the ${actor.toLowerCase()}:\n${utterance}`
  );
}

/** Messages asking how the user perceives `utterance` (the assess step). */
export function assessMessages(utterance: string, view: SimView): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        `${persona(view)}\n\nRate the newest message from this person's point of view:\n` +
        '- relevance (0..1): does it address what they hold beliefs, desires or intentions about?\n' +
        '- argumentQuality (0..1): are there concrete reasons, facts, specifics or a workable plan?\n' +
        '- cueStrength (0..1): how strong are cues that work without thinking (warmth, flattery, authority,\n' +
        '  urgency, the speaker seeming nice)?\n' +
        '- discrepancy (low/medium/high): how far is what it asks them to believe or do from where they are now?\n' +
        '- pressure (low/medium/high): how hard does it push?',
    },
    { role: 'user', content: `${context(view, utterance)}\n\nRate it.` },
  ];
}

/** The per-type limits of (route, judgment) as a sentence. */
function limitsText(route: Route, judgment: Judgment): string {
  const l = CHANGE_LIMITS[route][judgment];
  return `belief ±${l.belief}, desire ±${l.desire}, intention ±${l.intention}`;
}

const JUDGMENT_TEXT: Readonly<Record<Judgment, string>> = {
  accept: 'accepts the message',
  'non-commit': 'neither accepts nor rejects the message',
  reject: 'rejects the message',
};

/** Messages asking for the sparse cognitive change after `utterance` (the propose step). */
export function proposeMessages(
  utterance: string,
  view: SimView,
  route: Route,
  judgment: Judgment,
  assessment: MessageAssessment,
): ChatMessage[] {
  const how =
    route === 'central'
      ? 'thinks the message through (central route: arguments count)'
      : 'reacts to surface cues (peripheral route: warmth, pressure and liking count more than arguments)';
  return [
    {
      role: 'system',
      content:
        `${persona(view)}\n\nPropose how this person's mind changes after the newest message.\n` +
        '- changes: strength deltas for existing records, by id, only for records the message really touches.\n' +
        `  Limits per record this turn: ${limitsText(route, judgment)}; larger changes are cut back.\n` +
        `  Raising an intention by more than half its limit needs a supporting record of strength ≥ ${SUPPORT_MIN_STRENGTH}.\n` +
        (judgment === 'reject'
          ? '  The person rejects the message: do not raise beliefs on the topics it claims.\n'
          : '') +
        '- newRecords: rarely, a new belief/desire/intention with a fresh id (b-…, d-…, i-…), all fields given.\n' +
        '- claimTopics: the record topics the message makes claims about.\n' +
        '- appraisal: coping potential CP and future expectancy FE after the message, each -1..1.\n' +
        '- emotion (optional): the feeling it leaves them with.\n' +
        '- plan: the stance of their reply (agree, open, hesitant, resist) and optionally a concern to reveal.',
    },
    {
      role: 'user',
      content:
        `${context(view, utterance)}\n\n` +
        `This person ${how} and ${JUDGMENT_TEXT[judgment]}. Their reading of it: relevance ` +
        `${assessment.relevance.toFixed(2)}, argument quality ${assessment.argumentQuality.toFixed(2)}, cue strength ` +
        `${assessment.cueStrength.toFixed(2)}, discrepancy ${assessment.discrepancy}, pressure ${assessment.pressure}.\n\n` +
        'Propose the change.',
    },
  ];
}
