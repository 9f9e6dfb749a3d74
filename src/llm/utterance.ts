/**
 * Cleaning of generated utterances before another role reads them (CSTPO appendix J: the actor protocol strips
 * duplicated role prefixes and embedded label lines before the utterance reaches Cog-Sim). Models often write
 * `Persuader: Persuader: …`, open with the strategy label on its own line (`[Logical appeal]`,
 * `Strategy: Logical appeal`), wrap the text in quotes, or go on to write the other speaker's turn.
 */
import { getTask } from '../tasks';
import type { Speaker, TaskId } from '../tasks/seed';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Lower case, brackets, emphasis, quotes and trailing punctuation removed: how a label line is compared. */
function bare(line: string): string {
  return line
    .replace(/[*_`"“”[\]()]/g, '')
    .replace(/[.:;,!\s]+$/, '')
    .trim()
    .toLowerCase();
}

/** The compiled patterns of one (task, speaker, label set); non-global, so sharing them is stateless. */
interface Matchers {
  ownPrefix: RegExp;
  otherPrefix: RegExp;
  labelSet: ReadonlySet<string>;
  leadingLabel: RegExp;
  /** Recent results by input text: an answer is cleaned when validated and again when the role uses it. */
  recent: Map<string, string>;
}

/** Results kept per {@link Matchers} (oldest dropped first). */
const RECENT_RESULTS = 32;

const LABEL_LINE = /^\s*[*_]*\s*(?:strategy|label|dialogue act|act)\s*[*_]*\s*:/i;

/**
 * Patterns already compiled, per label array (collected with it; the tasks' own label sets are constants) and
 * then per `task|speaker` (at most 3 × 2 entries): building and compiling them took about 3/4 of a call.
 */
const compiled = new WeakMap<readonly string[], Map<string, Matchers>>();

function matchers(task: TaskId, speaker: Speaker, labels: readonly string[]): Matchers {
  let byRole = compiled.get(labels);
  if (byRole === undefined) compiled.set(labels, (byRole = new Map()));
  const key = `${task}|${speaker}`;
  let m = byRole.get(key);
  if (m === undefined) {
    const spec = getTask(task);
    const own = speaker === 'actor' ? [spec.actorRole, 'assistant'] : [spec.userRole, 'user'];
    const other = speaker === 'actor' ? [spec.userRole, 'user'] : [spec.actorRole, 'assistant'];
    const prefix = (names: string[]) =>
      new RegExp(`^\\s*[*_]*\\s*(?:${names.map(escape).join('|')})\\s*[*_]*\\s*:\\s*[*_]*\\s*`, 'i');
    m = {
      ownPrefix: prefix(own),
      otherPrefix: prefix(other),
      labelSet: new Set(labels.map((l) => l.toLowerCase())),
      leadingLabel: new RegExp(
        `^\\s*[[(]\\s*(?:${labels.map(escape).join('|')})\\s*[\\])]\\s*[:.-]?\\s*`,
        'i',
      ),
      recent: new Map(),
    };
    byRole.set(key, m);
  }
  return m;
}

/**
 * The utterance `text` of `speaker` in `task`, cleaned:
 * 1. leading label lines are dropped: `Strategy: …` / `Label: …` / `Dialogue act: …` lines, and lines that are
 *    just one of `labels` (with or without brackets, emphasis or a trailing colon);
 * 2. on each remaining line, repeated prefixes naming the speaker (`Persuader:`, `**Supporter:**`,
 *    `Assistant:` for the actor, `User:` for the user) and a leading `[label]` / `(label)` are removed;
 * 3. the text is cut where a line starts with the other speaker's prefix (the model wrote their turn too);
 * 4. lines are joined with single spaces and surrounding double quotes removed.
 * Returns `''` when nothing is left (callers treat that as an empty utterance). The patterns are compiled once
 * per `labels` array (which must not be changed afterwards) and the latest results are kept.
 */
export function cleanUtterance(
  text: string,
  task: TaskId,
  speaker: Speaker,
  labels: readonly string[] = getTask(task).strategies,
): string {
  const m = matchers(task, speaker, labels);
  let out = m.recent.get(text);
  if (out === undefined) {
    out = clean(text, m);
    if (m.recent.size >= RECENT_RESULTS) m.recent.delete(m.recent.keys().next().value as string);
    m.recent.set(text, out);
  }
  return out;
}

function clean(text: string, { ownPrefix, otherPrefix, labelSet, leadingLabel }: Matchers): string {
  const lines = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  let start = 0;
  while (start < lines.length) {
    const line = lines[start] as string;
    if (
      LABEL_LINE.test(line) ||
      labelSet.has(bare(line)) ||
      labelSet.has(bare(line.replace(ownPrefix, '')))
    ) {
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

/**
 * What is wrong with a cleaned utterance ({@link cleanUtterance}'s result) as something a person would say, or
 * null when nothing is: `'is empty'`; `'has no words'` (only punctuation, digits or symbols, e.g. `:{`); or
 * `'restates the answer instructions'` when it speaks of a JSON object or schema (a small model sometimes copies
 * the answer-format instruction into the field instead of speaking; seen with Gemma 3 270M as the user). The
 * role schemas refuse such an answer, so it is retried a bounded number of times like any malformed answer.
 */
export function utteranceProblem(cleaned: string): string | null {
  if (cleaned.length === 0) return 'is empty';
  if (!/\p{L}/u.test(cleaned)) return 'has no words';
  if (/\bjson\s+(?:object|schema)\b/i.test(cleaned)) return 'restates the answer instructions';
  return null;
}
