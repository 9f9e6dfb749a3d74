import { describe, expect, it } from 'vitest';
import type { Policy } from '../../../src/agents/types';
import { EmbeddingLabelMapper } from '../../../src/baselines';
import { createPolicy } from '../../../src/policies';
import { classificationReport } from '../../../src/stats';
import {
  contextObservation,
  esconvDialogues,
  evaluate,
  f1ContextsFromDialogue,
  f1ContextsFromSeeds,
  p4gAnnotatedDialogues,
  planEvaluation,
  scoreStrategyPrediction,
  type F1Context,
} from '../../../src/eval';

import { defaultSeeds } from '../../../src/tasks/defaults';

const ESCONV = [
  JSON.stringify({
    emotion_type: 'anxiety',
    problem_type: 'job crisis',
    situation: 'I may lose my job.',
    dialog: [
      { text: 'Hi, how can I help?', speaker: 'sys', strategy: 'Question' },
      { text: 'I think I will be fired.', speaker: 'usr' },
      { text: 'That sounds scary.', speaker: 'sys', strategy: 'Reflection of feelings' },
      { text: 'Yes.', speaker: 'usr' },
      { text: 'It is very stressful.', speaker: 'usr' },
      { text: 'Many people go through this.', speaker: 'sys', strategy: 'Affirmation and Reassurance' },
      { text: 'You could update your CV.', speaker: 'sys', strategy: 'Providing Suggestions' },
      { text: 'Thanks.', speaker: 'usr' },
    ],
  }),
  '',
].join('\n');

const P4G = [
  'dialog_id,role,turn,sentence,er_label_1,ee_label_1,er_label_2,ee_label_2,neg,neu,pos',
  'd1,0,0,Hello there!,greeting,,,,0,1,0',
  'd1,0,0,"Have you heard of Save the Children, by any chance?",source-related-inquiry,,,,0,1,0',
  'd1,1,0,No I have not.,,,,,0,1,0',
  'd1,0,1,They help kids.,credibility-appeal,,,,0,1,0',
  'd1,1,1,Nice.,,,,,0,1,0',
  'd1,0,2,Would you donate?,proposition-of-donation,,,,0,1,0',
].join('\n');

/** A policy that always answers the same strategy text. */
const constant = (strategy: string): Policy => ({
  name: `const:${strategy}`,
  async act() {
    return { strategy, utterance: 'x' };
  },
});

describe('labelled contexts', () => {
  it('cut whole ESConv dialogues at every labelled supporter turn (merged turns keep their first label)', () => {
    const [d] = esconvDialogues(ESCONV, 'data/esconv-mini.jsonl');
    expect(d!.id).toBe('esconv-mini:1');
    const contexts = f1ContextsFromDialogue(d!);
    expect(contexts.map((c) => c.label)).toEqual([
      'Question',
      'Reflection of feelings',
      'Affirmation and Reassurance',
    ]);
    expect(contexts.map((c) => c.history.length)).toEqual([0, 2, 4]);
    expect(contexts[2]!.history[3]!.text).toBe('Yes. It is very stressful.');
    const obs = contextObservation(contexts[2]!);
    expect(obs).toMatchObject({ task: 'esconv', turn: 2, events: [] });
  });

  it('read annotated P4G dialogues with their merged persuader labels', () => {
    const [d] = p4gAnnotatedDialogues(P4G, 'p4g-annotated.csv');
    expect(d!.id).toBe('p4g-annotated:d1');
    expect(f1ContextsFromDialogue(d!).map((c) => c.label)).toEqual([
      'Greeting',
      'Credibility appeal',
      'Proposition of donation',
    ]);
    expect(d!.turns[0]!.text).toBe('Hello there! Have you heard of Save the Children, by any chance?');
    expect(() =>
      p4gAnnotatedDialogues(P4G.replace('credibility-appeal', 'bribery'), 'p4g-annotated.csv'),
    ).toThrow(/p4g-annotated.csv:5: unknown strategy label "bribery"/);
    expect(() => esconvDialogues('{"dialog": 3}\n', 'bad.jsonl')).toThrow(
      expect.objectContaining({ name: 'DataFormatError', code: 'DATASET_INVALID' }),
    );
  });

  it('take three contexts from each authored seed: two prefix turns and the first reference label', () => {
    const seeds = defaultSeeds('esconv').slice(0, 3);
    const contexts = f1ContextsFromSeeds(seeds);
    expect(contexts).toHaveLength(9);
    expect(contexts[2]).toMatchObject({
      label: seeds[0]!.reference!.strategies[0],
      history: seeds[0]!.prefix,
      reference: seeds[0]!.reference!.strategies,
    });
    // a prefix turn's reference: its own label, the later prefix labels, then the seed's reference labels
    expect(contexts[0]!.reference[0]).toBe(contexts[0]!.label);
    expect(contexts[0]!.reference.slice(-seeds[0]!.reference!.strategies.length)).toEqual(
      seeds[0]!.reference!.strategies,
    );
  });
});

describe('strategy prediction scores', () => {
  const contexts: F1Context[] = f1ContextsFromDialogue(esconvDialogues(ESCONV, 'e.jsonl')[0]!);

  it('match the hand-computed F1 of a constant prediction', async () => {
    const r = (await scoreStrategyPrediction(constant('Question'), contexts, { baseSeed: 0 }))!;
    // Truth: Question, Reflection, Affirmation; predicted: Question ×3. Question: P = 1/3, R = 1, F1 = 1/2.
    expect(r.report.macroF1).toBeCloseTo(0.5 / 8, 12);
    expect(r.report.weightedF1).toBeCloseTo(0.5 / 3, 12);
    expect(r.report.accuracy).toBeCloseTo(1 / 3, 12);
    expect(r.entropy).toBe(0);
    expect(r.report).toEqual(
      classificationReport(
        contexts.map((c) => c.label),
        ['Question', 'Question', 'Question'],
        { labels: r.report.labels },
      ),
    );
  });

  it('score a single-context set', async () => {
    const r = (await scoreStrategyPrediction(constant('Question'), contexts.slice(0, 1), { baseSeed: 0 }))!;
    expect(r.report.accuracy).toBe(1);
    expect(r.report.weightedF1).toBe(1);
    expect(r.report.macroF1).toBeCloseTo(1 / 8, 12);
  });

  it('map free-form strategies with a mapper, refuse them without one, and skip a policy with no strategy', async () => {
    const free = constant('ask an open question about what happened');
    await expect(scoreStrategyPrediction(free, contexts, { baseSeed: 0 })).rejects.toThrow(/no label mapper/);
    await expect(scoreStrategyPrediction(free, contexts, { baseSeed: 0 })).rejects.toMatchObject({
      name: 'InputError',
      code: 'EVAL_STRATEGY_UNMAPPED',
      got: 'ask an open question about what happened',
    });
    const r = (await scoreStrategyPrediction(free, contexts, {
      baseSeed: 0,
      mapper: new EmbeddingLabelMapper(),
    }))!;
    expect(r.mapped).toBe(3);
    expect(
      await scoreStrategyPrediction(createPolicy('esconv', 'standard'), contexts, { baseSeed: 0 }),
    ).toBeNull();
  });

  it("give replay the human labels: it scores the ceiling, not the random policy's F1", async () => {
    const seeds = defaultSeeds('esconv').slice(0, 6);
    const all = f1ContextsFromSeeds(seeds);
    const score = async (name: string) =>
      (await scoreStrategyPrediction(createPolicy('esconv', name), all, { baseSeed: 3 }))!.report;
    const replay = await score('replay');
    const random = await score('random');
    // replay plays the dataset's labels in order, so it predicts every human label (it used to get no
    // reference and fall back to the random policy's draws, giving exactly random's F1)
    expect(replay.accuracy).toBe(1);
    expect(replay.weightedF1).toBe(1);
    expect(random.accuracy).toBeLessThan(1);
    expect(replay.macroF1).not.toBe(random.macroF1);
  });

  it('appear in the report for every policy, deterministically', async () => {
    const plan = planEvaluation({
      tasks: ['esconv', 'p4g'],
      policies: ['standard', 'proactive', 'replay'],
      seedSets: (['esconv', 'p4g'] as const).map((task) => ({
        task,
        name: 'b',
        seeds: defaultSeeds(task).slice(0, 3),
      })),
      f1: true,
      resamples: 100,
    });
    const a = await evaluate(plan, { generatedAt: new Date(0) });
    const b = await evaluate(plan, { generatedAt: new Date(0) });
    expect(a.report.strategyPrediction).toEqual(b.report.strategyPrediction);
    const rows = a.report.strategyPrediction;
    expect(rows.map((r) => `${r.task}/${r.policy}/${r.contexts}`)).toEqual([
      'esconv/standard/null',
      'esconv/proactive/9',
      'esconv/replay/9',
      'p4g/standard/null',
      'p4g/proactive/9',
      'p4g/replay/9',
    ]);
    expect(plan.config.f1).toEqual([
      { task: 'esconv', contexts: 9 },
      { task: 'p4g', contexts: 9 },
    ]);
  });
});
