/** Reading EmoLLM seeds from a user's JSONL file: the bundled shape round-trips; every bad line names file:line. */
import { describe, expect, it } from 'vitest';
import {
  buildEmollmSeed,
  emollmSeedsToJsonl,
  parseEmollmSeeds,
  type EmollmSeedSpec,
} from '../../../src/tasks';
import { EMOLLM_SEED_SPECS } from '../../../src/tasks/defaults';
import { DataFormatError } from '../../../src/errors';

const specs = EMOLLM_SEED_SPECS.iclr.slice(0, 3) as EmollmSeedSpec[];
const line = (s: unknown) => JSON.stringify(s);

function errorOf(text: string): DataFormatError {
  try {
    parseEmollmSeeds(text, 'mine.jsonl');
  } catch (e) {
    expect(e).toMatchObject({ name: 'DataFormatError', code: 'EMOLLM_SEED_INVALID' });
    return e as DataFormatError;
  }
  throw new Error('no error thrown');
}

describe('parseEmollmSeeds', () => {
  it('reads the bundled shape back into the same seeds, skipping blank and comment lines', () => {
    const text = `// my seeds\n\n${emollmSeedsToJsonl(specs)}\n`;
    const file = parseEmollmSeeds(text, 'mine.jsonl');
    expect(file.specs).toEqual(specs);
    expect(file.seeds).toEqual(specs.map((s) => buildEmollmSeed(s, 'mine.jsonl')));
    expect(file.seeds[0]?.source).toBe('mine.jsonl');
  });

  it('names the file and line of invalid JSON', () => {
    const e = errorOf(`${line(specs[0])}\n{"id": "x", oops}\n`);
    expect(e.message).toMatch(/^mine\.jsonl:2: invalid JSON/);
    expect(e.code).toBe('EMOLLM_SEED_INVALID');
    expect([e.path, e.line]).toEqual(['mine.jsonl', 2]);
  });

  it('names the line and field of a schema violation', () => {
    const bad = { ...specs[1], intensity: 1.5 };
    expect(errorOf(`${line(specs[0])}\n\n${line(bad)}\n`).message).toMatch(/^mine\.jsonl:3: intensity: /);
    const noFacts = { ...specs[1], facts: [] };
    expect(errorOf(line(noFacts)).message).toMatch(/^mine\.jsonl:1: facts: /);
    expect(errorOf('[1, 2]').message).toMatch(/^mine\.jsonl:1: /);
  });

  it('names the line of a description whose built seed breaks the seed schema', () => {
    const bad = { ...specs[0], tendencies: { tau_A: 0.8, tau_R: 0.5 } };
    expect(errorOf(line(bad)).message).toMatch(/^mine\.jsonl:1: profile: tau_A must be below tau_R/);
  });

  it('names the earlier line of a repeated id', () => {
    const text = [specs[0], specs[1], { ...specs[2], id: specs[0]?.id }].map(line).join('\n');
    expect(errorOf(text).message).toBe(`mine.jsonl:3: seed id "${specs[0]?.id}" already used on line 1`);
  });

  it('refuses a file without any seed', () => {
    expect(errorOf('\n// nothing\n').message).toMatch(/^mine\.jsonl:\d+: no seed in the file/);
  });
});
