/**
 * Bounded answers: the llamacpp backend bounds the strings and lists a JSON schema leaves unbounded
 * before it becomes a grammar ({@link boundJsonSchema}), and the simulator's own answer schemas state their bounds,
 * so that a small model cannot run a field to `max_tokens` (Gemma 3 270M's unbounded proposal did).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { boundJsonSchema, DEFAULT_GRAMMAR_BOUNDS } from '../../../src/llm/schema-bounds';
import {
  AssessAnswerSchema,
  ModeAnswerSchema,
  PROPOSE_BOUNDS,
  ProposeAnswerSchema,
  REPLY_MAX_CHARS,
  replyAnswerSchema,
} from '../../../src/sim/llm/prompts';
import { ProposalSchema } from '../../../src/sim/types';
import type { ResponseInput } from '../../../src/sim/roles';

/** JSON-pointer-like paths of the string and array schemas in `schema` that have no upper bound. */
function unbounded(schema: unknown, path = '#'): string[] {
  if (Array.isArray(schema)) return schema.flatMap((s, i) => unbounded(s, `${path}/${i}`));
  if (schema === null || typeof schema !== 'object') return [];
  const node = schema as Record<string, unknown>;
  const out: string[] = [];
  const fixed = 'enum' in node || 'const' in node || 'format' in node;
  const types: unknown[] = Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes('string') && !fixed && node.maxLength === undefined) out.push(path);
  if (types.includes('array') && node.maxItems === undefined) out.push(path);
  for (const [key, value] of Object.entries(node))
    if (key !== 'enum' && key !== 'const') out.push(...unbounded(value, `${path}/${key}`));
  return out;
}

describe('boundJsonSchema', () => {
  const schema = {
    type: 'object',
    properties: {
      note: { type: 'string' },
      label: { type: 'string', enum: ['a', 'b'] },
      short: { type: 'string', maxLength: 5 },
      tags: { type: 'array', items: { type: 'string' } },
      few: { type: 'array', maxItems: 2, items: { type: ['string', 'null'] } },
      pick: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      fixed: { const: 'x' },
    },
    $defs: { word: { type: 'string' } },
  };
  const bounded = boundJsonSchema(schema, { maxStringLength: 50, maxItems: 3 }) as typeof schema;

  it('bounds every unbounded string and array, nested ones included, and keeps stated bounds and labels', () => {
    expect(unbounded(schema)).toHaveLength(6);
    expect(unbounded(bounded)).toEqual([]);
    const p = bounded.properties as Record<string, Record<string, unknown>>;
    expect(p.note).toEqual({ type: 'string', maxLength: 50 });
    expect(p.label).toEqual({ type: 'string', enum: ['a', 'b'] });
    expect(p.short).toEqual({ type: 'string', maxLength: 5 });
    expect(p.tags).toEqual({ type: 'array', items: { type: 'string', maxLength: 50 }, maxItems: 3 });
    expect(p.few).toEqual({ type: 'array', maxItems: 2, items: { type: ['string', 'null'], maxLength: 50 } });
    expect(p.pick).toEqual({ anyOf: [{ type: 'string', maxLength: 50 }, { type: 'number' }] });
    expect(p.fixed).toEqual({ const: 'x' });
    expect(bounded.$defs.word).toEqual({ type: 'string', maxLength: 50 });
  });

  it('does not change the schema it is given', () => {
    expect(schema.properties.note).toEqual({ type: 'string' });
  });

  it('has defaults that leave a one-to-three-sentence utterance room', () => {
    expect(DEFAULT_GRAMMAR_BOUNDS.maxStringLength).toBeGreaterThanOrEqual(REPLY_MAX_CHARS);
    expect(DEFAULT_GRAMMAR_BOUNDS.maxItems).toBeGreaterThanOrEqual(PROPOSE_BOUNDS.changes);
  });
});

describe("the simulator's LLM answer schemas are bounded", () => {
  const reply = replyAnswerSchema({
    view: { task: { id: 'cb' } },
    events: [{ turn: 1, by: 'user', type: 'offer', price: 350 }],
  } as unknown as ResponseInput);

  it('no string or list without an upper bound in mode, assessment, proposal and reply', () => {
    for (const schema of [ModeAnswerSchema, AssessAnswerSchema, ProposeAnswerSchema, reply])
      expect(unbounded(z.toJSONSchema(schema))).toEqual([]);
  });

  it('a proposal past a bound is rejected; within the bounds it is a valid Proposal', () => {
    const proposal = {
      changes: [{ id: 'b1', delta: 0.5 }],
      newRecords: [],
      claimTopics: ['charity'],
      appraisal: { CP: 0.1, FE: 0.2 },
      plan: { stance: 'open' },
    };
    expect(ProposalSchema.safeParse(ProposeAnswerSchema.parse(proposal)).success).toBe(true);
    const many = {
      ...proposal,
      changes: Array.from({ length: PROPOSE_BOUNDS.changes + 1 }, () => proposal.changes[0]),
    };
    expect(ProposeAnswerSchema.safeParse(many).success).toBe(false);
    const long = { ...proposal, plan: { stance: 'open', reveal: 'x'.repeat(PROPOSE_BOUNDS.textChars + 1) } };
    expect(ProposeAnswerSchema.safeParse(long).success).toBe(false);
    expect(reply.safeParse({ reply: `I can do $350. ${'x'.repeat(REPLY_MAX_CHARS)}` }).success).toBe(false);
    expect(reply.safeParse({ reply: 'I can do $350.' }).success).toBe(true);
  });
});
