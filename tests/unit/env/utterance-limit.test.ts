import { describe, expect, it } from 'vitest';
import { cutUtterance, DialogueEnv, MAX_UTTERANCE_CHARS } from '../../../src/env';
import { defaultSeeds } from '../../../src/tasks/defaults';

describe('utterance length limit', () => {
  it('cuts a 2-million-word utterance before the simulator and judges see it, with a warning in info', async () => {
    const env = new DialogueEnv('esconv');
    env.reset({ seed: defaultSeeds('esconv')[0]! });
    const words = Array.from({ length: 2_000_000 }, (_, i) => (i % 7 === 0 ? 'feel' : 'okay')).join(' ');
    const result = await env.step({ strategy: 'Question', utterance: words });
    const said = result.observation.history.filter((t) => t.speaker === 'actor').at(-1)!.text;
    expect(said.length).toBeLessThanOrEqual(MAX_UTTERANCE_CHARS);
    expect(words.startsWith(said)).toBe(true);
    expect(result.info.warnings).toEqual([
      `utterance of ${words.length} characters cut to ${said.length} (MAX_UTTERANCE_CHARS = 2000)`,
    ]);
    const normal = await env.step({ strategy: 'Question', utterance: 'How are you feeling today?' });
    expect(normal.info.warnings).toBeUndefined();
  });

  it('cuts at a word boundary, or at the limit without one, never inside a surrogate pair', () => {
    expect(cutUtterance('short', 10)).toBe('short');
    expect(cutUtterance('one two three four', 10)).toBe('one two');
    expect(cutUtterance('abcdefghijklmnop', 10)).toBe('abcdefghij');
    expect(cutUtterance('abcdefghi😀xyz', 10)).toBe('abcdefghi');
  });
});
