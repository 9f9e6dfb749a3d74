/**
 * The actor side reads text independently of the simulator (docs/architecture.md "Role boundaries"): the
 * actor-side reader, the template ARG predictor, the GRPO template rewards and Principles' situations reach
 * no file of the simulator's perception (`src/text`) or the simulator (`src/sim`) through their runtime
 * imports, at any depth, and none of the files they reach outside `src/tasks` reads a task's topic lexicon.
 * (Type-only imports carry no rule: the observation type lives beside the environment, which imports the
 * simulator.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC, closure, specifiers } from '../import-graph';

const ACTOR_SIDE = [
  'reader/index.ts',
  'appraisal/template.ts',
  'appraisal/lookahead.ts',
  'grpo/rewards.ts',
  'memory/situation.ts',
];

const simulatorFiles = (files: readonly string[]) =>
  files.filter((f) => f.startsWith('text/') || f.startsWith('sim/'));

/** Whether a source file reads a task's topic lexicon (`spec.topics`, `getTask(t).topics`, `topicHits`). */
const readsLexicon = (file: string): boolean =>
  /[\w)\]]\.topics\b|\btopicHits\b/.test(readFileSync(join(SRC, file), 'utf8'));

describe('actor-side reading independence', () => {
  for (const entry of ACTOR_SIDE) {
    it(`${entry} reaches no file of src/text or src/sim and reads no topic lexicon`, () => {
      const reached = closure(join(SRC, entry), true);
      expect(reached).toContain(entry);
      expect(simulatorFiles(reached)).toEqual([]);
      expect(reached.filter((f) => !f.startsWith('tasks/') && readsLexicon(f))).toEqual([]);
    });
  }

  it('the predictor, the rewards and the situations read through the reader', () => {
    for (const f of ['appraisal/template.ts', 'grpo/rewards.ts', 'memory/situation.ts'])
      expect(specifiers(join(SRC, f))).toContain('../reader');
    expect(specifiers(join(SRC, 'reader/reader.ts'))).toEqual(['compromise', '../env/judge']);
  });

  it('the check sees the simulator where it is reached (the environment, the perception)', () => {
    expect(simulatorFiles(closure(join(SRC, 'env/env.ts'), true))).toContain('text/features.ts');
    expect(closure(join(SRC, 'sim/perception.ts'), true).filter(readsLexicon)).toContain('sim/perception.ts');
  });
});
