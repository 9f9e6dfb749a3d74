/**
 * Cleaning of generated utterances before another role reads them (CSTPO appendix J: the actor protocol strips
 * duplicated role prefixes and embedded label lines before the utterance reaches Cog-Sim). Models often write
 * `Persuader: Persuader: …`, open with the strategy label on its own line (`[Logical appeal]`,
 * `Strategy: Logical appeal`), wrap the text in quotes, or go on to write the other speaker's turn.
 */
import { getTask } from '../../../tasks';
import type { Speaker, TaskId } from '../../../tasks/seed';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Lower case, brackets, emphasis, quotes and trailing punctuation removed: how a label line is compared. */
function bare(line: string): string {
  return line
    .replace(/[*_`"“”[\]()]/g, '')
    .replace(/[.:;,!\s]+$/, '')
    .trim()
    .toLowerCase();
}

/**
 * The utterance `text` of `speaker` in `task`, cleaned:
 * 1. leading label lines are dropped: `Strategy: …` / `Label: …` / `Dialogue act: …` lines, and lines that are
 *    just one of `labels` (with or without brackets, emphasis or a trailing colon);
 * 2. on each remaining line, repeated prefixes naming the speaker (`Persuader:`, `**Supporter:**`,
 *    `Assistant:` for the actor, `User:` for the user) and a leading `[label]` / `(label)` are removed;
 * 3. the text is cut where a line starts with the other speaker's prefix (the model wrote their turn too);
 * 4. lines are joined with single spaces and surrounding double quotes removed.
 * Returns `''` when nothing is left (callers treat that as an empty utterance).
 */
export function cleanUtterance(
  text: string,
  task: TaskId,
  speaker: Speaker,
  labels: readonly string[] = getTask(task).strategies,
): string {
  const spec = getTask(task);
  const own = speaker === 'actor' ? [spec.actorRole, 'assistant'] : [spec.userRole, 'user'];
  const other = speaker === 'actor' ? [spec.userRole, 'user'] : [spec.actorRole, 'assistant'];
  const prefix = (names: string[]) =>
    new RegExp(`^\\s*[*_]*\\s*(?:${names.map(escape).join('|')})\\s*[*_]*\\s*:\\s*[*_]*\\s*`, 'i');
  const ownPrefix = prefix(own);
  const otherPrefix = prefix(other);
  const labelSet = new Set(labels.map((l) => l.toLowerCase()));
  const labelLine = /^\s*[*_]*\s*(?:strategy|label|dialogue act|act)\s*[*_]*\s*:/i;
  const leadingLabel = new RegExp(
    `^\\s*[[(]\\s*(?:${labels.map(escape).join('|')})\\s*[\\])]\\s*[:.-]?\\s*`,
    'i',
  );

  const lines = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  let start = 0;
  while (start < lines.length) {
    const line = lines[start] as string;
    if (labelLine.test(line) || labelSet.has(bare(line)) || labelSet.has(bare(line.replace(ownPrefix, '')))) {
      start++;
    } else break;
  }
  const kept: string[] = [];
  for (const raw of lines.slice(start)) {
    if (otherPrefix.test(raw)) break;
    let line = raw;
    for (let changed = true; changed;) {
      const next = line.replace(ownPrefix, '').replace(leadingLabel, '');
      changed = next !== line;
      line = next;
    }
    if (line.trim()) kept.push(line.trim());
  }
  let out = kept.join(' ').trim();
  const quoted = /^["“](.*)["”]$/s.exec(out);
  if (quoted) out = (quoted[1] as string).trim();
  return out;
}
