/**
 * The compact-JSON GBNF converter (src/llm/gbnf.ts): the grammar of each schema feature, every answer schema of
 * the simulator's roles converted (none left to the engine's converter), and `null` for what it does not cover.
 * The grammar's effect on a real model is tested in headless Chromium (tests/browser/wllama.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonSchemaToGbnf } from '../../../src/llm/gbnf';
import { boundJsonSchema, DEFAULT_GRAMMAR_BOUNDS } from '../../../src/llm/schema-bounds';
import { AssessAnswerSchema, ModeAnswerSchema, ProposeAnswerSchema } from '../../../src/sim/llm/prompts';

/** The grammar's rules by name. */
function rules(gbnf: string): Map<string, string> {
  return new Map(
    gbnf.split('\n').map((line) => {
      const [name, body] = line.split(' ::= ') as [string, string];
      return [name, body];
    }),
  );
}

describe('jsonSchemaToGbnf', () => {
  it('writes an object as compact JSON: its properties in order, no whitespace rule, no empty free text', () => {
    const g = jsonSchemaToGbnf({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        reply: { type: 'string', maxLength: 400, description: 'your reply' },
        mood: { type: 'string', enum: ['happy', 'sad'] },
      },
      required: ['reply', 'mood'],
      additionalProperties: false,
    })!;
    const r = rules(g);
    expect(r.get('root')).toBe('(r3)');
    // A free-text string starts with a non-whitespace character (never `""`), then up to 399 more.
    expect(r.get('r0')).toBe('"\\"" first char{0,399} "\\""');
    expect(r.get('first')).toBe('[^"\\\\\\x7F\\x00-\\x20]');
    expect(r.get('r2')).toBe('("\\"happy\\"" | "\\"sad\\"")');
    expect(r.get('r3')).toBe('"{" "\\"reply\\":" r1 ",\\"mood\\":" r2 "}"');
    expect(g).not.toMatch(/space|\[ \\t\]|"\\n"/);
  });

  it('bounds lists and strings, encodes 0..1 numbers and non-negative ones, nullables and booleans', () => {
    const r = rules(
      jsonSchemaToGbnf({
        type: 'object',
        properties: {
          tags: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 8 }, maxItems: 3 },
          some: { type: 'array', items: { type: 'boolean' }, minItems: 2, maxItems: 2 },
          none: { type: 'array', items: { type: 'integer' }, maxItems: 0 },
          share: { type: 'number', minimum: 0, maximum: 1 },
          count: { type: 'integer', minimum: 0 },
          price: { anyOf: [{ type: 'number' }, { type: 'null' }] },
          either: { type: ['string', 'null'], maxLength: 2 },
          fixed: { const: 'x' },
        },
        required: ['tags'],
      })!,
    );
    const bodies = [...r.values()];
    expect(bodies).toContain('"\\"" char{1,8} "\\""');
    expect(bodies.some((b) => /^"\[" \(r\d+ \(",".r\d+\)\{0,2\}\)\? "\]"$/.test(b))).toBe(true);
    expect(bodies.some((b) => /^"\[" r\d+ \(",".r\d+\)\{1\} "\]"$/.test(b))).toBe(true);
    expect(bodies).toContain('"\\"x\\""');
    expect(bodies).toContain('(("0" ("." [0-9]{1,4})? | "1" ("." "0"{1,4})?))');
    expect(bodies).toContain('(uint)');
    expect(bodies).toContain('((number) | ("null"))');
    expect(bodies.some((b) => b.includes('"[]"'))).toBe(true);
    expect(bodies.some((b) => /^\(r\d+ \| "null"\)$/.test(b))).toBe(true);
  });

  it("converts every answer schema of the simulator's roles (bounded as the backends bound them)", () => {
    for (const schema of [ModeAnswerSchema, AssessAnswerSchema, ProposeAnswerSchema]) {
      const json = boundJsonSchema(z.toJSONSchema(schema), DEFAULT_GRAMMAR_BOUNDS);
      const g = jsonSchemaToGbnf(json);
      expect(g, JSON.stringify(json)).not.toBeNull();
      expect(g!.split('\n')[0]).toMatch(/^root ::= /);
    }
  });

  it("is accepted by llama.cpp's own GBNF parser (node-llama-cpp), which refuses a malformed grammar", async () => {
    const { getLlama } = await import('node-llama-cpp');
    const llama = await getLlama({ build: 'never', gpu: false });
    const schemas = [ModeAnswerSchema, AssessAnswerSchema, ProposeAnswerSchema].map((s) =>
      boundJsonSchema(z.toJSONSchema(s), DEFAULT_GRAMMAR_BOUNDS),
    );
    schemas.push({
      type: 'object',
      properties: {
        deal: { type: 'boolean' },
        price: { anyOf: [{ type: 'number' }, { type: 'null' }] },
        n: { type: 'integer' },
        notes: { type: 'array', items: { type: ['string', 'null'], maxLength: 3 }, minItems: 1, maxItems: 2 },
      },
    });
    for (const schema of schemas) {
      await expect(llama.createGrammar({ grammar: jsonSchemaToGbnf(schema)! })).resolves.toBeTruthy();
    }
    await expect(llama.createGrammar({ grammar: 'root ::= ("a" | ' })).rejects.toThrow(/parse/);
  }, 60_000);

  it('gives null for what it does not cover, so that the engine converts the schema itself', () => {
    for (const schema of [
      { $ref: '#/$defs/a', $defs: { a: { type: 'string' } } },
      { allOf: [{ type: 'string' }] },
      { type: 'string', pattern: '^a' },
      { type: 'object' },
      { type: 'object', properties: {}, required: ['x'] },
      {},
      true,
      { type: 'array', items: [{ type: 'string' }] },
      { type: 'string', minLength: 5, maxLength: 2 },
      { type: 'string', enum: [] },
    ]) {
      expect(jsonSchemaToGbnf(schema), JSON.stringify(schema)).toBeNull();
    }
  });
});
