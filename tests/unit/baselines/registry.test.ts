import { describe, expect, it } from 'vitest';
import { runEpisode } from '../../../src/agents/rollout';
import {
  PolicySpecError,
  PROMPT_BASELINES,
  TEMPLATE_BASELINES,
  checkPolicySpec,
  createNamedPolicy,
} from '../../../src/baselines';
import { DialogueEnv } from '../../../src/env/env';
import { ScriptedBackend } from '../../../src/llm';
import { Rng } from '../../../src/rng';
import { getTask, TASK_IDS } from '../../../src/tasks';
import { defaultSeeds } from '../../../src/tasks/defaults';

describe('named policies', () => {
  it('rejects unknown names, unknown fixed labels and LLM-only baselines without a backend', () => {
    expect(() => checkPolicySpec('esconv', 'ppo', { llm: false })).toThrow(
      /unknown policy "ppo"; known: random/,
    );
    expect(() => checkPolicySpec('cb', 'fixed:Question', { llm: false })).toThrow(/not a cb strategy/);
    expect(() => checkPolicySpec('p4g', 'icl-aif', { llm: false })).toThrow(PolicySpecError);
    expect(() => checkPolicySpec('p4g', 'mi-prompt', { llm: false })).toThrow(/no template form/);
    expect(() => checkPolicySpec('p4g', 'mi-prompt', { llm: true })).not.toThrow();
  });

  it('builds LLM forms when a backend is given', () => {
    const backend = new ScriptedBackend([]);
    for (const name of PROMPT_BASELINES) {
      expect(createNamedPolicy('esconv', name, { backend }).constructor.name).toMatch(/Llm/);
    }
  });

  it('label-choosing policies realise their label with the LLM realizer when a backend is given', async () => {
    const backend = new ScriptedBackend([
      '{"candidates":[{"strategy":"Question","utterance":"How are you holding up?"}]}',
    ]);
    const policy = createNamedPolicy('esconv', 'fixed:Question', { backend });
    const { observation } = new DialogueEnv('esconv').reset({ seed: defaultSeeds('esconv')[0]! });
    expect(await policy.act(observation, Rng.fromSeed(1))).toEqual({
      strategy: 'Question',
      utterance: 'How are you holding up?',
    });
    expect(backend.requests).toHaveLength(1);
  });

  it('every template baseline plays every task with labels of the task (or none, for Standard)', async () => {
    for (const task of TASK_IDS) {
      const labels = getTask(task).strategies;
      for (const name of TEMPLATE_BASELINES) {
        const used = new Set<string>();
        for (const seed of defaultSeeds(task).slice(0, 4)) {
          const record = await runEpisode(new DialogueEnv(task), createNamedPolicy(task, name), seed, {
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
