/**
 * The template judge is an independent rater (docs/architecture.md "Role boundaries"): it reads text with its
 * own scorer and imports nothing from the simulator's perception (`src/text`) or the simulator (`src/sim`), at
 * any depth of its relative imports; and the simulator does not use the judge's scorer package.
 */
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC, closure, filesUnder, specifiers } from '../import-graph';

describe('template judge independence', () => {
  it('reaches no file of src/text or src/sim through its imports', () => {
    const reached = closure(join(SRC, 'env/judge.ts'));
    expect(reached).toContain('env/judge.ts');
    expect(reached).toContain('tasks/success.ts');
    const forbidden = reached.filter((f) => f.startsWith('text/') || f.startsWith('sim/'));
    expect(forbidden).toEqual([]);
  });

  it('the closure check sees a forbidden import when there is one (the environment imports the simulator)', () => {
    const reached = closure(join(SRC, 'env/env.ts'));
    expect(reached.some((f) => f.startsWith('sim/'))).toBe(true);
  });

  it('scores with the sentiment package (AFINN-165), which the simulator does not use', () => {
    expect(specifiers(join(SRC, 'env/judge.ts'))).toContain('./afinn');
    expect(specifiers(join(SRC, 'env/afinn.ts'))).toContain('sentiment');
    const simFiles = [...filesUnder(join(SRC, 'text')), ...filesUnder(join(SRC, 'sim'))];
    expect(simFiles.length).toBeGreaterThan(0);
    const users = simFiles.filter((f) => specifiers(f).includes('sentiment')).map((f) => relative(SRC, f));
    expect(users).toEqual([]);
  });
});
