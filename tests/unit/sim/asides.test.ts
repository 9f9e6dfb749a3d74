/**
 * Asides (a remark about oneself, a question back): they vary a reply without saying a stance, an intention, a
 * feeling or a contrast, are drawn from the stream, and are not said again while still recent.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/rng';
import { asideAt } from '../../../src/sim/template/asides';
import { saidOf } from '../../../src/sim/template/reply-kit';
import { getTask } from '../../../src/tasks/registry';
import { replyTone } from '../../../src/text/features';

describe('asides', () => {
  it('carry no tone, stance, intention, feeling word or contrast', () => {
    const said = saidOf([]);
    for (const task of ['p4g', 'esconv'] as const) {
      const { lean, refuse } = getTask(task).validity;
      const lines = new Set<string>();
      for (let s = 0; s < 300; s++) {
        const text = asideAt(Rng.fromSeed(s), 1, task, said) as string;
        expect(text, task).toMatch(/^[A-Z].*[.?]$/);
        lines.add(text);
        expect(replyTone(text), text).toEqual({ sentiment: 0, warmth: 0 });
        const lower = text.toLowerCase();
        expect(lean?.test(lower) || refuse?.test(lower), text).toBe(false);
        expect(text, text).not.toMatch(
          /\b(but|though|although|still|anyway|agree|convinced|glad|happy|hopeful|relieved|sad|anxious|worried|nervous|upset|angry|frustrated)\b/i,
        );
      }
      expect(lines.size, task).toBeGreaterThan(30);
    }
  });

  it('come with the given chance, from the stream, never for CB', () => {
    const said = saidOf([]);
    let n = 0;
    for (let s = 0; s < 400; s++) if (asideAt(Rng.fromSeed(s), 0.25, 'p4g', said) !== null) n++;
    expect(n).toBeGreaterThan(60);
    expect(n).toBeLessThan(140);
    expect(asideAt(Rng.fromSeed(3), 0.5, 'esconv', said)).toBe(asideAt(Rng.fromSeed(3), 0.5, 'esconv', said));
    for (let s = 0; s < 20; s++) expect(asideAt(Rng.fromSeed(s), 1, 'cb', said)).toBeNull();
  });

  it('are not said again while recent', () => {
    const first = asideAt(Rng.fromSeed(7), 1, 'esconv', saidOf([])) as string;
    const said = saidOf([{ speaker: 'user', text: first }]);
    for (let s = 0; s < 50; s++) expect(asideAt(Rng.fromSeed(7), 1, 'esconv', said)).not.toBe(first);
  });
});
