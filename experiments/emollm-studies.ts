/**
 * EmoLLM's studies in this library's template mode (emollm.txt §4–5; issue 14), small enough for a shared CPU,
 * on each of `--tasks` (default: EmoLLM's four settings emollm-ed, emollm-msd, emollm-medd, emollm-iclr; ESConv,
 * P4G and CB also work):
 *
 * 1. `baselines`: the GRPO-trained heads over the ARG actor vs the prompting baselines (standard, proactive,
 *    ProCoT, ask-an-expert; template forms), the untrained ARG policy (lookahead-ranked, G = 3) and the GRPO
 *    heads before training;
 * 2. `ablations`: GRPO full vs "w/o ARG" (no trace ever) vs "w/o RP Rewards" (no reverse perspective);
 * 3. `depth`: lookahead depth n = 1…4, GRPO-trained and the untrained ARG policy (with the count of its turns
 *    whose choice differs from the 1-step choice among the same candidates);
 * 4. `overthinking`: the default λ_over (2, config.ts) against λ_over = 1 (all weights equal): the share of turns
 *    with an ARG trace at the first and the last training step, and the evaluation;
 * 5. `cstpo`: GRPO vs CSTPO at an equal number of environment turns (CSTPO runs steps until its environment
 *    turns, branches included, reach GRPO's), on `--cstpo-tasks` (default ESConv, P4G and CB).
 *
 * Every policy plays the same held-out seeds with the same environment and policy streams (paired episodes).
 * On the EmoLLM settings the tables give EmoLLM's metrics (src/eval/emollm-metrics.ts, template scorers over the
 * visible transcript: SR with a Wilson interval, AT over successful episodes, ES, EG/turn, EA, FA with 95%
 * percentile bootstrap intervals clustered by seed) and the ESConv judge's return; elsewhere the judge's success,
 * turns and return and the observed ES (src/grpo/evaluate.ts). Nothing here is tuned toward the paper's numbers.
 *
 * `--json FILE` writes every table's rows with their intervals (`StudiesReport`, experiments/emollm-report.ts);
 * `--md FILE` writes the same tables as Markdown, rendered from that record, after the hand-written `--md-header`
 * file (setup and findings) when one is given. `--from-json FILE` runs nothing and renders `--md` from a record
 * written earlier (to change the header without a re-run).
 *
 * Usage: npm run studies:emollm -- [--tasks emollm-ed,…] [--studies baselines,ablations,depth,overthinking,cstpo]
 *   [--cstpo-tasks esconv,p4g,cb] [--steps 10] [--repeats 3] [--eval-seeds 5] [--seed 0] [--json out.json]
 *   [--md out.md] [--md-header header.md] [--from-json in.json]
 */
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import * as tf from '@tensorflow/tfjs';
import { TemplateRealizer } from '../src/agents/realizer';
import type { Policy } from '../src/agents/types';
import { ArgPolicy, TemplateArgActor, TemplateReversePredictor } from '../src/appraisal';
import { rankByLookahead } from '../src/appraisal/lookahead';
import { createNamedPolicy } from '../src/baselines/registry';
import { resolveGrpoConfig, type GrpoConfigInput } from '../src/grpo/config';
import { evaluatePolicy, summarize, type EvalEpisodeRow } from '../src/grpo/evaluate';
import { GrpoPolicy } from '../src/grpo/rollout';
import { GrpoTrainer, grpoEnv } from '../src/grpo/trainer';
import { CstpoTrainer } from '../src/rl/trainer';
import { loadActorPolicy } from '../src/rl/policy';
import { Rng } from '../src/rng';
import { splitByKey } from '../src/seeding';
import { SIMULATOR_VERSION } from '../src/sim/version';
import { bootstrapMean, type BootstrapInterval } from '../src/stats';
import { isEmollmTaskName, type Seed, type TaskId } from '../src/tasks';
import { defaultSeeds, emollmDefaultSeeds } from '../src/tasks/defaults';
import {
  renderStudiesJson,
  renderStudiesMarkdown,
  renderTable,
  type ChoiceChanges,
  type StudiesReport,
  type StudyRow as Row,
} from './emollm-report';

const { values } = parseArgs({
  options: {
    tasks: { type: 'string', default: 'emollm-ed,emollm-msd,emollm-medd,emollm-iclr' },
    'cstpo-tasks': { type: 'string', default: 'esconv,p4g,cb' },
    studies: { type: 'string', default: 'baselines,ablations,depth,overthinking' },
    steps: { type: 'string', default: '10' },
    repeats: { type: 'string', default: '3' },
    'eval-seeds': { type: 'string', default: '5' },
    seed: { type: 'string', default: '0' },
    json: { type: 'string' },
    md: { type: 'string' },
    'md-header': { type: 'string' },
    'from-json': { type: 'string' },
  },
});
const STEPS = Number(values.steps);
const REPEATS = Number(values.repeats);
const EVAL_SEEDS = Number(values['eval-seeds']);
const SEED = Number(values.seed);
const STUDIES = new Set(String(values.studies).split(','));
const TASKS = String(values.tasks).split(',');
const CSTPO_TASKS = String(values['cstpo-tasks']).split(',') as TaskId[];
/** Heads and embedding small enough for a shared CPU. */
const SMALL = { embedDim: 32, hidden: 32 } as const;
const HORIZON = 8;

const results: Record<string, Row[]> = {};
const depthChoiceChanges: Record<string, ChoiceChanges[]> = {};

/** The Cog-Sim task a study name plays (the ESConv family for EmoLLM's settings). */
const familyOf = (name: string): TaskId =>
  isEmollmTaskName(name) ? (emollmDefaultSeeds(name)[0] as Seed).task : (name as TaskId);

function split(name: string): { train: Seed[]; eval: Seed[] } {
  const all = isEmollmTaskName(name) ? emollmDefaultSeeds(name) : defaultSeeds(name as TaskId);
  const parts = splitByKey(all, (s) => s.id, EVAL_SEEDS, 1234);
  return { train: parts.rest, eval: parts.heldOut };
}

async function evaluate(name: string, policy: Policy, seeds: readonly Seed[]): Promise<EvalEpisodeRow[]> {
  const config = resolveGrpoConfig({ task: familyOf(name), horizon: HORIZON });
  return evaluatePolicy(policy, seeds, {
    repeats: REPEATS,
    seed: SEED + 100,
    makeEnv: () => grpoEnv(config),
  });
}

/** Train GRPO heads for `STEPS` steps; returns the trainer (caller disposes) and the environment turns used. */
async function trainGrpo(name: string, extra: Partial<GrpoConfigInput>, train: readonly Seed[]) {
  const trainer = await GrpoTrainer.create(
    { task: familyOf(name), steps: STEPS, horizon: HORIZON, seed: SEED, ...SMALL, ...extra },
    { seeds: train },
  );
  let envTurns = 0;
  let traces = 0;
  const rates: number[] = [];
  for (let i = 0; i < STEPS; i++) {
    const r = await trainer.trainStep();
    envTurns += r.envTurns;
    traces += r.traceRate * r.envTurns;
    rates.push(r.traceRate);
  }
  return {
    trainer,
    envTurns,
    traceRate: traces / Math.max(1, envTurns),
    traceRateFirst: rates[0] ?? 0,
    traceRateLast: rates.at(-1) ?? 0,
  };
}

const traceInfo = (g: Awaited<ReturnType<typeof trainGrpo>>): Partial<Row> => ({
  envTurns: g.envTurns,
  traceRate: g.traceRate,
  traceRateFirst: g.traceRateFirst,
  traceRateLast: g.traceRateLast,
});

/** Record a finished study table and print it (the log is the run's progress). */
function table(name: string, rows: Row[], changes?: ChoiceChanges[]): void {
  results[name] = rows;
  if (changes) depthChoiceChanges[name] = changes;
  console.log('\n' + renderTable(name, rows, changes));
}

/**
 * The paired return difference of `rows` against the table's reference (same seeds and repeats, in order), with a
 * 95% cluster-bootstrap interval over seeds; `null` with fewer than two seeds, where no interval can be drawn.
 */
function vsReference(rows: EvalEpisodeRow[], reference: EvalEpisodeRow[]): BootstrapInterval | null {
  const d = bootstrapMean(
    rows.map((r, i) => r.return - (reference[i] as EvalEpisodeRow).return),
    { rng: Rng.fromSeed(SEED + 8), clusters: rows.map((r) => r.seedId) },
  );
  return d.nClusters < 2 ? null : d;
}

function rowsOf(named: [string, EvalEpisodeRow[], Partial<Row>?][], reference: EvalEpisodeRow[]): Row[] {
  return named.map(([policy, rows, extra]) => ({
    policy,
    summary: summarize(rows, SEED + 7),
    vsReference: rows === reference ? null : vsReference(rows, reference),
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

/**
 * The untrained ARG policy at `depth`, counting its turns and those on which its choice differs from the one the
 * 1-step lookahead would make among the same candidates in the same state.
 */
function countingArgPolicy(depth: number): { policy: Policy; turns: number; changed: number } {
  const arg = argPolicy(depth);
  const one = new TemplateReversePredictor();
  const counts = { turns: 0, changed: 0 };
  const policy: Policy = {
    name: arg.name,
    async act(obs, rng) {
      const action = await arg.act(obs, rng);
      const ranked = await rankByLookahead(one, obs, arg.lastDecision!.candidates, 1);
      counts.turns++;
      if (ranked[0]!.reply !== action.utterance) counts.changed++;
      return action;
    },
  };
  return Object.assign(counts, { policy });
}

const grpoPolicy = (name: string, t: GrpoTrainer) => new GrpoPolicy(name, t.nets, t.actorServices, t.config);

/** Run the chosen studies and return their record. */
async function runStudies(): Promise<StudiesReport> {
  tf.enableProdMode();
  await tf.setBackend('cpu');
  const started = performance.now();
  console.log(
    `EmoLLM studies · simulator ${SIMULATOR_VERSION} · template mode · tfjs cpu · ${STEPS} GRPO steps (G = 4, 2 groups, horizon ${HORIZON}) · ` +
      `${EVAL_SEEDS} held-out seeds × ${REPEATS} episodes · seed ${SEED}`,
  );
  const trained = new Map<string, Awaited<ReturnType<typeof trainGrpo>>>();
  const full = async (name: string) => {
    if (!trained.has(name)) trained.set(name, await trainGrpo(name, {}, split(name).train));
    return trained.get(name)!;
  };
  type Named = [string, EvalEpisodeRow[], Partial<Row>?][];
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;

  for (const name of TASKS) {
    const { train, eval: seeds } = split(name);
    const task = familyOf(name);
    if (STUDIES.has('baselines')) {
      const g = await full(name);
      const init = await GrpoTrainer.create(
        { task, horizon: HORIZON, seed: SEED, ...SMALL },
        { seeds: train },
      );
      const named: Named = [];
      for (const b of ['standard', 'proactive', 'procot', 'ask-an-expert'])
        named.push([b, await evaluate(name, createNamedPolicy(task, b), seeds)]);
      named.push(['arg (untrained, G = 3, n = 3)', await evaluate(name, argPolicy(3), seeds)]);
      named.push(['grpo heads before training', await evaluate(name, grpoPolicy('init', init), seeds)]);
      named.push([
        `grpo (${STEPS} steps)`,
        await evaluate(name, grpoPolicy('grpo', g.trainer), seeds),
        traceInfo(g),
      ]);
      init.dispose();
      table(
        `${name}: GRPO vs prompting baselines (reference: standard) [${elapsed()}]`,
        rowsOf(named, named[0]![1]),
      );
    }
    if (STUDIES.has('ablations')) {
      const g = await full(name);
      const named: Named = [
        ['grpo full', await evaluate(name, grpoPolicy('full', g.trainer), seeds), traceInfo(g)],
      ];
      for (const [label, ablations] of [
        ['w/o ARG', { arg: false, reversePerspective: true }],
        ['w/o RP rewards', { arg: true, reversePerspective: false }],
      ] as const) {
        const a = await trainGrpo(name, { ablations }, train);
        named.push([label, await evaluate(name, grpoPolicy(label, a.trainer), seeds), traceInfo(a)]);
        a.trainer.dispose();
      }
      table(`${name}: ablations (reference: grpo full) [${elapsed()}]`, rowsOf(named, named[0]![1]));
    }
    if (STUDIES.has('depth')) {
      const named: Named = [];
      for (const depth of [1, 2, 3, 4]) {
        const g = depth === 3 ? await full(name) : await trainGrpo(name, { depth }, train);
        named.push([
          `grpo n = ${depth}`,
          await evaluate(name, grpoPolicy(`n${depth}`, g.trainer), seeds),
          traceInfo(g),
        ]);
        if (depth !== 3) g.trainer.dispose();
      }
      const changes: ChoiceChanges[] = [];
      for (const depth of [1, 2, 3, 4]) {
        const arg = countingArgPolicy(depth);
        named.push([`arg (untrained) n = ${depth}`, await evaluate(name, arg.policy, seeds)]);
        if (depth > 1) changes.push({ depth, changed: arg.changed, turns: arg.turns });
      }
      table(
        `${name}: lookahead depth (reference: grpo n = 1) [${elapsed()}]`,
        rowsOf(named, named[0]![1]),
        changes,
      );
    }
    if (STUDIES.has('overthinking')) {
      const g = await full(name);
      const equal = await trainGrpo(
        name,
        { weights: { cog: 1, arg: 1, rp: 1, over: 1, emo: 1, task: 1 } },
        train,
      );
      const named: Named = [
        [
          'grpo, λ_over = 2 (default)',
          await evaluate(name, grpoPolicy('over2', g.trainer), seeds),
          traceInfo(g),
        ],
        [
          'grpo, λ_over = 1 (equal weights)',
          await evaluate(name, grpoPolicy('over1', equal.trainer), seeds),
          traceInfo(equal),
        ],
      ];
      equal.trainer.dispose();
      table(
        `${name}: overthinking-penalty weight (reference: λ_over = 2) [${elapsed()}]`,
        rowsOf(named, named[0]![1]),
      );
    }
    trained.get(name)?.trainer.dispose();
    trained.delete(name);
  }

  if (STUDIES.has('cstpo')) {
    for (const task of CSTPO_TASKS) {
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
      const named: Named = [
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
  console.log(`\n(${elapsed()})`);
  return {
    simulator: SIMULATOR_VERSION,
    command: ['npm run studies:emollm --', ...process.argv.slice(2)].join(' '),
    config: {
      tasks: TASKS,
      cstpoTasks: CSTPO_TASKS,
      studies: [...STUDIES],
      steps: STEPS,
      repeats: REPEATS,
      evalSeeds: EVAL_SEEDS,
      seed: SEED,
      horizon: HORIZON,
    },
    wallSeconds: (performance.now() - started) / 1000,
    results,
    depthChoiceChanges,
  };
}

async function main(): Promise<void> {
  const from = values['from-json'];
  const report = from ? (JSON.parse(await readFile(from, 'utf8')) as StudiesReport) : await runStudies();
  if (values.json && !from) await writeFile(values.json, await renderStudiesJson(report));
  if (values.md) {
    const header =
      values['md-header'] === undefined ? undefined : await readFile(values['md-header'], 'utf8');
    await writeFile(values.md, await renderStudiesMarkdown(report, header));
  }
}

await main();
