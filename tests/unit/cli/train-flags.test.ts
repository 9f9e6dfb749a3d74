/**
 * Every hyperparameter of the CSTPO and GRPO trainers is reachable from the command line: for each setting of
 * the trainer's configuration schema (src/rl/config.ts, src/grpo/config.ts; nested objects walked to their
 * fields), a value other than its default given as a flag reaches the trainer's resolved configuration. The
 * settings are listed from the schemas here, independently of the flag generator, so a field added without a flag
 * (or a flag that no longer reaches its field) fails this test.
 */
import { describe, expect, it } from 'vitest';
import { CSTPO_FLAGS, parseTrainArgs } from '../../../cli/train';
import { GRPO_FLAGS, parseGrpoArgs } from '../../../cli/train-grpo';
import type { FlagSpec } from '../../../cli/options';
import { GrpoSettingsSchema, resolveGrpoConfig } from '../../../src/grpo/config';
import { resolveConfig, TrainSettingsSchema } from '../../../src/rl/config';

interface Field {
  description?: string;
  shape?: Record<string, Field>;
  options?: readonly string[];
  minValue?: number | null;
  maxValue?: number | null;
  isInt?: boolean;
  def: { type: string; innerType?: Field; defaultValue?: unknown };
}

/** A leaf setting: its path in the settings and the schema under its wrappers, with its default. */
interface Leaf {
  path: string[];
  field: Field;
  def: unknown;
}

function leaves(shape: Record<string, Field>, prefix: string[] = []): Leaf[] {
  return Object.entries(shape).flatMap(([key, outer]) => {
    let field = outer;
    let def: unknown;
    while (['optional', 'default', 'prefault'].includes(field.def.type)) {
      if (field.def.type === 'default') def = field.def.defaultValue;
      field = field.def.innerType as Field;
    }
    if (field.def.type === 'object' && field.shape) return leaves(field.shape, [...prefix, key]);
    return [{ path: [...prefix, key], field, def }];
  });
}

/** Plain decimal (the command line takes no exponent). */
const decimal = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(12).replace(/0+$/, ''));

/** A valid value other than the default, and how the command line writes it (null: a flag alone). */
function otherValue(leaf: Leaf): { value: unknown; text: string | null } {
  const f = leaf.field;
  if (f.def.type === 'boolean') return { value: !leaf.def, text: null };
  if (f.def.type === 'enum') {
    const value = (f.options ?? []).find((o) => o !== leaf.def) as string;
    return { value, text: value };
  }
  if (f.def.type !== 'number') throw new Error(`${leaf.path.join('.')}: ${f.def.type} has no rule here`);
  const min = f.minValue ?? 0;
  const max = f.maxValue ?? Number.MAX_SAFE_INTEGER;
  const base = typeof leaf.def === 'number' ? leaf.def : min + 1;
  let value = f.isInt ? base + 1 : base === 0 ? 0.5 : base * 2;
  if (value > max) value = f.isInt ? base - 1 : base / 2;
  return { value, text: decimal(value) };
}

function read(config: Record<string, unknown>, path: readonly string[]): unknown {
  return path.reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], config);
}

const argvOf = (flag: FlagSpec, text: string | null) =>
  text === null ? [`--${flag.flag}`] : [`--${flag.flag}`, text];

describe('every trainer hyperparameter is a command-line option', () => {
  it('CSTPO (npm run train): each setting of TrainSettingsSchema reaches the trainer', () => {
    const all = leaves(TrainSettingsSchema.shape as unknown as Record<string, Field>);
    expect(all.length).toBeGreaterThanOrEqual(22);
    const reached: string[] = [];
    for (const leaf of all) {
      const { value, text } = otherValue(leaf);
      const key = leaf.path.join('.');
      let argv: string[];
      if (leaf.path[0] === 'ablations') {
        // The ablations are the --ablate names (each turns one part off).
        const name = { cognitiveState: 'no-cog', hierarchicalCritic: 'v-only', branching: 'no-branch' }[
          leaf.path[1] as string
        ] as string;
        expect(value).toBe(false);
        argv = ['--ablate', name];
      } else {
        const flag = CSTPO_FLAGS.find((f) => f.key === `cstpo.${key}`);
        expect(flag, `no flag for cstpo.${key}`).toBeDefined();
        argv = argvOf(flag as FlagSpec, text);
      }
      const opts = parseTrainArgs(['--task', 'cb', '--out', 'runs/x', ...argv]);
      if (opts === 'help') throw new Error('help');
      const config = resolveConfig({ task: 'cb', ...opts.cstpo });
      expect(read(config, leaf.path), `${argv.join(' ')} → cstpo.${key}`).toEqual(value);
      reached.push(key);
    }
    expect(reached).toContain('criticWarmupSteps');
    expect(reached).toContain('normalizeAdvantages');
    expect(reached).toContain('seed');
  });

  it('GRPO (npm run train -- --algo grpo-emollm): each setting of GrpoSettingsSchema reaches the trainer', () => {
    const all = leaves(GrpoSettingsSchema.shape as unknown as Record<string, Field>);
    expect(all.length).toBeGreaterThanOrEqual(27);
    for (const leaf of all) {
      const { value, text } = otherValue(leaf);
      const key = leaf.path.join('.');
      let argv: string[];
      if (leaf.path[0] === 'ablations') {
        const name = { arg: 'no-arg', reversePerspective: 'no-rp' }[leaf.path[1] as string] as string;
        argv = ['--ablate', name];
      } else {
        const flag = GRPO_FLAGS.find((f) => f.key === `grpo.${key}`);
        expect(flag, `no flag for grpo.${key}`).toBeDefined();
        argv = argvOf(flag as FlagSpec, text);
        // An LLM judge needs a backend on the judge role (not read until the run starts).
        if (key === 'rewards') argv.push('--backend', 'judge=replay', '--fixtures', 'judge.replay.json');
      }
      const opts = parseGrpoArgs(['--algo', 'grpo-emollm', '--task', 'esconv', '--out', 'runs/x', ...argv]);
      if (opts === 'help') throw new Error('help');
      const config = resolveGrpoConfig({ task: 'esconv', ...opts.grpo });
      expect(read(config, leaf.path), `${argv.join(' ')} → grpo.${key}`).toEqual(value);
    }
  });

  it('no two options of a command share a name, and the old spellings still work with a notice', () => {
    for (const flags of [CSTPO_FLAGS, GRPO_FLAGS])
      expect(new Set(flags.map((f) => f.flag)).size).toBe(flags.length);
    const err: string[] = [];
    const io = { stdout: () => {}, stderr: (s: string) => err.push(s), isTTY: false };
    const cstpo = parseTrainArgs(['--task', 'cb', '--out', 'x', '--warmup', '2', '--seed', '7'], io);
    expect(cstpo).toMatchObject({ cstpo: { criticWarmupSteps: 2, seed: 7 } });
    const grpo = parseGrpoArgs(['--algo', 'grpo-emollm', '--task', 'cb', '--out', 'x', '--groups', '3'], io);
    expect(grpo).toMatchObject({ grpo: { groupsPerStep: 3 } });
    expect(err).toEqual([
      'notice: --warmup is now --critic-warmup-steps; --warmup still works\n',
      'notice: --seed is now --rng-seed (the integer seeding random streams, not a dialogue seed); --seed still works\n',
      'notice: --groups is now --groups-per-step; --groups still works\n',
    ]);
    expect(() =>
      parseTrainArgs(['--task', 'cb', '--out', 'x', '--warmup', '2', '--critic-warmup-steps', '3']),
    ).toThrow('give --critic-warmup-steps only (--warmup is its old name)');
  });
});
