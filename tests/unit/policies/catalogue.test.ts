/**
 * The policy catalogue (src/policies): one table from which names are checked and built, `--help` and the README's
 * policy list are written, and the app's menus filled.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { policyUnavailableError } from '../../../src/agents/errors';
import { runEpisode } from '../../../src/agents/rollout';
import { DialogueEnv } from '../../../src/env/env';
import * as library from '../../../src/entries/errors';
import { ScriptedBackend } from '../../../src/llm';
import {
  checkPolicy,
  createPolicy,
  findPolicy,
  POLICY_CATALOGUE,
  POLICY_NAMES,
  policyResource,
  templatePolicyNames,
  type PolicyEntry,
} from '../../../src/policies';
import { Rng } from '../../../src/rng';
import { getTask, TASK_IDS } from '../../../src/tasks';
import { defaultSeeds } from '../../../src/tasks/defaults';
import { POLICIES_HELP } from '../../../cli/options';
import { PolicySpecError } from '../../../src/errors';

const README = readFileSync(resolve(__dirname, '../../../README.md'), 'utf8');

/** The README's catalogue table, row by row, cells trimmed (Prettier may re-pad it). */
function readmeRows(): string[][] {
  const start = README.indexOf('<!-- policy-catalogue:start -->');
  const end = README.indexOf('<!-- policy-catalogue:end -->');
  expect(start).toBeGreaterThan(0);
  return README.slice(start, end)
    .split('\n')
    .filter((l) => l.startsWith('|'))
    .slice(2) // header and rule
    .map((l) =>
      l
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    );
}

/** An entry as the README lists it. */
function readmeRow(e: PolicyEntry): string[] {
  const forms = [e.forms.template ? 'template' : null, e.forms.llm ? 'LLM' : null].filter(Boolean).join(', ');
  const needs = {
    nothing: '—',
    'ppdpp-planner': 'a PPDPP planner trained for the task',
    memory: 'a Principles memory',
    run: 'a trained CSTPO run',
  }[e.needs];
  return [`\`${e.pattern}\``, e.help, forms, needs];
}

describe('the policy catalogue', () => {
  it('the README lists exactly the catalogue, in its order', () => {
    expect(readmeRows()).toEqual(POLICY_CATALOGUE.map(readmeRow));
  });

  it('--help is generated from it: every entry with its help, nothing else', () => {
    const lines = POLICIES_HELP.split('\n').filter((l) => /^ {2}\S/.test(l));
    expect(lines.map((l) => l.trim().split(/\s{2,}/)[0])).toEqual(POLICY_NAMES);
    for (const e of POLICY_CATALOGUE) expect(POLICIES_HELP).toContain(`${e.pattern.padEnd(20)} ${e.help}`);
  });

  it('every pattern is found by its own names, and nothing else matches', () => {
    expect(findPolicy('random')?.entry.pattern).toBe('random');
    expect(findPolicy('fixed:Question')).toMatchObject({
      entry: { pattern: 'fixed:<label>' },
      arg: 'Question',
    });
    expect(findPolicy('principles:m.json')).toMatchObject({ arg: 'm.json' });
    expect(findPolicy('randomly')).toBeNull();
    expect(findPolicy('ppo')).toBeNull();
    expect(policyResource('cstpo:runs/a')).toEqual({ kind: 'cstpo', ref: 'runs/a' });
    expect(policyResource('principles:')).toEqual({ kind: 'principles', ref: '' });
    expect(policyResource('fixed:Question')).toBeNull();
  });

  it('rejects names with one typed error that carries the name given and the known names', () => {
    const unknown = (() => {
      try {
        checkPolicy('esconv', 'ppo');
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(unknown).toMatchObject({ name: 'PolicySpecError', code: 'POLICY_UNKNOWN' });
    expect(unknown).toBeInstanceOf(PolicySpecError);
    expect(unknown).toMatchObject({ policy: 'ppo', known: POLICY_NAMES, code: 'POLICY_UNKNOWN' });
    expect((unknown as Error).message).toMatch(
      /unknown policy "ppo"; valid policies: random, replay, fixed:<label>/,
    );
    expect(() => checkPolicy('cb', 'fixed:Question')).toThrow(/"Question" is not a cb label; labels: /);
    expect(() => checkPolicy('cb', 'fixed:')).toThrow(
      expect.objectContaining({ name: 'PolicySpecError', code: 'POLICY_UNKNOWN' }),
    );
    expect(() => checkPolicy('p4g', 'icl-aif')).toThrow(
      expect.objectContaining({ name: 'PolicySpecError', code: 'POLICY_UNAVAILABLE' }),
    );
    expect(() => checkPolicy('p4g', 'mi-prompt')).toThrow(
      /"mi-prompt" has no template form .*template forms: llm, arg, standard, proactive, procot, ask-an-expert$/,
    );
    // The listed alternatives are every policy with both forms and nothing to load, and each runs without a backend.
    const listed = (() => {
      try {
        checkPolicy('esconv', 'icl-aif');
      } catch (e) {
        return (e as Error).message.split('template forms: ')[1]!.split(', ');
      }
      return [];
    })();
    expect(listed).toEqual(
      POLICY_CATALOGUE.filter((e) => e.forms.template && e.forms.llm && e.needs === 'nothing').map(
        (e) => e.pattern,
      ),
    );
    for (const name of listed) expect(createPolicy('esconv', name).act).toBeTypeOf('function');
    expect(() => checkPolicy('p4g', 'mi-prompt', { llm: true })).not.toThrow();
    expect(() => checkPolicy('p4g', 'ppdpp')).toThrow(/"ppdpp" needs a trained planner for p4g/);
    expect(() => checkPolicy('p4g', 'principles:m')).toThrow(/principles "m" was not loaded/);
    expect(() => checkPolicy('p4g', 'cstpo:r')).toThrow(/cstpo "r" was not loaded/);
  });

  it('the library’s /errors entry exports one PolicySpecError, the base of both kinds', () => {
    expect(library.PolicySpecError).toBe(PolicySpecError);
    expect(policyUnavailableError('x', [], 'm')).toBeInstanceOf(library.PolicySpecError);
    expect(policyUnavailableError('x', [], 'm').code).toBe('POLICY_UNAVAILABLE');
  });

  it('builds every template entry with nothing loaded, under the name it was given', () => {
    for (const task of TASK_IDS) {
      const names = templatePolicyNames(task);
      expect(names).toContain('arg');
      expect(names.filter((n) => n.startsWith('fixed:'))).toHaveLength(getTask(task).strategies.length);
      expect(names).not.toContain('icl-aif');
      expect(names).not.toContain('ppdpp');
      for (const name of names) expect(createPolicy(task, name).name).toBe(name);
    }
  });

  it('builds LLM forms of the baselines with a backend on the strategy role', () => {
    const backend = new ScriptedBackend([]);
    for (const e of POLICY_CATALOGUE.filter((x) => x.family === 'baseline' && x.forms.llm))
      expect(createPolicy('esconv', e.pattern, { strategyCall: { backend } }).constructor.name).toMatch(
        /Llm/,
      );
  });

  it('label-choosing policies realise their label with the LLM realizer when a backend is given', async () => {
    const backend = new ScriptedBackend([
      '{"candidates":[{"strategy":"Question","utterance":"How are you holding up?"}]}',
    ]);
    const policy = createPolicy('esconv', 'fixed:Question', { strategyCall: { backend } });
    const { observation } = new DialogueEnv('esconv').reset({ seed: defaultSeeds('esconv')[0]! });
    expect(await policy.act(observation, Rng.fromSeed(1))).toEqual({
      strategy: 'Question',
      utterance: 'How are you holding up?',
    });
    expect(backend.requests).toHaveLength(1);
  });

  it('every template baseline plays every task with labels of the task (or none, for Standard)', async () => {
    const baselines = POLICY_CATALOGUE.filter(
      (e) => e.family === 'baseline' && e.forms.template && e.forms.llm,
    );
    for (const task of TASK_IDS) {
      const labels = getTask(task).strategies;
      for (const { pattern: name } of baselines) {
        const used = new Set<string>();
        for (const seed of defaultSeeds(task).slice(0, 4)) {
          const record = await runEpisode(new DialogueEnv(task), createPolicy(task, name), seed, {
            keepState: false,
          });
          expect(record.policy).toBe(name);
          for (const t of record.turns) used.add(t.action.strategy);
        }
        if (name === 'standard') expect([...used]).toEqual(['none']);
        else {
          expect([...used].every((s) => labels.includes(s))).toBe(true);
          // A planner, not a constant: several labels over four episodes.
          expect(used.size).toBeGreaterThan(1);
        }
      }
    }
  });
});
