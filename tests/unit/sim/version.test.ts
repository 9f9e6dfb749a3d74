import { appendFileSync, cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeSimulatorVersion, simulatorModules } from '../../../scripts/sim-version';
import { SIMULATOR_VERSION } from '../../../src/sim/version';

const ROOT = resolve(__dirname, '../../..');

/** A copy of the sources and the lock file, to change one file in. */
function copyOfSources(): string {
  const copy = mkdtempSync(join(tmpdir(), 'simver-'));
  for (const part of ['src', 'package-lock.json'])
    cpSync(join(ROOT, part), join(copy, part), { recursive: true });
  return copy;
}

describe('simulator version', () => {
  it('is current: src/sim/version.ts matches the hash of the simulator sources (run `npm run sim-version`)', () => {
    expect(SIMULATOR_VERSION).toBe(computeSimulatorVersion(ROOT));
  });

  it('hashes what the simulator imports within src/: task specs and lexicons, the environment step', () => {
    const { modules, packages } = simulatorModules(ROOT);
    for (const m of [
      'src/sim/rules.ts',
      'src/text/features.ts',
      'src/env/env.ts',
      'src/tasks/esconv/spec.ts',
      'src/tasks/esconv/rules.ts',
      'src/tasks/p4g/spec.ts',
      'src/tasks/cb/spec.ts',
    ])
      expect(modules).toContain(m);
    // Only src/ modules; no policy, evaluation or validation code.
    expect(modules.every((m) => m.startsWith('src/'))).toBe(true);
    expect(modules.some((m) => /^src\/(agents|eval|validity)\//.test(m))).toBe(false);
    expect(packages).toContain('wink-nlp');
  });

  it('changes when a rule changes, and not when only the generated file does', () => {
    const copy = copyOfSources();
    const before = computeSimulatorVersion(copy);
    writeFileSync(join(copy, 'src/sim/version.ts'), "export const SIMULATOR_VERSION = 'x';\n");
    expect(computeSimulatorVersion(copy)).toBe(before);
    appendFileSync(join(copy, 'src/sim/rules.ts'), '\n// a changed rule\n');
    expect(computeSimulatorVersion(copy)).not.toBe(before);
  });

  it('changes when a task topic lexicon changes', () => {
    const copy = copyOfSources();
    const before = computeSimulatorVersion(copy);
    const path = join(copy, 'src/tasks/p4g/spec.ts');
    const text = readFileSync(path, 'utf8');
    expect(text).toContain('topics: {');
    writeFileSync(path, text.replace('topics: {', "topics: {\n    'extra-topic': ['zebra'],"));
    expect(computeSimulatorVersion(copy)).not.toBe(before);
  });

  it('changes when the environment step changes, and not when an unrelated module does', () => {
    const copy = copyOfSources();
    const before = computeSimulatorVersion(copy);
    appendFileSync(join(copy, 'src/eval/report.ts'), '\n// a report change\n');
    expect(computeSimulatorVersion(copy)).toBe(before);
    appendFileSync(join(copy, 'src/env/env.ts'), '\n// a changed step\n');
    expect(computeSimulatorVersion(copy)).not.toBe(before);
  });
});
