/** Cleaning of generated utterances before the simulator (or the actor) reads them. */
import { describe, expect, it } from 'vitest';
import { cleanUtterance, utteranceProblem } from '../../../src/llm/utterance';

describe('cleanUtterance', () => {
  it('drops duplicated role prefixes, with emphasis and in any case', () => {
    expect(cleanUtterance('Persuader: Persuader: Would you give $1?', 'p4g', 'actor')).toBe(
      'Would you give $1?',
    );
    expect(cleanUtterance('**Supporter:** That sounds hard.', 'esconv', 'actor')).toBe('That sounds hard.');
    expect(cleanUtterance('assistant: BUYER: Would you take $300?', 'cb', 'actor')).toBe(
      'Would you take $300?',
    );
    expect(cleanUtterance('Seller: Seller: No lower than $400.', 'cb', 'user')).toBe('No lower than $400.');
  });

  it('drops label lines: the label alone, bracketed, or as "Strategy: …"', () => {
    expect(cleanUtterance('Logical appeal\nEvery dollar buys a meal.', 'p4g', 'actor')).toBe(
      'Every dollar buys a meal.',
    );
    expect(cleanUtterance('[Reflection of feelings]\nYou sound exhausted.', 'esconv', 'actor')).toBe(
      'You sound exhausted.',
    );
    expect(cleanUtterance('Strategy: Question\nSupporter: What happened next?', 'esconv', 'actor')).toBe(
      'What happened next?',
    );
    expect(cleanUtterance('Persuader: Credibility appeal:\nThey are audited.', 'p4g', 'actor')).toBe(
      'They are audited.',
    );
    expect(cleanUtterance('(propose price) How about $320?', 'cb', 'actor')).toBe('How about $320?');
  });

  it('cuts where the model starts writing the other speaker, and joins lines', () => {
    expect(
      cleanUtterance(
        'I hear you.\nThat must be hard.\nHelp-seeker: Yes it is.\nSupporter: ok',
        'esconv',
        'actor',
      ),
    ).toBe('I hear you. That must be hard.');
  });

  it('removes surrounding double quotes but keeps inner text and words that merely contain a label', () => {
    expect(cleanUtterance('"Would you take $350?"', 'cb', 'actor')).toBe('Would you take $350?');
    expect(cleanUtterance('A logical appeal would be weak here.', 'p4g', 'actor')).toBe(
      'A logical appeal would be weak here.',
    );
    expect(cleanUtterance("Question: what's the worst part?", 'esconv', 'actor')).toBe(
      "Question: what's the worst part?",
    );
  });

  it('returns an empty string when only prefixes and labels remain', () => {
    expect(cleanUtterance('Persuader:', 'p4g', 'actor')).toBe('');
    expect(cleanUtterance('Emotion appeal\n\n', 'p4g', 'actor')).toBe('');
    expect(cleanUtterance('   ', 'esconv', 'user')).toBe('');
  });
});

describe('utteranceProblem', () => {
  it('accepts what a person says, short or long', () => {
    expect(utteranceProblem('Okay.')).toBeNull();
    expect(utteranceProblem('I could do $404, but not less.')).toBeNull();
    expect(utteranceProblem('Je pourrais essayer demain.')).toBeNull();
  });
  it('names an empty answer, one with no words and one that restates the answer instructions', () => {
    expect(utteranceProblem('')).toBe('is empty');
    expect(utteranceProblem(':{')).toBe('has no words');
    expect(utteranceProblem('$404!')).toBe('has no words');
    expect(utteranceProblem('Answer with a single JSON object and nothing else.')).toBe(
      'restates the answer instructions',
    );
    expect(utteranceProblem('It must match this JSON Schema: {}')).toBe('restates the answer instructions');
  });
});
