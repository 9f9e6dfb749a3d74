import { mkdtempSync, cpSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeSimulatorVersion } from '../../../scripts/sim-version';
import { SIMULATOR_VERSION } from '../../../src/sim/version';

const ROOT = resolve(__dirname, '../../..');

describe('simulator version', () => {
  it('is current: src/sim/version.ts matches the hash of the simulator sources (run `npm run sim-version`)', () => {
    expect(SIMULATOR_VERSION).toBe(computeSimulatorVersion(ROOT));
  });

  it('changes when a rule changes, and not when only the generated file does', () => {
    const copy = mkdtempSync(join(tmpdir(), 'simver-'));
    for (const part of ['src/sim', 'src/text', 'package-lock.json'])
      cpSync(join(ROOT, part), join(copy, part), { recursive: true });
    const before = computeSimulatorVersion(copy);
    writeFileSync(join(copy, 'src/sim/version.ts'), "export const SIMULATOR_VERSION = 'x';\n");
    expect(computeSimulatorVersion(copy)).toBe(before);
    appendFileSync(join(copy, 'src/sim/rules.ts'), '\n// a changed rule\n');
    expect(computeSimulatorVersion(copy)).not.toBe(before);
  });
});
