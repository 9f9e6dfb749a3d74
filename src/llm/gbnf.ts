/**
 * A JSON schema as a GBNF grammar (llama.cpp's grammar format) for **compact** JSON: no whitespace between
 * tokens, properties in the schema's order. llama.cpp's own converter (`json_schema_to_grammar`, which wllama
 * and llama.cpp's server apply to `response_format`) lets the model put up to 22 characters of spaces, tabs and
 * newlines at every separator and after the closing brace; Gemma 3 270M spends its token budget there (its
 * answers came as `{\n  "story": "…"\n  }`). With no room for whitespace every answer token is content.
 *
 * Limited to the JSON-schema features the library's answer schemas use (what `z.toJSONSchema` writes for them):
 * `type` (one or a list: object, array, string, number, integer, boolean, null), `properties` (every property is
 * written; `required` and `additionalProperties` then hold), `items` with `minItems` / `maxItems`, `minLength` /
 * `maxLength`, `enum`, `const`, `anyOf` / `oneOf`, and for numbers `minimum` ≥ 0 (no sign) and the range 0..1
 * (`0`, `1` or `0.` and up to 4 digits); annotations (`description`, `title`, `$schema`, `default`, `examples`)
 * are ignored. A free-text string (no `minLength`, `enum`, `const`) starts with a character that is not
 * whitespace: under a grammar without whitespace Gemma 3 270M closed the responder's reply at once
 * (`{"reply":""}`, three attempts in a row), an answer no role asks for. A schema with anything else (`$ref`, `allOf`, `pattern`, `not`, an object without `properties`,
 * …) gives `null`: the caller then leaves the conversion to the engine's own converter.
 */

/** Keywords that describe and do not constrain. */
const ANNOTATIONS = new Set(['$schema', 'description', 'title', 'default', 'examples', '$comment']);

/** Keywords this converter understands (besides annotations). */
const SUPPORTED = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'enum',
  'const',
  'anyOf',
  'oneOf',
  'minimum',
  'maximum',
  'format',
]);

/** A GBNF string literal for `text`. */
function literal(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r')}"`;
}

/** A repetition suffix `{min,max}` (`*` / `+` when unbounded). */
function repeat(min: number, max: number | undefined): string {
  if (max === undefined) return min === 0 ? '*' : min === 1 ? '+' : `{${min},}`;
  return min === max ? `{${min}}` : `{${min},${max}}`;
}

/** Thrown inside the converter for a schema it does not cover; turned into `null`. */
class Unsupported extends Error {}

/** The shared rules: one JSON string character (escapes included), a first one that is not whitespace, numbers. */
const BASE_RULES = [
  'char ::= [^"\\\\\\x7F\\x00-\\x1F] | "\\\\" (["\\\\/bfnrt] | "u" [0-9a-fA-F]{4})',
  'first ::= [^"\\\\\\x7F\\x00-\\x20]',
  'number ::= "-"? uint ("." [0-9]{1,6})?',
  'unumber ::= uint ("." [0-9]{1,6})?',
  'uint ::= "0" | [1-9] [0-9]{0,14}',
];

/**
 * The GBNF grammar (root rule `root`) of compact JSON matching `schema`, or `null` when the schema uses a
 * feature outside the list in the module comment. Numbers' other bounds and cross-field rules are not encoded:
 * the caller validates the answer as before.
 */
export function jsonSchemaToGbnf(schema: unknown): string | null {
  const rules: string[] = [];
  const named = (body: string): string => {
    const name = `r${rules.length}`;
    rules.push(`${name} ::= ${body}`);
    return name;
  };
  const nonNegative = (n: unknown): number => {
    if (n === undefined) return 0;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw new Unsupported();
    return n;
  };
  const optionalBound = (n: unknown): number | undefined => (n === undefined ? undefined : nonNegative(n));

  const visit = (s: unknown): string => {
    if (s === true || (s !== null && typeof s === 'object' && Object.keys(s).length === 0)) {
      throw new Unsupported(); // any JSON value: left to the engine
    }
    if (s === null || typeof s !== 'object' || Array.isArray(s)) throw new Unsupported();
    const node = s as Record<string, unknown>;
    for (const key of Object.keys(node)) {
      if (!SUPPORTED.has(key) && !ANNOTATIONS.has(key)) throw new Unsupported();
    }
    if ('const' in node) return literal(JSON.stringify(node.const));
    if (Array.isArray(node.enum)) {
      if (node.enum.length === 0) throw new Unsupported();
      return `(${node.enum.map((v) => literal(JSON.stringify(v))).join(' | ')})`;
    }
    const alternatives = (node.anyOf ?? node.oneOf) as unknown;
    if (alternatives !== undefined) {
      if (!Array.isArray(alternatives) || alternatives.length === 0 || 'type' in node)
        throw new Unsupported();
      return `(${alternatives.map(visit).join(' | ')})`;
    }
    const types: unknown[] = Array.isArray(node.type) ? node.type : [node.type];
    if (types.length === 0 || types.includes(undefined)) throw new Unsupported();
    return `(${types.map((t) => typed(node, t)).join(' | ')})`;
  };

  const typed = (node: Record<string, unknown>, type: unknown): string => {
    switch (type) {
      case 'null':
        return '"null"';
      case 'boolean':
        return '("true" | "false")';
      case 'integer':
        return typeof node.minimum === 'number' && node.minimum >= 0 ? 'uint' : '("-"? uint)';
      case 'number':
        if (node.minimum === 0 && node.maximum === 1) return '("0" ("." [0-9]{1,4})? | "1" ("." "0"{1,4})?)';
        return typeof node.minimum === 'number' && node.minimum >= 0 ? 'unumber' : 'number';
      case 'string': {
        const max = optionalBound(node.maxLength);
        if (node.minLength === undefined && max !== 0) {
          return named(`"\\"" first char${repeat(0, max === undefined ? undefined : max - 1)} "\\""`);
        }
        const min = nonNegative(node.minLength);
        if (max !== undefined && max < min) throw new Unsupported();
        return named(`"\\"" char${repeat(min, max)} "\\""`);
      }
      case 'array': {
        if (node.items === undefined || Array.isArray(node.items)) throw new Unsupported();
        const item = named(visit(node.items));
        const min = nonNegative(node.minItems);
        const max = optionalBound(node.maxItems);
        if (max !== undefined && max < min) throw new Unsupported();
        if (max === 0) return '"[]"';
        const rest = (lo: number) => `("," ${item})${repeat(lo, max === undefined ? undefined : max - 1)}`;
        return min === 0 ? named(`"[" (${item} ${rest(0)})? "]"`) : named(`"[" ${item} ${rest(min - 1)} "]"`);
      }
      case 'object': {
        const properties = node.properties;
        if (properties === null || typeof properties !== 'object' || Array.isArray(properties))
          throw new Unsupported();
        const entries = Object.entries(properties as Record<string, unknown>);
        const required = Array.isArray(node.required) ? node.required : [];
        if (required.some((r) => typeof r !== 'string' || !(r in properties))) throw new Unsupported();
        if (entries.length === 0) return '"{}"';
        const fields = entries.map(
          ([key, value], i) =>
            `${literal(`${i === 0 ? '' : ','}${JSON.stringify(key)}:`)} ${named(visit(value))}`,
        );
        return named(`"{" ${fields.join(' ')} "}"`);
      }
      default:
        throw new Unsupported();
    }
  };

  try {
    const root = visit(schema);
    return [`root ::= ${root}`, ...rules, ...BASE_RULES].join('\n');
  } catch (e) {
    if (e instanceof Unsupported) return null;
    throw e;
  }
}
