/**
 * The environment's utterance length limit: a longer actor utterance is cut with a warning in `info`, the
 * rollout counts the cuts in the episode record, and simulate / evaluate print the count on stderr.
 */
import { describe, expect, it } from 'vitest';
import { cutUtterancesNotice } from '../../../cli/options';
import { runEpisode } from '../../../src/agents/rollout';
import type { Policy } from '../../../src/agents/types';
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
    expect(result.info.utteranceCut).toEqual({ from: words.length, to: said.length });
    expect(normal.info.utteranceCut).toBeUndefined();
  });

  it('counts the cut utterances in the episode record, and the CLIs say how many', async () => {
    const long = 'please '.repeat(600);
    let turn = 0;
    // Every other turn too long: the odd turns are cut.
    const rambler: Policy = {
      name: 'rambler',
      act: async () => ({ strategy: 'Question', utterance: turn++ % 2 === 1 ? long : 'How are you?' }),
    };
    const seed = defaultSeeds('esconv')[0]!;
    const record = await runEpisode(new DialogueEnv('esconv', { horizon: 4 }), rambler, seed);
    expect(record.turns.length).toBeGreaterThanOrEqual(2);
    expect(record.cutUtterances).toBe(Math.floor(record.turns.length / 2));
    const calm: Policy = {
      name: 'calm',
      act: async () => ({ strategy: 'Question', utterance: 'And then?' }),
    };
    const plain = await runEpisode(new DialogueEnv('esconv', { horizon: 2 }), calm, seed);
    expect('cutUtterances' in plain).toBe(false);
    expect(cutUtterancesNotice(1)).toBe(
      'warning: 1 utterance was cut to 2000 characters (MAX_UTTERANCE_CHARS)\n',
    );
    expect(cutUtterancesNotice(3)).toBe(
      'warning: 3 utterances were cut to 2000 characters (MAX_UTTERANCE_CHARS)\n',
    );
  });

  it('cuts at a word boundary, or at the limit without one, never inside a surrogate pair', () => {
    expect(cutUtterance('short', 10)).toBe('short');
    expect(cutUtterance('one two three four', 10)).toBe('one two');
    expect(cutUtterance('abcdefghijklmnop', 10)).toBe('abcdefghij');
    expect(cutUtterance('abcdefghi😀xyz', 10)).toBe('abcdefghi');
  });
});
