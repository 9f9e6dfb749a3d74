/**
 * The text form of an ARG trace (EmoLLM paper appendix, "ARG Annotation Prompt"): the sections
 * `[Contextual Facts] [Inferred Needs and Goals] [Appraisal] [Emotional State] [Response Strategy]` in that
 * order, then `[Response]` (or EmoLLM's `<think> … </think> <response> … </response>` wrapping). This project
 * fixes the inside of the numeric sections so that a trace parses into an {@link ArgTrace}:
 *
 *     [Contextual Facts]
 *     - The supervisor called the charting too slow.
 *     [Inferred Needs and Goals]
 *     - Feel able to pass the rotation.
 *     [Appraisal]
 *     goal congruence: -0.60; coping potential: -0.40; future expectancy: -0.30
 *     The criticism threatens the placement and she sees no way to speed up.
 *     [Emotional State]
 *     emotion: anxiety; score: 2
 *     [Response Strategy]
 *     label: Reflection of feelings
 *     plan: Validate the fear first, then ask what part of charting takes longest.
 *     [Response]
 *     It sounds like that comment has been weighing on you every night.
 */
import { z } from 'zod';
import { ArgTraceSchema, emotionProblems, type ArgOutput, type ArgTrace } from './types';
import { ConfigError } from '../errors';

/** The section headers, in the required order. */
export const ARG_SECTIONS = [
  'Contextual Facts',
  'Inferred Needs and Goals',
  'Appraisal',
  'Emotional State',
  'Response Strategy',
  'Response',
] as const;

const f2 = (v: number) => v.toFixed(2);

/** The trace in the text form (without `[Response]`). */
export function formatArgTrace(trace: ArgTrace): string {
  const a = trace.appraisal;
  return [
    '[Contextual Facts]',
    ...trace.contextual_facts.map((f) => `- ${f}`),
    '[Inferred Needs and Goals]',
    ...trace.inferred_needs_and_goals.map((n) => `- ${n}`),
    '[Appraisal]',
    `goal congruence: ${f2(a.goal_congruence)}; coping potential: ${f2(a.coping_potential)}; future expectancy: ${f2(a.future_expectancy)}`,
    a.summary,
    '[Emotional State]',
    `emotion: ${trace.emotional_state.emotion}; score: ${trace.emotional_state.score}`,
    '[Response Strategy]',
    `label: ${trace.response_strategy.label}`,
    `plan: ${trace.response_strategy.plan}`,
  ].join('\n');
}

/** The trace followed by `[Response]` and the reply. */
export function formatArgOutput(output: ArgOutput): string {
  return `${formatArgTrace(output.trace)}\n[Response]\n${output.response}`;
}

const HEADER = new RegExp(`^\\s*\\[(${ARG_SECTIONS.join('|')})\\]\\s*:?\\s*(.*)$`, 'i');

/** Lines of a section, bullets removed, empty lines dropped. */
function items(body: string): string[] {
  return body
    .split('\n')
    .map((l) => l.replace(/^\s*(?:[-*•]|\d+[.)])\s*/, '').trim())
    .filter((l) => l.length > 0);
}

function numberAfter(body: string, key: string): number {
  const m = new RegExp(`${key}\\s*[:=]\\s*([-+]?\\d*\\.?\\d+)`, 'i').exec(body);
  if (!m) throw new ConfigError('ARG_PARSE', `[Appraisal] lacks "${key}: <number in -1..1>"`);
  return Number(m[1]);
}

function valueAfter(body: string, key: string): string | undefined {
  return new RegExp(`${key}\\s*[:=]\\s*([^;\\n]+)`, 'i').exec(body)?.[1]?.trim();
}

/**
 * Parses the text form into the trace and the reply, and validates them: every section present once and in
 * order, the numbers of [Appraisal] and [Emotional State] readable, the result valid under
 * {@link ArgTraceSchema}, the emotion consistent with the appraisal ({@link emotionProblems}), a non-empty reply.
 * @throws ConfigError (ARG_PARSE) naming the first problem.
 */
export function parseArgOutput(text: string): ArgOutput {
  const normalised = text
    .replace(/\r\n?/g, '\n')
    .replace(/<\/?think>/gi, '\n')
    .replace(/<response>/gi, '\n[Response]\n')
    .replace(/<\/response>/gi, '\n');
  const sections = new Map<string, string[]>();
  const order: string[] = [];
  let current: string[] | undefined;
  for (const line of normalised.split('\n')) {
    const header = HEADER.exec(line);
    if (header) {
      const name = ARG_SECTIONS.find(
        (s) => s.toLowerCase() === (header[1] as string).toLowerCase(),
      ) as string;
      if (sections.has(name)) throw new ConfigError('ARG_PARSE', `section [${name}] appears twice`);
      current = [];
      sections.set(name, current);
      order.push(name);
      if (header[2]) current.push(header[2]);
    } else if (current) current.push(line);
    else if (line.trim())
      throw new ConfigError('ARG_PARSE', `text before [${ARG_SECTIONS[0]}]: "${line.trim().slice(0, 60)}"`);
  }
  for (const [i, name] of ARG_SECTIONS.entries()) {
    if (!sections.has(name)) throw new ConfigError('ARG_PARSE', `missing section [${name}]`);
    if (order[i] !== name)
      throw new ConfigError('ARG_PARSE', `sections out of order: expected [${name}] at position ${i + 1}`);
  }
  const body = (name: string) => (sections.get(name) as string[]).join('\n').trim();
  const appraisal = body('Appraisal');
  const strategy = body('Response Strategy');
  const strategyLines = items(strategy);
  const candidate = {
    contextual_facts: items(body('Contextual Facts')),
    inferred_needs_and_goals: items(body('Inferred Needs and Goals')),
    appraisal: {
      goal_congruence: numberAfter(appraisal, 'goal congruence'),
      coping_potential: numberAfter(appraisal, 'coping potential'),
      future_expectancy: numberAfter(appraisal, 'future expectancy'),
      summary: items(appraisal)
        .filter((l) => !/goal congruence\s*[:=]/i.test(l))
        .join(' '),
    },
    emotional_state: {
      emotion: valueAfter(body('Emotional State'), 'emotion')?.toLowerCase(),
      score: Number(valueAfter(body('Emotional State'), 'score')),
    },
    response_strategy: {
      label: valueAfter(strategy, 'label') ?? strategyLines[0],
      plan: valueAfter(strategy, 'plan') ?? strategyLines.slice(1).join(' '),
    },
  };
  const parsed = ArgTraceSchema.safeParse(candidate);
  if (!parsed.success) throw new ConfigError('ARG_PARSE', `invalid trace:\n${z.prettifyError(parsed.error)}`);
  const problems = emotionProblems(parsed.data.appraisal, parsed.data.emotional_state);
  if (problems.length) throw new ConfigError('ARG_PARSE', `inconsistent trace: ${problems.join('; ')}`);
  const response = items(body('Response')).join(' ');
  if (!response) throw new ConfigError('ARG_PARSE', 'empty [Response]');
  return { trace: parsed.data, response };
}
