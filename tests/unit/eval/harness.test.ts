import { describe, expect, it } from 'vitest';
import { caseStreams } from '../../../src/seeding';
import { TemplateJudge, type Judge } from '../../../src/env/judge';
import {
  InlineExecutor,
  MemoryEpisodeStore,
  buildReport,
  evaluate,
  planEvaluation,
  protocolSuccess,
  reportToMarkdown,
  runEvaluation,
  type EvalConfig,
  type EvalEpisode,
  type EvalReport,
} from '../../../src/eval';
import { outcomeStrategies, outcomeSuccess } from '../../../src/eval/harness-outcome';
import { strategyEntropy } from '../../../src/stats/classification';
import { getTask } from '../../../src/tasks';
import { createNodePool } from '../../../src/eval/harness-node';
import { contextObservation, f1ContextsFromSeeds } from '../../../src/eval';
import { trainPpdpp } from '../../../src/baselines';
import type { ChatBackend } from '../../../src/llm';
import type { TaskId } from '../../../src/tasks';
import { defaultSeeds } from '../../../src/tasks/defaults';

const sets = (tasks: TaskId[], n = 4) =>
  tasks.map((task) => ({ task, name: 'bundled', seeds: defaultSeeds(task).slice(0, n) }));
const base: EvalConfig = {
  tasks: ['esconv', 'cb'],
  policies: ['random', 'proactive'],
  seedSets: sets(['esconv', 'cb']),
  repeats: 2,
  resamples: 200,
};
const withoutTime = (r: EvalReport) => ({ ...r, generatedAt: '' });

describe('planEvaluation: bad configuration fails before anything runs, naming the problem', () => {
  const cases: [string, Partial<EvalConfig>, RegExp][] = [
    ['unknown policy', { policies: ['random', 'ppo'] }, /unknown policy "ppo"/],
    ['unknown task', { tasks: ['esconv', 'chess' as TaskId] }, /unknown task "chess"/],
    ['no seed set for a task', { seedSets: sets(['esconv']) }, /no seed set for task cb/],
    [
      'empty seed set',
      { seedSets: [...sets(['esconv']), { task: 'cb', name: 'mine', seeds: [] }] },
      /seed set "mine" of cb is empty/,
    ],
    [
      'F1 on a task without labels',
      { f1: true },
      /strategy F1 needs human strategy labels, which cb does not have/,
    ],
    ['episodes and repeats together', { episodes: 5 }, /give episodes or repeats, not both/],
    ['LLM-only baseline in template mode', { policies: ['icl-aif'] }, /"icl-aif" has no template form/],
    ['ppdpp without a planner', { policies: ['ppdpp'] }, /"ppdpp" needs a trained planner for esconv/],
    ['reference not evaluated', { reference: 'standard' }, /reference policy "standard" is not among/],
    ['bad repeats', { repeats: 0 }, /repeats must be a positive integer/],
    [
      'a seed and its old name disagreeing',
      { rngSeed: 1, baseSeed: 2 },
      /baseSeed is the old name of rngSeed/,
    ],
    ['a negative rng seed', { rngSeed: -1 }, /rngSeed must be a non-negative integer/],
  ];
  for (const [what, change, message] of cases) {
    it(what, () => {
      expect(() => planEvaluation({ ...base, ...change })).toThrow(
        expect.objectContaining({ name: 'ConfigError', code: 'EVAL_CONFIG_INVALID' }),
      );
      expect(() => planEvaluation({ ...base, ...change })).toThrow(message);
    });
  }
  it("takes the evaluate job's names (rngSeed, route), and the old ones (baseSeed, routeSampling) alike", () => {
    const now = planEvaluation({ ...base, rngSeed: 7, route: 'deterministic' });
    const old = planEvaluation({ ...base, baseSeed: 7, routeSampling: 'deterministic' });
    expect(now.config).toEqual(old.config);
    expect(now.episodes).toEqual(old.episodes);
    expect(now.config).toMatchObject({ baseSeed: 7, routeSampling: 'deterministic' });
    expect(now.episodes[0]).not.toEqual(planEvaluation(base).episodes[0]);
  });
  it('a seed of another task, a repeated seed id, and F1 data without labelled turns', () => {
    const esconv = defaultSeeds('esconv').slice(0, 2);
    const wrong = [...esconv, defaultSeeds('p4g')[0]!];
    expect(() =>
      planEvaluation({ ...base, tasks: ['esconv'], seedSets: [{ task: 'esconv', name: 's', seeds: wrong }] }),
    ).toThrow(/is for task p4g, not esconv/);
    expect(() =>
      planEvaluation({
        ...base,
        tasks: ['esconv'],
        seedSets: [{ task: 'esconv', name: 's', seeds: [esconv[0]!, esconv[0]!] }],
      }),
    ).toThrow(/repeats in set "s"/);
    const unlabelled = esconv.map((s) => ({
      ...s,
      prefix: s.prefix.map((t) => ({ speaker: t.speaker, text: t.text })),
      reference: undefined,
    }));
    expect(() =>
      planEvaluation({
        ...base,
        tasks: ['esconv'],
        f1: true,
        seedSets: [{ task: 'esconv', name: 's', seeds: unlabelled }],
      }),
    ).toThrow(/no human-labelled turns for esconv/);
  });
});

describe('planEvaluation: the episodes', () => {
  it('episodes cycles the seeds as in every command: episode i plays seed i mod N as repeat ⌊i / N⌋', () => {
    const seeds = defaultSeeds('cb').slice(0, 2);
    const plan = planEvaluation({
      tasks: ['cb'],
      policies: ['random'],
      seedSets: [{ task: 'cb', name: 's', seeds }],
      episodes: 5,
    });
    expect(plan.episodes.map((e) => `${e.seedId}/${e.repeat}`)).toEqual([
      `${seeds[0]!.id}/0`,
      `${seeds[0]!.id}/1`,
      `${seeds[0]!.id}/2`,
      `${seeds[1]!.id}/0`,
      `${seeds[1]!.id}/1`,
    ]);
  });

  it('lists sets × policies × seeds × repeats, with common random numbers across policies', () => {
    const plan = planEvaluation(base);
    expect(plan.episodes).toHaveLength(2 * 2 * 4 * 2);
    const of = (policy: string) => plan.episodes.filter((e) => e.policy === policy);
    expect(of('random').map((e) => [e.policySeed, e.rngSeed])).toEqual(
      of('proactive').map((e) => [e.policySeed, e.rngSeed]),
    );
    const seed = defaultSeeds('cb')[1]!;
    const e = plan.episodes.find((x) => x.task === 'cb' && x.seedId === seed.id && x.repeat === 1)!;
    expect(e).toMatchObject({
      rngSeed: caseStreams({
        rngSeed: 0,
        task: 'cb',
        caseId: seed.id,
        randomSeed: seed.randomSeed,
        repeat: 1,
      }).simSeed,
      policySeed: caseStreams({
        rngSeed: 0,
        task: 'cb',
        caseId: seed.id,
        randomSeed: seed.randomSeed,
        repeat: 1,
      }).policySeed,
    });
    expect(new Set(plan.episodes.map((x) => x.policySeed)).size).toBe(2 * 4 * 2);
    expect(plan.config).toMatchObject({
      repeats: 2,
      protocol: 'cstpo',
      judgeRepeats: 3,
      reference: 'random',
      mode: 'template',
    });
  });
});

describe('running a plan', () => {
  it('gives the same records with a pool of 2 worker threads as inline, and the same report', async () => {
    const plan = planEvaluation(base);
    const at = new Date(0);
    const inline = await evaluate(plan, { generatedAt: at, keepRecords: true });
    const pool = createNodePool(2);
    try {
      const pooled = await evaluate(plan, { executor: pool, generatedAt: at, keepRecords: true });
      expect(pooled.run.ran).toBe(plan.episodes.length);
      expect(JSON.stringify([...pooled.run.records!])).toBe(JSON.stringify([...inline.run.records!]));
      expect(JSON.stringify([...pooled.run.outcomes])).toBe(JSON.stringify([...inline.run.outcomes]));
      expect(pooled.report).toEqual(inline.report);
    } finally {
      await pool.close();
    }
    // Not degenerate: the policies differ, and episodes differ in length.
    const returns = inline.report.results.map((r) => r.meanReturn.mean);
    expect(new Set(returns).size).toBeGreaterThan(2);
  }, 120_000);

  it('sends trained PPDPP planners to the worker threads: same records as inline', async () => {
    const seeds = defaultSeeds('cb').slice(0, 4);
    const labelled = f1ContextsFromSeeds(seeds).map((c) => ({
      observation: contextObservation(c),
      label: c.label,
    }));
    const { model } = await trainPpdpp({
      task: 'cb',
      seeds,
      labelled,
      embedDim: 16,
      hidden: 8,
      sftEpochs: 30,
      rlSteps: 1,
      episodesPerStep: 2,
    });
    const plan = planEvaluation({
      ...base,
      tasks: ['cb'],
      policies: ['ppdpp', 'random'],
      seedSets: sets(['cb']),
      ppdpp: { cb: model },
    });
    expect(plan.config.ppdpp).toEqual([
      { task: 'cb', hash: expect.stringMatching(/^[0-9a-f]{8}$/), training: model.training },
    ]);
    const inline = await evaluate(plan, { generatedAt: new Date(0) });
    const pool = createNodePool(2);
    try {
      const pooled = await evaluate(plan, { executor: pool, generatedAt: new Date(0) });
      expect(pooled.report).toEqual(inline.report);
    } finally {
      await pool.close();
    }
    const episodes = inline.run.outcomes.get('cb\u0000ppdpp')!;
    expect(episodes.every((e) => e.policy === 'ppdpp')).toBe(true);
    expect(() =>
      planEvaluation({
        ...base,
        tasks: ['cb'],
        policies: ['ppdpp'],
        seedSets: sets(['cb']),
        ppdpp: { cb: { ...model, hidden: 3 } },
      }),
    ).toThrow(expect.objectContaining({ name: 'ConfigError', code: 'EVAL_CONFIG_INVALID' }));
  }, 120_000);

  it('resumes an interrupted evaluation from its store: same report as an uninterrupted one', async () => {
    const plan = planEvaluation(base);
    const uninterrupted = await evaluate(plan);
    const store = new MemoryEpisodeStore();
    const controller = new AbortController();
    await expect(
      runEvaluation(plan, {
        executor: new InlineExecutor(),
        store,
        signal: controller.signal,
        onProgress: (done) => done === 11 && controller.abort(new Error('interrupted')),
      }),
    ).rejects.toThrow('interrupted');
    const kept = [...(await store.load('esconv', 'random')), ...(await store.load('esconv', 'proactive'))];
    expect(kept).toHaveLength(11);
    const resumed = await evaluate(plan, { store });
    expect(resumed.run).toMatchObject({ ran: plan.episodes.length - 11, reused: 11 });
    expect(withoutTime(resumed.report)).toEqual(withoutTime(uninterrupted.report));
    // Nothing left to run the third time.
    expect((await evaluate(plan, { store })).run.ran).toBe(0);
  });

  it('the compact outcomes give the figures of the full records: entropy to the bit, judge runs, labels', async () => {
    const plan = planEvaluation(base);
    const { report, run } = await evaluate(plan, { keepRecords: true, generatedAt: new Date(0) });
    for (const r of report.results) {
      const records = run.records!.get(`${r.task}\u0000${r.policy}`)!;
      const labels = getTask(r.task).strategies;
      const used = records.flatMap((e) =>
        e.turns.map((t) => t.action.strategy).filter((s) => labels.includes(s)),
      );
      expect(used.length).toBeGreaterThan(0);
      expect(r.strategyEntropy).toBe(Math.round(strategyEntropy(used) * 1e12) / 1e12);
      const outcomes = run.outcomes.get(`${r.task}\u0000${r.policy}`)!;
      records.forEach((e, i) => {
        expect(outcomes[i]!.judgeRuns).toEqual({
          utilities: e.judgeRuns.terminal.map((j) => j.utility),
          successes: e.judgeRuns.terminal.map((j) => (j.success ? '1' : '0')).join(''),
          turns: e.judgeRuns.turns,
        });
        expect(outcomeStrategies(outcomes[i]!)).toEqual(
          e.turns.map((t) => t.action.strategy).filter((s) => labels.includes(s)),
        );
      });
    }
  });

  it('records every repeated judgment and reports their agreement', async () => {
    // A judge that disagrees with itself on every second call: utility +0.25, success flipped.
    let calls = 0;
    const inner = new TemplateJudge();
    const flaky: Judge = {
      async terminal(input) {
        const r = await inner.terminal(input);
        return calls++ % 2 === 1 ? { ...r, utility: r.utility + 0.25, success: !r.success } : r;
      },
      turn: (input) => inner.turn(input),
    };
    const plan = planEvaluation({
      ...base,
      tasks: ['cb'],
      policies: ['random'],
      seedSets: sets(['cb'], 2),
      repeats: 1,
    });
    const { report, run } = await evaluate(plan, { services: { judge: () => flaky }, keepRecords: true });
    const episodes = run.records!.get('cb\u0000random') as EvalEpisode[];
    for (const e of episodes) {
      expect(e.judgeRuns.terminal).toHaveLength(3);
      // The aggregate is the mean of the three runs.
      expect(e.utility).toBeCloseTo(e.judgeRuns.terminal.reduce((s, r) => s + r.utility, 0) / 3, 12);
    }
    const agreement = report.results[0]!.judgeAgreement!;
    // Each episode's repeats are (u, u + 0.25, u) or (u + 0.25, u, u + 0.25): pairwise |diff| mean 2 × 0.25 / 3.
    expect(agreement.utility.meanPairwiseAbsDiff).toBeCloseTo(0.5 / 3, 12);
    expect(agreement.utility.unanimousRate).toBe(0);
    expect(agreement.success.pairwiseAgreement).toBeCloseTo(1 / 3, 12);
    expect(agreement.turnLabels).toBeNull();
  });

  it('counts PPDPP success from the per-turn critic, and keeps its per-turn labels', async () => {
    const plan = planEvaluation({
      ...base,
      tasks: ['cb'],
      policies: ['standard'],
      seedSets: sets(['cb'], 3),
      repeats: 1,
      protocol: 'ppdpp',
    });
    const { report, run } = await evaluate(plan, { keepRecords: true });
    const episodes = run.records!.get('cb\u0000standard') as EvalEpisode[];
    const outcomes = run.outcomes.get('cb\u0000standard')!;
    episodes.forEach((e, i) => {
      expect(e.protocol).toBe('ppdpp');
      expect(e.judgeRuns.turns).toHaveLength(e.turns.length);
      expect(protocolSuccess(e, 'ppdpp')).toBe(e.terminated && e.turns.at(-1)!.reward > 0.5);
      // The compact outcome the report reads agrees with the full record.
      expect(outcomeSuccess(outcomes[i]!, 'ppdpp')).toBe(protocolSuccess(e, 'ppdpp'));
      expect(outcomes[i]).toMatchObject({ seedId: e.seedId, turns: e.turns.length, return: e.return });
    });
    expect(report.results[0]!.successRate.mean).toBe(
      episodes.filter((e) => protocolSuccess(e, 'ppdpp')).length / 3,
    );
    expect(report.results[0]!.judgeAgreement!.turnLabels!.unanimousRate).toBe(1);
  });

  it('runs LLM forms inline through a backend, and refuses mismatched modes before running', async () => {
    // A backend that answers by the requested schema: the MI-Prompt label call, then the response call.
    const answers: Record<string, string> = {
      strategy: '{"strategy":"inquire"}',
      response: '{"response":"Is it still in good shape?"}',
    };
    const backend: ChatBackend = {
      name: 'by-schema',
      async complete(request) {
        const format = request.response_format;
        const name = format?.type === 'json_schema' ? format.json_schema.name : '';
        return {
          model: 'by-schema',
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: answers[name] ?? '{}' },
              finish_reason: 'stop',
              logprobs: null,
            },
          ],
        };
      },
    };
    const config: EvalConfig = {
      ...base,
      tasks: ['cb'],
      policies: ['mi-prompt'],
      seedSets: sets(['cb'], 2),
      repeats: 1,
      llm: true,
    };
    const plan = planEvaluation(config);
    const { run, report } = await evaluate(plan, { services: { backend } });
    const episodes = run.records!.get('cb\u0000mi-prompt')!;
    expect(episodes).toHaveLength(2);
    for (const e of episodes)
      for (const t of e.turns)
        expect(t.action).toEqual({ strategy: 'inquire', utterance: 'Is it still in good shape?' });
    expect(report.config.mode).toBe('llm');
    await expect(evaluate(plan)).rejects.toThrow(/no language backend is given/);
    await expect(
      evaluate(planEvaluation({ ...config, policies: ['random'], llm: false }), { services: { backend } }),
    ).rejects.toThrow(/plan evaluates template forms/);
    const pool = createNodePool(1);
    await expect(evaluate(plan, { services: { backend }, executor: pool })).rejects.toThrow(
      /cannot be sent to workers/,
    );
    await pool.close();
  });

  it('builds paired differences on matched (seed, repeat) keys, clustered by seed', async () => {
    const plan = planEvaluation(base);
    const { report, run } = await evaluate(plan);
    const d = report.paired.find(
      (p) => p.task === 'esconv' && p.policy === 'proactive' && p.metric === 'return',
    )!;
    // By default a run keeps only the compact outcomes (the trajectories stay in the store).
    expect(run.records).toBeUndefined();
    const a = run.outcomes.get('esconv\u0000proactive')!;
    const b = run.outcomes.get('esconv\u0000random')!;
    expect(d.n).toBe(8);
    expect(d.nClusters).toBe(4);
    expect(d.mean).toBeCloseTo(
      a.reduce((s, e) => s + e.return, 0) / 8 - b.reduce((s, e) => s + e.return, 0) / 8,
      12,
    );
    expect(buildReport(plan, run, { generatedAt: new Date(5) }).generatedAt).toBe('1970-01-01T00:00:00.005Z');
  });

  it('gives paired differences from a single seed no interval, in JSON and Markdown (not [x, x])', async () => {
    const plan = planEvaluation({ ...base, tasks: ['esconv'], seedSets: sets(['esconv'], 1), repeats: 3 });
    const { report } = await evaluate(plan);
    const paired = report.paired.filter((p) => p.task === 'esconv');
    expect(paired).toHaveLength(2);
    for (const d of paired) {
      expect(d).toMatchObject({
        lo: null,
        hi: null,
        n: 3,
        nClusters: 1,
        note: 'n too small for an interval: 1 seed',
      });
    }
    const md = reportToMarkdown(report);
    const row = md.split('\n').find((l) => l.includes('proactive − random'))!;
    expect(row).toContain('n/a (n too small for an interval: 1 seed)');
    expect(row).not.toMatch(/\[-?\d/);
  });
});
