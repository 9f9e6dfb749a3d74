/**
 * Does a simulated user's reply read as English a person writes? An independent reader of the reply's form (it
 * imports nothing of the responder's banks or slot filler), for slips that a template's slot or join makes and a
 * reader sees at once. Each pattern is narrow on purpose: a check that flags good English would be ignored.
 *
 * - **doubled word**: "the the while", "And and" (not "that that" or "had had", which English allows);
 * - **lead before a conjunction**: an additive lead put before a line that opens with its own ("Also, and …",
 *   "Besides, so …");
 * - **demonstrative before a plural**: "this children." — "this" or "that" before an irregular plural that ends
 *   the phrase ("that children charity" is a singular phrase and passes), or before a plural in "-s" after a
 *   preposition ("about that kids."; "that matters." is a verb and passes);
 * - **number disagreement**: a sentence opening on a plural subject with a verb in the singular ("The kids is …",
 *   "The exams keeps coming up"), or "Is the kids …" / "Does the kids …" / "there is the kids";
 * - **repeated intensifier**: "really" twice in one sentence ("I really do not really know");
 * - **bare word after a colon**: "One thing worth knowing: included." (a listing word is no answer);
 * - **hedge on a formula**: a hedging tag after a goodbye or thanks ("Thanks for your time, at this point.").
 */

/** Plurals the patterns know: regular ones by their "-s", these without. */
const IRREGULAR = 'children|people|men|women|kids';
/** Words in "-s" that are singular, which a plural pattern must pass over. */
const SINGULAR_S = new Set(
  'news series species lens gas christmas physics economics politics mathematics ethics diabetes business crisis basis analysis bus'.split(
    ' ',
  ),
);
const PLURAL = `(?:${IRREGULAR}|[a-z]{2,}[^isu\\W]s)`;

const DOUBLED = /\b([a-z]+) \1\b/gi;
const LEAD_CONJUNCTION = /\b(?:also|besides|and then|oh, and|oh, also), (?:and|or|but|so|then)\b/i;
const DEMONSTRATIVE_PLURAL = new RegExp(
  `\\b(?:(?:this|that) (${IRREGULAR})|(?:about|of|with|for|on|at|to) (?:this|that) ([a-z]{2,}[^isu\\W]s))(?=[.,?!]|$)`,
  'gi',
);
const SUBJECT_VERB = new RegExp(
  `(?:^|[.!?] )(?:[a-z]+, ){0,2}(?:the|my|her|his|our|their|these|those) (${PLURAL}) (?:is|was|has|keeps|makes|does|seems|fixes)\\b`,
  'gi',
);
const IS_PLURAL = new RegExp(
  `(?:^|[.!?] |\\bthere )is (?:the|my) (${PLURAL})(?=[.,?!]| (?:part|too|really|always|still|something|what|a|an|the)\\b)`,
  'gi',
);
const DOES_PLURAL = new RegExp(
  `(?:^|[.!?] )(?:does|has|was) (?:the|my) (${PLURAL}) (?:matter|mean|help|count|change|work|make|come|go|need|know|care|get|have|take|been|ever|really|still|always)\\b`,
  'gi',
);
const REPEATED_REALLY = /\breally\b[^.!?]*\breally\b/i;
const COLON_WORD = /: [a-z]+\./;
const HEDGED_FORMULA =
  /\b(?:bye|goodbye|take care|thanks for [a-z ]+|good luck[a-z ]*), (?:at this point|in a way|believe it or not|at any rate|all in all|for now|frankly|i suppose|honestly|to be honest)[.!]/i;

/** Whether a match's plural word (its first or second group) is not one of the singular "-s" words. */
function plural(m: RegExpMatchArray): boolean {
  return !SINGULAR_S.has((m[1] ?? m[2] ?? '').toLowerCase());
}

/**
 * The form defects of one reply (empty when none), each a short description naming the words found.
 * @param reply the user's reply text, as the environment returned it.
 */
export function replyFormDefects(reply: string): string[] {
  const out: string[] = [];
  for (const m of reply.matchAll(DOUBLED)) {
    const w = (m[1] as string).toLowerCase();
    if (w !== 'that' && w !== 'had') out.push(`doubled word: "${m[0]}"`);
  }
  const lead = LEAD_CONJUNCTION.exec(reply);
  if (lead) out.push(`lead before a conjunction: "${lead[0]}"`);
  for (const [re, what] of [
    [DEMONSTRATIVE_PLURAL, 'demonstrative before a plural'],
    [SUBJECT_VERB, 'plural subject with a singular verb'],
    [IS_PLURAL, '"is" before a plural'],
    [DOES_PLURAL, 'singular auxiliary before a plural'],
  ] as const)
    for (const m of reply.matchAll(re)) if (plural(m)) out.push(`${what}: "${m[0].trim()}"`);
  const really = REPEATED_REALLY.exec(reply);
  if (really) out.push(`repeated intensifier: "${really[0]}"`);
  const colon = COLON_WORD.exec(reply);
  if (colon) out.push(`bare word after a colon: "${colon[0]}"`);
  const hedge = HEDGED_FORMULA.exec(reply);
  if (hedge) out.push(`hedge on a formula: "${hedge[0]}"`);
  return out;
}
