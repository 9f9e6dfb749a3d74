/**
 * EmoLLM's studies in this library's template mode (emollm.txt §4–5; issue 14), small enough for a shared CPU:
 *
 * 1. `baselines`: the GRPO-trained heads over the ARG actor vs the prompting baselines (standard, proactive,
 *    ProCoT, ask-an-expert; template forms), the untrained ARG policy (lookahead-ranked, G = 3) and the GRPO
 *    heads before training, on ESConv, P4G and CB;
 * 2. `ablations`: GRPO full vs "w/o ARG" (no trace ever) vs "w/o RP Rewards" (no reverse perspective), ESConv;
 * 3. `depth`: lookahead depth n = 1…4, GRPO-trained and the untrained ARG policy, ESConv;
 * 4. `cstpo`: GRPO vs CSTPO at an equal number of environment turns (CSTPO runs steps until its environment
 *    turns, branches included, reach GRPO's), ESConv, P4G and CB.
 *
 * Every policy plays the same held-out seeds with the same environment and policy streams (paired episodes);
 * each figure is a mean with a 95% percentile bootstrap interval clustered by seed (src/grpo/evaluate.ts). Average
 * turns are over successful episodes only. Nothing here is tuned toward the paper's numbers.
 *
 * Usage: npm run studies:emollm -- [--studies baselines,ablations,depth,cstpo] [--steps 10] [--repeats 3]
 *   [--eval-seeds 5] [--seed 0] [--json out.json]
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import * as tf from '@tensorflow/tfjs';
import { TemplateRealizer } from '../src/agents/realizer';
import type { Policy } from '../src/agents/types';
import { ArgPolicy, TemplateArgActor, TemplateReversePredictor } from '../src/appraisal';
import { createNamedPolicy } from '../src/baselines/registry';
import { resolveGrpoConfig, type GrpoConfigInput } from '../src/grpo/config';
import { evaluatePolicy, summarize, type EvalEpisodeRow, type PolicySummary } from '../src/grpo/evaluate';
import { GrpoPolicy } from '../src/grpo/rollout';
import { GrpoTrainer, grpoEnv } from '../src/grpo/trainer';
import { CstpoTrainer } from '../src/rl/trainer';
import { loadActorPolicy } from '../src/rl/policy';
import { Rng } from '../src/rng';
import { splitByKey } from '../src/seeding';
import { bootstrapMean, formatEstimate, type BootstrapInterval } from '../src/stats';
import type { Seed, TaskId } from '../src/tasks';
import { defaultSeeds } from '../src/tasks/defaults';

const { values } = parseArgs({
  options: {
    studies: { type: 'string', default: 'baselines,ablations,depth,cstpo' },
    steps: { type: 'string', default: '10' },
    repeats: { type: 'string', default: '3' },
    'eval-seeds': { type: 'string', default: '5' },
    seed: { type: 'string', default: '0' },
    json: { type: 'string' },
  },
});
const STEPS = Number(values.steps);
const REPEATS = Number(values.repeats);
const EVAL_SEEDS = Number(values['eval-seeds']);
const SEED = Number(values.seed);
const STUDIES = new Set(String(values.studies).split(','));
const TASKS: TaskId[] = ['esconv', 'p4g', 'cb'];
/** Heads and embedding small enough for a shared CPU. */
const SMALL = { embedDim: 32, hidden: 32 } as const;
const HORIZON = 8;

interface Row {
  policy: string;
  summary: PolicySummary;
  /** Paired difference of the return against the table's reference policy. */
  vsReference: BootstrapInterval | null;
  envTurns?: number;
  traceRate?: number;
}
const results: Record<string, Row[]> = {};

function split(task: TaskId): { train: Seed[]; eval: Seed[] } {
  const parts = splitByKey(defaultSeeds(task), (s) => s.id, EVAL_SEEDS, 1234);
  return { train: parts.rest, eval: parts.heldOut };
}

async function evaluate(task: TaskId, policy: Policy, seeds: readonly Seed[]): Promise<EvalEpisodeRow[]> {
  const config = resolveGrpoConfig({ task, horizon: HORIZON });
  return evaluatePolicy(policy, seeds, {
    repeats: REPEATS,
    seed: SEED + 100,
    makeEnv: () => grpoEnv(config),
  });
}

/** Train GRPO heads for `STEPS` steps; returns the trainer (caller disposes) and the environment turns used. */
async function trainGrpo(task: TaskId, extra: Partial<GrpoConfigInput>, train: readonly Seed[]) {
  const trainer = await GrpoTrainer.create(
    { task, steps: STEPS, horizon: HORIZON, seed: SEED, ...SMALL, ...extra },
    { seeds: train },
  );
  let envTurns = 0;
  let traces = 0;
  for (let i = 0; i < STEPS; i++) {
    const r = await trainer.trainStep();
    envTurns += r.envTurns;
    traces += r.traceRate * r.envTurns;
  }
  return { trainer, envTurns, traceRate: traces / Math.max(1, envTurns) };
}

function table(name: string, rows: Row[]): void {
  results[name] = rows;
  const f = (e: Parameters<typeof formatEstimate>[0], d = 3) => formatEstimate(e, d);
  console.log(`\n### ${name}\n`);
  console.log('| policy | SR | AT (successful) | return | ES end (1–5) | ES gain / turn | return − ref. |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const s = r.summary;
    console.log(
      `| ${r.policy} | ${f(s.successRate, 2)} | ${f(s.averageTurns, 1)} | ${f(s.meanReturn)} | ${f(s.esEnd, 2)} | ` +
        `${f(s.esGainPerTurn)} | ${f(r.vsReference)} |`,
    );
  }
}

function rowsOf(named: [string, EvalEpisodeRow[], Partial<Row>?][], reference: EvalEpisodeRow[]): Row[] {
  return named.map(([policy, rows, extra]) => ({
    policy,
    summary: summarize(rows, SEED + 7),
    vsReference: bootstrapMean(
      rows.map((r, i) => r.return - (reference[i] as EvalEpisodeRow).return),
      { rng: Rng.fromSeed(SEED + 8), clusters: rows.map((r) => r.seedId) },
    ),
    ...extra,
  }));
}

const argPolicy = (depth: number) =>
  new ArgPolicy({
    actor: new TemplateArgActor(),
    predictor: new TemplateReversePredictor(),
    realizer: new TemplateRealizer(),
    candidates: 3,
    depth,
  });

const grpoPolicy = (name: string, t: GrpoTrainer) => new GrpoPolicy(name, t.nets, t.actorServices, t.config);

async function main(): Promise<void> {
  tf.enableProdMode();
  await tf.setBackend('cpu');
  const started = performance.now();
  console.log(
    `EmoLLM studies · template mode · tfjs cpu · ${STEPS} GRPO steps (G = 4, 2 groups, horizon ${HORIZON}) · ` +
      `${EVAL_SEEDS} held-out seeds × ${REPEATS} episodes · seed ${SEED}`,
  );
  const trained = new Map<TaskId, Awaited<ReturnType<typeof trainGrpo>>>();
  const full = async (task: TaskId) => {
    if (!trained.has(task)) trained.set(task, await trainGrpo(task, {}, split(task).train));
    return trained.get(task)!;
  };

  if (STUDIES.has('baselines')) {
    for (const task of TASKS) {
      const { eval: seeds } = split(task);
      const g = await full(task);
      const init = await GrpoTrainer.create(
        { task, horizon: HORIZON, seed: SEED, ...SMALL },
        { seeds: split(task).train },
      );
      const named: [string, EvalEpisodeRow[], Partial<Row>?][] = [];
      for (const b of ['standard', 'proactive', 'procot', 'ask-an-expert'])
        named.push([b, await evaluate(task, createNamedPolicy(task, b), seeds)]);
      named.push(['arg (untrained, G = 3, n = 3)', await evaluate(task, argPolicy(3), seeds)]);
      named.push(['grpo heads before training', await evaluate(task, grpoPolicy('init', init), seeds)]);
      named.push([
        `grpo (${STEPS} steps)`,
        await evaluate(task, grpoPolicy('grpo', g.trainer), seeds),
        { envTurns: g.envTurns, traceRate: g.traceRate },
      ]);
      init.dispose();
      table(`${task}: GRPO vs prompting baselines (reference: standard)`, rowsOf(named, named[0]![1]));
    }
  }

  if (STUDIES.has('ablations')) {
    const task: TaskId = 'esconv';
    const { train, eval: seeds } = split(task);
    const g = await full(task);
    const named: [string, EvalEpisodeRow[], Partial<Row>?][] = [
      ['grpo full', await evaluate(task, grpoPolicy('full', g.trainer), seeds), { traceRate: g.traceRate }],
    ];
    for (const [name, ablations] of [
      ['w/o ARG', { arg: false, reversePerspective: true }],
      ['w/o RP rewards', { arg: true, reversePerspective: false }],
    ] as const) {
      const a = await trainGrpo(task, { ablations }, train);
      named.push([
        name,
        await evaluate(task, grpoPolicy(name, a.trainer), seeds),
        { traceRate: a.traceRate },
      ]);
      a.trainer.dispose();
    }
    table(`${task}: ablations (reference: grpo full)`, rowsOf(named, named[0]![1]));
  }

  if (STUDIES.has('depth')) {
    const task: TaskId = 'esconv';
    const { train, eval: seeds } = split(task);
    const named: [string, EvalEpisodeRow[], Partial<Row>?][] = [];
    for (const depth of [1, 2, 3, 4]) {
      const g = depth === 3 ? await full(task) : await trainGrpo(task, { depth }, train);
      named.push([`grpo n = ${depth}`, await evaluate(task, grpoPolicy(`n${depth}`, g.trainer), seeds)]);
      if (depth !== 3) g.trainer.dispose();
    }
    for (const depth of [1, 2, 3, 4])
      named.push([`arg (untrained) n = ${depth}`, await evaluate(task, argPolicy(depth), seeds)]);
    table(`${task}: lookahead depth (reference: grpo n = 1)`, rowsOf(named, named[0]![1]));
  }

  if (STUDIES.has('cstpo')) {
    for (const task of TASKS) {
      const { train, eval: seeds } = split(task);
      const g = await full(task);
      const cstpo = await CstpoTrainer.create(
        {
          task,
          horizon: HORIZON,
          seedsPerStep: 2,
          checkpoints: 1,
          sftEpochs: 100,
          criticWarmupSteps: 1,
          seed: SEED,
          ...SMALL,
          steps: 10_000,
        },
        { seeds: train },
      );
      let turns = 0;
      let steps = 0;
      while (turns < g.envTurns) {
        turns += (await cstpo.trainStep()).counts.envTurns;
        steps++;
      }
      const snap = await cstpo.snapshot();
      const loaded = loadActorPolicy('cstpo', { config: snap.config, actor: snap.actor });
      const named: [string, EvalEpisodeRow[], Partial<Row>?][] = [
        [
          `cstpo (${steps} steps, SFT 100 epochs)`,
          await evaluate(task, loaded.policy(), seeds),
          { envTurns: turns },
        ],
        [
          `grpo (${STEPS} steps)`,
          await evaluate(task, grpoPolicy('grpo', g.trainer), seeds),
          { envTurns: g.envTurns },
        ],
      ];
      loaded.dispose();
      await cstpo.dispose();
      table(
        `${task}: GRPO vs CSTPO at equal environment turns (CSTPO ${turns}, GRPO ${g.envTurns}; reference: cstpo)`,
        rowsOf(named, named[0]![1]),
      );
    }
  }
  for (const g of trained.values()) g.trainer.dispose();
  console.log(`\n(${((performance.now() - started) / 1000).toFixed(0)} s)`);
  if (values.json) await writeFile(values.json, JSON.stringify(results, null, 2));
}

await main();
