/**
 * Bounds for the grammar a JSON schema becomes (llamacpp in Node, wllama in the browser): a small model can run a
 * free-text field or a list to `max_tokens`; with a bound in the schema the grammar closes the string or list
 * there. Plain data, no engine: shared by both backends.
 */

/** Bounds {@link boundJsonSchema} adds where a schema has none. */
export interface GrammarBounds {
  /** `maxLength` of a string without one (characters), ≥ 1. */
  maxStringLength: number;
  /** `maxItems` of an array without one, ≥ 1. */
  maxItems: number;
}

/**
 * Default {@link GrammarBounds}: 1,000 characters (≈ 250 tokens, longer than any utterance a role asks for) and
 * 16 items. Gemma 3 270M, unbounded, wrote a list that never closed until `max_tokens`.
 */
export const DEFAULT_GRAMMAR_BOUNDS: GrammarBounds = { maxStringLength: 1000, maxItems: 16 };

/**
 * A copy of a JSON schema in which every string schema without `maxLength`, `enum`, `const` or `format` gets
 * `maxLength: bounds.maxStringLength` and every array schema without `maxItems` gets `maxItems: bounds.maxItems`
 * (nested schemas included: properties, items, prefixItems, anyOf / oneOf / allOf, $defs). Bounds a schema
 * states itself are kept. The caller's validation is unchanged: the bound only shapes the grammar.
 */
export function boundJsonSchema(schema: unknown, bounds: GrammarBounds): unknown {
  if (Array.isArray(schema)) return schema.map((s) => boundJsonSchema(s, bounds));
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    // `enum` / `const` values are data, not schemas.
    out[key] = key === 'enum' || key === 'const' ? value : boundJsonSchema(value, bounds);
  }
  const types = Array.isArray(out.type) ? (out.type as unknown[]) : [out.type];
  const fixed = 'enum' in out || 'const' in out;
  if (types.includes('string') && !fixed && !('format' in out) && out.maxLength === undefined)
    out.maxLength = bounds.maxStringLength;
  if (types.includes('array') && out.maxItems === undefined) out.maxItems = bounds.maxItems;
  return out;
}
