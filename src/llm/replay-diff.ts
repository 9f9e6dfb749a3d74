/**
 * Words for a replay miss: what an unmatched request asked, and how it differs from the nearest
 * request the replay backend did answer — so that "request not recorded" shows the rejected or changed prompt
 * (typically a repair turn appended after a recorded answer was refused) instead of a bare hash.
 */
import { canonicalJson } from './canonical';
import type { ChatMessage, ChatRequest } from './types';

/** Characters of message text quoted in a description. */
const QUOTE = 120;

/** `text` in double quotes, cut to `max` characters (with `…`), line breaks shown as `⏎`. */
function quote(text: string, max = QUOTE): string {
  const flat = text.replace(/\r?\n/g, '⏎');
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
}

/** The format's name: `json_schema "<name>"`, `json_object` or `text`. */
function formatName(request: ChatRequest): string {
  const f = request.response_format;
  if (!f) return 'text';
  return f.type === 'json_schema' ? `json_schema "${f.json_schema.name}"` : f.type;
}

/**
 * One line saying what a request asked: message count, answer format, temperature when set, and the last
 * message (role and the start of its text), e.g. `3 messages, json_schema "appraisal", temperature 0; last
 * (user): "How does the seeker feel…"`.
 */
export function describeRequest(request: ChatRequest): string {
  const last = request.messages.at(-1) as ChatMessage;
  const parts = [
    `${request.messages.length} message${request.messages.length === 1 ? '' : 's'}`,
    formatName(request),
    ...(request.temperature !== undefined ? [`temperature ${request.temperature}`] : []),
  ];
  return `${parts.join(', ')}; last (${last.role}): ${quote(last.content)}`;
}

/** The text around the first character where `a` and `b` differ, in both. */
function firstDifference(a: string, b: string): { recorded: string; asked: string; at: number } {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 20);
  const cut = (s: string) => `${from > 0 ? '…' : ''}${s.slice(from, from + 80)}`;
  return { recorded: quote(cut(a)), asked: quote(cut(b)), at: i };
}

/** Leading messages two requests share (same role and text). */
function sharedMessages(a: ChatRequest, b: ChatRequest): number {
  let i = 0;
  while (
    i < a.messages.length &&
    i < b.messages.length &&
    a.messages[i]?.role === b.messages[i]?.role &&
    a.messages[i]?.content === b.messages[i]?.content
  )
    i++;
  return i;
}

/**
 * How `asked` differs from `recorded`: the first differing message (with the text around the first differing
 * character), the messages one has beyond the other, or the first other field that differs.
 */
export function describeDifference(recorded: ChatRequest, asked: ChatRequest): string {
  const shared = sharedMessages(recorded, asked);
  const r = recorded.messages[shared];
  const a = asked.messages[shared];
  if (r && a) {
    if (r.role !== a.role) return `messages[${shared}] is ${a.role}, the recorded one ${r.role}`;
    const d = firstDifference(r.content, a.content);
    return `messages[${shared}] (${a.role}) differs at character ${d.at}: recorded ${d.recorded}, asked ${d.asked}`;
  }
  if (a) {
    const extra = asked.messages.slice(shared);
    return (
      `asked adds ${extra.length} message${extra.length === 1 ? '' : 's'} after the recorded ${shared}: ` +
      extra.map((m) => `${m.role}: ${quote(m.content, 80)}`).join('; ')
    );
  }
  if (r) return `asked stops after ${shared} of the recorded ${recorded.messages.length} messages`;
  const fields = new Set([...Object.keys(recorded), ...Object.keys(asked)]);
  fields.delete('messages');
  for (const field of [...fields].sort()) {
    const x = (recorded as Record<string, unknown>)[field];
    const y = (asked as Record<string, unknown>)[field];
    const cx = x === undefined ? 'unset' : canonicalJson(x);
    const cy = y === undefined ? 'unset' : canonicalJson(y);
    if (cx !== cy) return `same messages; ${field} differs: recorded ${cut(cx)}, asked ${cut(cy)}`;
  }
  return 'no difference in the request (the recorded answers were all used)';
}

function cut(text: string): string {
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/**
 * The answered request nearest to `asked`: most leading messages in common, then the same answer format, then
 * the latest answered. Undefined when nothing was answered.
 */
export function nearestRequest(
  asked: ChatRequest,
  answered: ReadonlyMap<string, ChatRequest>,
): { key: string; request: ChatRequest } | undefined {
  let best: { key: string; request: ChatRequest; score: number } | undefined;
  for (const [key, request] of answered) {
    const score = sharedMessages(request, asked) * 2 + (formatName(request) === formatName(asked) ? 1 : 0);
    if (!best || score >= best.score) best = { key, request, score };
  }
  return best && { key: best.key, request: best.request };
}
