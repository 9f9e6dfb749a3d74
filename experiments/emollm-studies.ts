/**
 * EmoLLM's studies in this library's template mode (EmoLLM paper §4–5), small enough for a shared CPU,
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
 *   [--cstpo-tasks esconv,p4g,cb] [--steps 10] [--repeats 3] [--eval-seeds 5] [--rng-seed 0] [--json out.json]
 *   [--md out.md] [--md-header header.md] [--from-json in.json] [--overwrite]
 * `--json` and `--md` are checked before any work: an existing file is refused (exit 2) unless `--overwrite`; both
 * are written whole or not at all (a temporary sibling renamed into place).
 */
import { readFile } from 'node:fs/promises';
import * as tf from '@tensorflow/tfjs';
import {
  bool,
  choiceValues,
  parseCommandLine,
  parseNumber,
  rangeText,
  rngSeedValue,
  runCommand,
  str,
  type Io,
} from '../cli/options';
import { assertOutputAvailable, writeFileAtomic } from '../src/node';
import { OutputConflictError, PathError } from '../src/entries/errors';
import {
  TemplateRealizer,
  ArgPolicy,
  TemplateArgActor,
  TemplateReversePredictor,
  rankByLookahead,
  createPolicy,
  type Policy,
} from '../src/entries/policies';
import {
  resolveGrpoConfig,
  type GrpoConfigInput,
  evaluatePolicy,
  summarize,
  type EvalEpisodeRow,
  GrpoPolicy,
  GrpoTrainer,
  grpoEnv,
  CstpoTrainer,
  loadActorPolicy,
} from '../src/entries/training';
import {
  Rng,
  splitByKey,
  SIMULATOR_VERSION,
  getSeedSet,
  legacyTaskName,
  TASK_IDS,
  TASK_NAMES,
  type Seed,
  type TaskId,
  type TaskName,
  defaultSeeds,
} from '../src/entries/simulator';
import { bootstrapMean, type BootstrapInterval } from '../src/entries/evaluation';
import {
  renderStudiesJson,
  renderStudiesMarkdown,
  renderTable,
  type ChoiceChanges,
  type StudiesReport,
  type StudyRow as Row,
} from './emollm-report';

/** The studies, in the order they run. */
const STUDY_NAMES = ['baselines', 'ablations', 'depth', 'overthinking', 'cstpo'] as const;
type StudyName = (typeof STUDY_NAMES)[number];

/**
 * The integer options: their flag, default and documented range (at most 10 held-out seeds, so that the smallest
 * task, 15 seeds, keeps 5 to train on).
 */
const NUMBERS = {
  steps: { flag: 'steps', default: 10, min: 1, max: 1000 },
  repeats: { flag: 'repeats', default: 3, min: 1, max: 100 },
  evalSeeds: { flag: 'eval-seeds', default: 5, min: 1, max: 10 },
  seed: { flag: 'rng-seed', default: 0, min: 0, max: 0xffffffff },
} as const;

const DEFAULTS = {
  tasks: 'emollm-ed,emollm-msd,emollm-medd,emollm-iclr',
  cstpoTasks: TASK_IDS.join(','),
  studies: 'baselines,ablations,depth,overthinking',
};

const range = (key: keyof typeof NUMBERS) =>
  `range ${rangeText(NUMBERS[key])}; default ${NUMBERS[key].default}`;

export const HELP = `Usage: npm run studies:emollm -- [options]

EmoLLM's studies in template mode (EmoLLM paper §4–5), small enough for a shared CPU: GRPO vs the
prompting baselines, ablations, lookahead depth, the overthinking-penalty weight and GRPO vs CSTPO at equal
environment turns, each on the same held-out seeds (paired episodes).

Options:
  --tasks LIST           settings or tasks, comma-separated: ${TASK_NAMES.join(', ')}
                         (default ${DEFAULTS.tasks})
  --studies LIST         ${STUDY_NAMES.join(', ')} (default ${DEFAULTS.studies})
  --cstpo-tasks LIST     tasks of the cstpo study: ${TASK_IDS.join(', ')} (default ${DEFAULTS.cstpoTasks})
  --steps N              GRPO steps (${range('steps')})
  --repeats N            episodes per held-out seed (${range('repeats')})
  --eval-seeds N         held-out seeds per task (${range('evalSeeds')})
  --rng-seed N           seed of the random streams (${range('seed')})
  --seed N               old name of --rng-seed (still works, with a notice)
  --json FILE            write every table's rows with their intervals
  --md FILE              write the tables as Markdown
  --md-header FILE       Markdown put before the tables (setup and findings)
  --from-json FILE       run nothing; render --md from a record written earlier
  --overwrite            replace an existing --json or --md file (without it, one is refused before any work)
  -h, --help             show this help
`;

/** The options of a studies run. */
export interface EmollmStudiesOptions {
  tasks: TaskName[];
  cstpoTasks: TaskId[];
  studies: StudyName[];
  steps: number;
  repeats: number;
  evalSeeds: number;
  seed: number;
  json?: string;
  md?: string;
  mdHeader?: string;
  fromJson?: string;
  overwrite: boolean;
}

/**
 * Parses the command line, every value checked before any work; the old `--seed` is read as `--rng-seed`, with a
 * notice on `io`'s stderr.
 * @throws UsageError (cli/options) for an unknown option, task or study, an out-of-range number, or both
 *   `--seed` and `--rng-seed`.
 */
export function parseEmollmStudiesArgs(argv: string[], io?: Io): EmollmStudiesOptions | 'help' {
  const quiet: Io = io ?? { stdout: () => {}, stderr: () => {}, isTTY: false };
  const files = ['json', 'md', 'md-header', 'from-json'] as const;
  const values = parseCommandLine(argv, {
    tasks: { type: 'string' },
    'cstpo-tasks': { type: 'string' },
    studies: { type: 'string' },
    ...Object.fromEntries(
      [...Object.values(NUMBERS).map((n) => n.flag), 'seed', ...files].map((f) => [
        f,
        { type: 'string' as const },
      ]),
    ),
    overwrite: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (bool(values, 'help')) return 'help';
  const rngSeed = rngSeedValue(values, quiet);
  const number = (key: keyof typeof NUMBERS) => {
    const raw = key === 'seed' ? rngSeed : str(values, NUMBERS[key].flag);
    return raw === undefined
      ? NUMBERS[key].default
      : parseNumber(NUMBERS[key].flag, raw, { integer: true, ...NUMBERS[key] });
  };
  const file = (flag: (typeof files)[number]) => str(values, flag);
  const [json, md, mdHeader, fromJson] = files.map(file);
  return {
    tasks: choiceValues('tasks', str(values, 'tasks') ?? DEFAULTS.tasks, TASK_NAMES),
    cstpoTasks: choiceValues('cstpo-tasks', str(values, 'cstpo-tasks') ?? DEFAULTS.cstpoTasks, TASK_IDS),
    studies: choiceValues('studies', str(values, 'studies') ?? DEFAULTS.studies, STUDY_NAMES),
    steps: number('steps'),
    repeats: number('repeats'),
    evalSeeds: number('evalSeeds'),
    seed: number('seed'),
    ...(json !== undefined ? { json } : {}),
    ...(md !== undefined ? { md } : {}),
    ...(mdHeader !== undefined ? { mdHeader } : {}),
    ...(fromJson !== undefined ? { fromJson } : {}),
    overwrite: bool(values, 'overwrite'),
  };
}

/** The run's options, set by the entry point before any study runs. */
let o: EmollmStudiesOptions;
/** Heads and embedding small enough for a shared CPU. */
const SMALL = { embedDim: 32, hidden: 32 } as const;
const HORIZON = 8;

const results: Record<string, Row[]> = {};
const depthChoiceChanges: Record<string, ChoiceChanges[]> = {};

/** The task a study name plays: itself, or for an EmoLLM setting (a seed set of ESConv) its task. */
const familyOf = (name: string): TaskId => legacyTaskName(name)?.task ?? (name as TaskId);

/** The bundled seeds of a study name: the task's default seeds, or the EmoLLM setting's seed set. */
function seedsOf(name: string): Seed[] {
  const set = legacyTaskName(name);
  return set ? getSeedSet(set.task, set.seedSet).seeds() : defaultSeeds(name as TaskId);
}

function split(name: string): { train: Seed[]; eval: Seed[] } {
  const all = seedsOf(name);
  const parts = splitByKey(all, (s) => s.id, o.evalSeeds, 1234);
  return { train: parts.rest, eval: parts.heldOut };
}

async function evaluate(name: string, policy: Policy, seeds: readonly Seed[]): Promise<EvalEpisodeRow[]> {
  const config = resolveGrpoConfig({ task: familyOf(name), horizon: HORIZON });
  return evaluatePolicy(policy, seeds, {
    repeats: o.repeats,
    seed: o.seed + 100,
    env: grpoEnv(config),
  });
}

/** Train GRPO heads for `o.steps` steps; returns the trainer (caller disposes) and the environment turns used. */
async function trainGrpo(name: string, extra: Partial<GrpoConfigInput>, train: readonly Seed[]) {
  const trainer = await GrpoTrainer.create(
    { task: familyOf(name), steps: o.steps, horizon: HORIZON, seed: o.seed, ...SMALL, ...extra },
    { seeds: train },
  );
  let envTurns = 0;
  let traces = 0;
  const rates: number[] = [];
  for (let i = 0; i < o.steps; i++) {
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
    { rng: Rng.fromSeed(o.seed + 8), clusters: rows.map((r) => r.seedId) },
  );
  return d.nClusters < 2 ? null : d;
}

function rowsOf(named: [string, EvalEpisodeRow[], Partial<Row>?][], reference: EvalEpisodeRow[]): Row[] {
  return named.map(([policy, rows, extra]) => ({
    policy,
    summary: summarize(rows, o.seed + 7),
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
    `EmoLLM studies · simulator ${SIMULATOR_VERSION} · template mode · tfjs cpu · ${o.steps} GRPO steps (G = 4, 2 groups, horizon ${HORIZON}) · ` +
      `${o.evalSeeds} held-out seeds × ${o.repeats} episodes · seed ${o.seed}`,
  );
  const trained = new Map<string, Awaited<ReturnType<typeof trainGrpo>>>();
  const full = async (name: string) => {
    if (!trained.has(name)) trained.set(name, await trainGrpo(name, {}, split(name).train));
    return trained.get(name)!;
  };
  type Named = [string, EvalEpisodeRow[], Partial<Row>?][];
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;

  for (const name of o.tasks) {
    const { train, eval: seeds } = split(name);
    const task = familyOf(name);
    if (o.studies.includes('baselines')) {
      const g = await full(name);
      const init = await GrpoTrainer.create(
        { task, horizon: HORIZON, seed: o.seed, ...SMALL },
        { seeds: train },
      );
      const named: Named = [];
      for (const b of ['standard', 'proactive', 'procot', 'ask-an-expert'])
        named.push([b, await evaluate(name, createPolicy(task, b), seeds)]);
      named.push(['arg (untrained, G = 3, n = 3)', await evaluate(name, argPolicy(3), seeds)]);
      named.push(['grpo heads before training', await evaluate(name, grpoPolicy('init', init), seeds)]);
      named.push([
        `grpo (${o.steps} steps)`,
        await evaluate(name, grpoPolicy('grpo', g.trainer), seeds),
        traceInfo(g),
      ]);
      init.dispose();
      table(
        `${name}: GRPO vs prompting baselines (reference: standard) [${elapsed()}]`,
        rowsOf(named, named[0]![1]),
      );
    }
    if (o.studies.includes('ablations')) {
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
    if (o.studies.includes('depth')) {
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
    if (o.studies.includes('overthinking')) {
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

  if (o.studies.includes('cstpo')) {
    for (const task of o.cstpoTasks) {
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
          seed: o.seed,
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
          `grpo (${o.steps} steps)`,
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
      tasks: o.tasks,
      cstpoTasks: o.cstpoTasks,
      studies: o.studies,
      steps: o.steps,
      repeats: o.repeats,
      evalSeeds: o.evalSeeds,
      seed: o.seed,
      horizon: HORIZON,
    },
    wallSeconds: (performance.now() - started) / 1000,
    results,
    depthChoiceChanges,
  };
}

/**
 * Runs the chosen studies (or reads `--from-json`) and writes `--json` and `--md`, each checked before any work
 * (an existing file only with `--overwrite`).
 */
async function main(): Promise<void> {
  const json = o.fromJson ? undefined : o.json;
  for (const path of [json, o.md])
    if (path !== undefined) await assertOutputAvailable(path, { kind: 'file', overwrite: o.overwrite });
  const report = o.fromJson
    ? (JSON.parse(await readFile(o.fromJson, 'utf8')) as StudiesReport)
    : await runStudies();
  if (json) await writeFileAtomic(json, await renderStudiesJson(report));
  if (o.md) {
    const header = o.mdHeader === undefined ? undefined : await readFile(o.mdHeader, 'utf8');
    await writeFileAtomic(o.md, await renderStudiesMarkdown(report, header));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const io: Io = {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    isTTY: Boolean(process.stderr.isTTY),
  };
  process.exitCode = await runCommand(io, async () => {
    const parsed = parseEmollmStudiesArgs(process.argv.slice(2), io);
    if (parsed === 'help') return void io.stdout(HELP);
    o = parsed;
    await main();
  }, [OutputConflictError, PathError]);
}
