/**
 * `proactive-dialogue-lab/validity`: checking the simulator against real people (dialogue replay, the validity
 * report, the simulator card, ladders) and fitting its parameters to the datasets. Browser-safe.
 */
export { fitMood, moodInputs, type FittedParams, type MoodRow } from '../fit';
export { simulatorCard, type CardBefore, type CardDataFile, type ReplySet } from '../validity/card';
export {
  type ValidityFiles,
  replayDialogues,
  p4gDialogues,
  splitOf,
  type ReplayDialogue,
  fitSplitOf,
  esconvDialogues,
} from '../validity/datasets';
export { fitSimulator, type FitOptions } from '../validity/fit';
export { parseLadderFile, type LadderFile } from '../validity/ladder';
export { replayDialogue, type ReplayedDialogue } from '../validity/replay';
export { replyRow, humanRepliesOf, matchedVariety, type MatchedVariety } from '../validity/replies';
export { buildValidityReport, reportMarkdown, type ValidityReport } from '../validity/report';
// The P4G disposition model fitted to donations (`npm run fit-sim`), and the AUC it is chosen by.
export { donationProbability, fitDisposition, type DispositionParams, type DispositionRow } from '../fit';
export { readP4gPersuadees } from '../data/p4g';
export { rocAuc } from '../stats/auc';
