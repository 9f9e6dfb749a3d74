/**
 * The label groupings of the validity replay, written out once (docs/architecture.md "Simulator validation").
 * Each human annotation is mapped to a small set of reactions that the simulator's decisions can be compared
 * with; anything not listed is an error, so a new label in a researcher's file is never silently lumped.
 *
 * P4G (`ee_label_1`, the persuadee's reaction, per sentence): toward donating or toward the persuader's question —
 * - positive: positive-reaction-to-donation, agree-donation, provide-donation-amount, confirm-donation,
 *   ask-donation-procedure (asking how to give is a step toward giving), positive-to-inquiry;
 * - negative: negative-reaction-to-donation, disagree-donation, disagree-donation-more, negative-to-inquiry;
 * - neutral-or-other: neutral-reaction-to-donation, neutral-to-inquiry, ask-org-info,
 *   ask-persuader-donation-intention, task-related-inquiry, personal-related-inquiry, acknowledgement, greeting,
 *   thank, you-are-welcome, closing, off-task, other, and an empty label.
 * A persuadee turn spans several sentences: its reaction is that of its first polar (positive or negative)
 * sentence, else neutral-or-other.
 *
 * CraigslistBargain (the seller's dialogue act after a buyer turn):
 * - agree: agree; counter: counter, counter-noprice, propose; disagree: disagree, deny;
 * - other: greet, inquire, inform, affirm, confirm, and an empty label.
 * A human deal is a dialogue with an `agree` act by either side.
 *
 * ESConv (no annotation of the seeker's reaction): the sentiment of the seeker's next turn, read by the judge's
 * AFINN scorer (`src/env/judge.ts`, independent of the simulator), as positive (> 0), negative (< 0) or neutral.
 */
import { normalizeLabel } from '../tasks/labels';
import type { CB_REACTIONS } from '../tasks/cb/validity';
import type { ESCONV_REACTIONS } from '../tasks/esconv/validity';
import type { P4G_REACTIONS } from '../tasks/p4g/validity';
import { InputError } from '../errors';

/** The reaction classes of each task, in report order (each task folder's `validity.ts`: `getTask(id).validity.reactions`). */
export type P4gReaction = (typeof P4G_REACTIONS)[number];
export type CbReaction = (typeof CB_REACTIONS)[number];
export type EsconvReaction = (typeof ESCONV_REACTIONS)[number];

const P4G_GROUPS: Readonly<Record<string, P4gReaction>> = {
  'positive-reaction-to-donation': 'positive',
  'agree-donation': 'positive',
  'provide-donation-amount': 'positive',
  'confirm-donation': 'positive',
  'ask-donation-procedure': 'positive',
  'positive-to-inquiry': 'positive',
  'negative-reaction-to-donation': 'negative',
  'disagree-donation': 'negative',
  'disagree-donation-more': 'negative',
  'negative-to-inquiry': 'negative',
  'neutral-reaction-to-donation': 'neutral-or-other',
  'neutral-to-inquiry': 'neutral-or-other',
  'ask-org-info': 'neutral-or-other',
  'ask-persuader-donation-intention': 'neutral-or-other',
  'task-related-inquiry': 'neutral-or-other',
  'personal-related-inquiry': 'neutral-or-other',
  acknowledgement: 'neutral-or-other',
  greeting: 'neutral-or-other',
  thank: 'neutral-or-other',
  'you-are-welcome': 'neutral-or-other',
  closing: 'neutral-or-other',
  'off-task': 'neutral-or-other',
  other: 'neutral-or-other',
  '': 'neutral-or-other',
};

const CB_GROUPS: Readonly<Record<string, CbReaction>> = {
  agree: 'agree',
  counter: 'counter',
  'counter-noprice': 'counter',
  propose: 'counter',
  disagree: 'disagree',
  deny: 'disagree',
  greet: 'other',
  inquire: 'other',
  inform: 'other',
  affirm: 'other',
  confirm: 'other',
  '': 'other',
};

/** `normalizeLabel` spells labels with spaces; the groupings above use the datasets' hyphens. */
function key(raw: string | null | undefined): string {
  return normalizeLabel(raw ?? '')
    .replace(/\s+/g, '-')
    .replace(/^(none|null|nan)$/, '');
}

/**
 * The P4G reaction of one persuadee sentence label.
 * @throws InputError (VALIDITY_INPUT) for a label outside the grouping (the message names it and where it was read).
 */
export function p4gReaction(raw: string | null | undefined, where: string): P4gReaction {
  const group = P4G_GROUPS[key(raw)];
  if (group === undefined)
    throw new InputError('VALIDITY_INPUT', `${where}: unknown persuadee label "${raw}"`);
  return group;
}

/** The reaction of a persuadee turn from its sentences' reactions: the first polar one, else neutral-or-other. */
export function p4gTurnReaction(sentences: readonly P4gReaction[]): P4gReaction {
  return sentences.find((r) => r !== 'neutral-or-other') ?? 'neutral-or-other';
}

/**
 * The CB reaction of one seller act.
 * @throws InputError (VALIDITY_INPUT) for an act outside the grouping.
 */
export function cbReaction(raw: string | null | undefined, where: string): CbReaction {
  const group = CB_GROUPS[key(raw)];
  if (group === undefined) throw new InputError('VALIDITY_INPUT', `${where}: unknown seller act "${raw}"`);
  return group;
}

/** The three-way sign of a sentiment score (0 is neutral). */
export function sentimentReaction(score: number): EsconvReaction {
  return score > 0 ? 'positive' : score < 0 ? 'negative' : 'neutral';
}
