/**
 * `npm run train -- --algo grpo-emollm`: the GRPO train job (src/jobs/train-grpo.ts) from the command line —
 * EmoLLM's Stage II heads trained by trajectory-level GRPO on tfjs wasm (else cpu), the Stage II rewards scored
 * by the template scorers or (`--rewards llm`) by an LLM judge on the `judge` role's backend (`--backend`, as in
 * every command; built by src/grpo/language.ts as in the trainer worker). Reached through `cli/train.ts`'s
 * `--algo` switch.
 */
import {
  grpoLanguageServices,
  GrpoTrainJobConfigSchema,
  trainGrpoJob,
  type GrpoTrainJobConfigInput,
  type GrpoTrainResult,
  GrpoSettingsSchema,
  type GrpoServices,
  type PolicySummary as GrpoPolicySummary,
} from '../src/entries/training';
import { backendFor, checkRoles, type RolesConfig } from '../src/entries/models';
import { ESTIMATE_METHOD_NAMES, formatEstimate } from '../src/entries/evaluation';
import {
  TASK_IDS,
  getTask,
  findSeedSet,
  isTaskName,
  seedSetNames,
  type Seed,
  type TaskId,
  type TaskName,
} from '../src/entries/simulator';
import { DAMAGED_RUN_HINT, diskFullMessage, listenForInterrupt, TrainStoppedError } from './interrupt';
import {
  BACKEND_HELP,
  BACKEND_OPTIONS,
  cliMessage,
  SEEDS_HELP,
  SUCCESS_HELP,
  UsageError,
  bool,
  languageConfig,
  languageValues,
  seedsItems,
  seedSourceName,
  taskAndSeedSet,
  flagHelp,
  flagsFromSchema,
  flagsFromSettings,
  flagValues,
  parseArgsOptions,
  parseCommandLine,
  renamedFlags,
  refuseOutputOverInputs,
  resumeConflictUsage,
  readFixtures,
  usageFromSchema,
  runCommand,
  seedsValues,
  str,
  strs,
  type Io,
} from './options';
import { DATASET_HINTS, loadSeedsArg } from './seeds';
import { formatPercent } from './simulate';
import { FolderGrpoStorage } from '../src/entries/training-node';
import {
  AbortedError,
  CheckpointError,
  ConfigError,
  countOf,
  DiskFullError,
  hasCode,
  InputError,
  OutputConflictError,
  PathError,
} from '../src/entries/errors';

/** The job's own options (split and evaluation), generated from its schema. */
const JOB_FLAGS = flagsFromSchema(GrpoTrainJobConfigSchema.shape, [
  'evalFraction',
  'splitSeed',
  'evalRepeats',
]);

/**
 * Every GRPO setting (src/grpo/config.ts `GrpoSettingsSchema`) as a generated option of the job's `grpo` field,
 * named after its field (a reward weight `--weights-cog`, a threshold `--thresholds-simple-words`); the master
 * seed is `--rng-seed` as in every command, the ablations `--ablate`.
 */
export const GRPO_FLAGS = flagsFromSettings(GrpoSettingsSchema.shape, 'grpo', {
  names: { seed: 'rng-seed' },
  skip: ['ablations'],
});

const FLAGS = [...JOB_FLAGS, ...GRPO_FLAGS];

/** Old spellings, still read with a notice. */
const OLD_FLAGS = { groups: 'groups-per-step' };

export const GRPO_HELP = `Usage: npm run train -- --algo grpo-emollm --task TASK --out runs/NAME [options]

EmoLLM Stage II: trajectory-level GRPO of the trained heads (reasoning gate, response strategy, candidate
scorer) over the template ARG actor and reverse-perspective predictor, with the rewards of the EmoLLM paper,
Appendix A (the weights are the --weights-* options below). Every step is saved under --out; --resume continues exactly.
At the end the trained heads are evaluated against their initial weights on held-out seeds (eval.json).

Options:
  --task TASK          ${TASK_IDS.join(' | ')} (required unless --resume)
  --seed-set NAME      a named seed set of the task as the seed source: esconv's EmoLLM settings
                       ${seedSetNames('esconv').join(', ')} (the last: all four); the old
                       --task emollm-ed still works, with a notice
${SEEDS_HELP}
  --skip-invalid       skip malformed dataset records instead of stopping
${flagHelp(JOB_FLAGS, { evalFraction: 'F' })}
  --resume | --overwrite
                       continue the run in --out (refused when --task, --seeds, --rewards, --rng-seed or a
                       GRPO option given differs from the run's), or replace it
  --no-eval            skip the final evaluation
  --out DIR            run folder (required)
  --json               print the result as one JSON object
  --groups N           old name of --groups-per-step (still works, with a notice)
  -h, --help           show this help

GRPO settings (the EmoLLM paper §3.2.2, Appendix B.2; with --resume only --steps may differ: the total
to reach, not below the steps the run has done).
--rewards llm scores the Stage II rewards with an LLM judge on the judge role's backend (--backend
judge=openai|replay, see below; only the judge role is used, the other roles stay template):
${flagHelp(GRPO_FLAGS)}
  --ablate LIST        comma-separated: no-arg (never an ARG trace), no-rp (no reverse-perspective rewards)

${BACKEND_HELP}

${SUCCESS_HELP}`;

/** The parsed command line: the job's configuration and what the command does around it. */
export type GrpoArgs = GrpoTrainJobConfigInput & {
  out: string;
  json: boolean;
  skipInvalid: boolean;
  /** Backends per role (fixtures not yet loaded: see `fixtures`); only the judge's is used. */
  language: RolesConfig;
  fixtures?: string;
};

/**
 * `--seeds [TASK=]PATH|bundled` as the job's seed source: `bundled` (or, for an EmoLLM setting, the setting's
 * name), a dataset path, or `emollm-ed=PATH` for a file of EmoLLM scenarios (its setting kept, so that a resumed
 * run reads it the same way). Resuming without `--task`, a bare path is compared with the stored source as given.
 * @throws UsageError (see `seedsValues`).
 */
function seedSource(raw: string[], taskName: TaskName | undefined): string | undefined {
  const items = seedsItems(raw);
  if (items.length > 1)
    throw new UsageError(`--seeds takes one [TASK=]PATH|bundled, got ${items.join(', ')}`);
  const item = items[0];
  if (item === undefined) return taskName !== undefined && findSeedSet(taskName) ? taskName : undefined;
  const eq = item.indexOf('=');
  const named = eq > 0 && isTaskName(item.slice(0, eq)) ? (item.slice(0, eq) as TaskName) : undefined;
  const name = taskName ?? named ?? TASK_IDS[0];
  const path = seedsValues([item], [name])[name];
  if (!findSeedSet(name)) return path;
  return path === 'bundled' ? name : `${name}=${path}`;
}

/** The EmoLLM setting and path of an `emollm-ed=PATH` seed source, or null for any other source. */
function emollmSource(source: string): { name: TaskName; path: string } | null {
  const eq = source.indexOf('=');
  const name = source.slice(0, eq);
  return eq > 0 && findSeedSet(name) ? { name: name as TaskName, path: source.slice(eq + 1) } : null;
}

/** Parse the GRPO command line (`--algo grpo-emollm` already chosen). @throws UsageError. */
export function parseGrpoArgs(argv: string[], io?: Io): GrpoArgs | 'help' {
  const quiet: Io = io ?? { stdout: () => {}, stderr: () => {}, isTTY: false };
  const given = parseCommandLine(argv, {
    ...parseArgsOptions(FLAGS),
    algo: { type: 'string' },
    task: { type: 'string' },
    'seed-set': { type: 'string' },
    seeds: { type: 'string', multiple: true },
    'skip-invalid': { type: 'boolean' },
    groups: { type: 'string' },
    ablate: { type: 'string' },
    out: { type: 'string' },
    resume: { type: 'boolean' },
    overwrite: { type: 'boolean' },
    'no-eval': { type: 'boolean' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
    ...BACKEND_OPTIONS,
  });
  if (bool(given, 'help')) return 'help';
  const values = renamedFlags(given, OLD_FLAGS, quiet);
  const out = str(values, 'out');
  if (!out) throw new UsageError('--out is required (the run folder, e.g. runs/esconv-grpo)');
  const rawTask = str(values, 'task');
  if (rawTask === undefined && str(values, 'seed-set') !== undefined)
    throw new UsageError('--seed-set names a seed set of the task: give --task too');
  // The normalising edge: `--task emollm-ed` is `--task esconv --seed-set emollm-ed` (with a notice).
  const play = rawTask !== undefined ? taskAndSeedSet(rawTask, str(values, 'seed-set'), quiet) : undefined;
  const task = play?.task;
  // A named seed set is the job's seed source (its scenario seeds, or a file of them with `--seeds`).
  const taskName = play ? seedSourceName(play.task, play.seedSet) : undefined;
  const seeds = seedSource(strs(values, 'seeds'), taskName);
  const { grpo: settings, ...fields } = flagValues(FLAGS, values) as {
    grpo?: Record<string, unknown>;
  } & Record<string, unknown>;
  const ablate = str(values, 'ablate');
  const ablations = { arg: true, reversePerspective: true };
  for (const name of (ablate ?? '').split(',').filter((s) => s.trim() !== '')) {
    if (name.trim() === 'no-arg') ablations.arg = false;
    else if (name.trim() === 'no-rp') ablations.reversePerspective = false;
    else throw new UsageError(`unknown ablation "${name}"; use no-arg, no-rp`);
  }
  const rewards = settings?.rewards as 'template' | 'llm' | undefined;
  const lv = languageValues(values);
  const language = languageConfig(lv);
  const resume = bool(values, 'resume');
  const judged = backendFor(language, 'judge').kind !== 'template';
  if (rewards === 'llm' && !judged)
    throw new UsageError(
      '--rewards llm scores the rewards with an LLM judge: give the judge role a backend ' +
        '(--backend judge=openai with --base-url and --model, or --backend judge=replay with --fixtures)',
    );
  // Resuming without --rewards, the stored run says whether its judge is needed.
  if (lv.backend.length > 0 && (rewards === 'template' || (rewards === undefined && !resume)))
    throw new UsageError('--backend is only read with --rewards llm (the Stage II reward judge)');
  try {
    // Checks the roles' backends now, building none (the job builds them), to catch WebLLM outside a browser or a
    // remote URL; languageConfig has validated the config.
    checkRoles(language);
  } catch (err) {
    throw new UsageError(cliMessage(err), { cause: err });
  }
  // Only the settings given (the ablations only with --ablate): a resumed run keeps its own (others are refused).
  const grpo = { ...settings, ...(ablate !== undefined ? { ablations } : {}) };
  const config = {
    ...fields,
    ...(task ? { task: task as GrpoTrainJobConfigInput['task'] } : {}),
    ...(seeds !== undefined ? { seeds } : {}),
    grpo,
    resume,
    overwrite: bool(values, 'overwrite'),
    evaluate: !bool(values, 'no-eval'),
  };
  const parsed = GrpoTrainJobConfigSchema.safeParse(config);
  if (!parsed.success) throw usageFromSchema(parsed.error, FLAGS);
  return {
    ...(config as GrpoTrainJobConfigInput),
    out,
    json: bool(values, 'json'),
    skipInvalid: bool(values, 'skip-invalid'),
    language,
    ...(lv.fixtures !== undefined ? { fixtures: lv.fixtures } : {}),
  };
}

/** The reward judge's services from the parsed backends (fixtures read now); none without a judge backend. */
async function judgeServices(opts: GrpoArgs): Promise<GrpoServices> {
  if (backendFor(opts.language, 'judge').kind === 'template') return {};
  const language = opts.fixtures
    ? { ...opts.language, fixtures: await readFixtures(opts.fixtures) }
    : opts.language;
  return grpoLanguageServices(language);
}

/** The command-line option of each setting a resumed run compares (src/jobs/train-grpo.ts). */
const RESUME_FLAGS: Record<string, string> = {
  task: 'task',
  seeds: 'seeds',
  'grpo.ablations': 'ablate',
  ...Object.fromEntries(FLAGS.map((f) => [f.key, f.flag])),
};

const ci = (e: Parameters<typeof formatEstimate>[0]) => formatEstimate(e);

/**
 * A policy's success rates, each named as evaluate names it: on EmoLLM seeds `EmoLLM SR (%)` (the rate the run's
 * summary counts) then `Task SR` (the judge's verdict), otherwise `Task SR` alone.
 */
function successText(p: GrpoPolicySummary): string {
  return p.successMetric === 'emollm-sr'
    ? `EmoLLM SR (%) ${formatPercent(p.successRate)}  Task SR ${ci(p.judgeSuccessRate)}`
    : `Task SR ${ci(p.successRate)}`;
}

/** The human-readable report. */
export function formatGrpoReport(r: GrpoTrainResult): string {
  const last = r.steps.slice(-10);
  const avg = (f: (x: GrpoTrainResult['steps'][number]) => number) =>
    last.length ? (last.reduce((s, x) => s + f(x), 0) / last.length).toFixed(3) : 'n/a';
  const lines = [
    `${getTask(r.config.task).title} · GRPO (EmoLLM Stage II, ${r.config.rewards} rewards) · backend ${r.backend}`,
    `seeds: ${r.seeds.train} training, ${r.seeds.eval} evaluation (${r.seeds.source})`,
    `RL: ${r.steps.length}/${r.config.steps} steps (${r.outcome}); last ${last.length} steps: ` +
      `reward R(τ) ${avg((x) => x.meanReward)}, env return ${avg((x) => x.meanReturn)}, trace rate ${avg((x) => x.traceRate)}`,
  ];
  const e = r.evaluation;
  if (e) {
    lines.push(`evaluation: ${countOf(e.seeds, 'seed')} × ${countOf(e.repeats, 'episode')} [95% CI]`);
    lines.push(`  trained  return ${ci(e.trained.meanReturn)}  ${successText(e.trained)}`);
    lines.push(`  initial  return ${ci(e.initial.meanReturn)}  ${successText(e.initial)}`);
    lines.push(`  trained − initial return ${ci(e.returnDifference)}`);
    // On an EmoLLM setting: its metrics (EmoLLM paper, Evaluation), success above being its SR.
    for (const [name, s] of [
      ['trained', e.trained.emollm],
      ['initial', e.initial.emollm],
    ] as const)
      if (s)
        lines.push(
          `  ${name}  EmoLLM: ES (1–5) ${ci(s.emotionalState)}  ES gain/turn ${ci(s.gainPerTurn)}` +
            (s.empathic ? `  EA (1–5) ${ci(s.empathic)}` : '') +
            (s.factual ? `  FA % ${ci(s.factual)} (${countOf(s.factualEpisodes, 'episode')})` : ''),
        );
    lines.push(
      `  intervals: return — ${ESTIMATE_METHOD_NAMES[e.trained.meanReturn.method]}; ` +
        `success — ${ESTIMATE_METHOD_NAMES[e.trained.successRate.method]}`,
      e.trained.successMetric === 'emollm-sr'
        ? "  (EmoLLM SR: share of episodes with a turn that resolves the scenario by EmoLLM's rule, read from the " +
            "user's replies by the template scorers, in percent, as evaluate's EmoLLM SR; Task SR: the judge's " +
            `verdict by ${r.config.task}'s own rule, as evaluate's Task SR)`
        : `  (Task SR: share of episodes the judge rates successful by ${r.config.task}'s own rule, as evaluate's Task SR)`,
    );
  }
  lines.push(`files: ${r.files.join(', ')}`);
  return lines.join('\n') + '\n';
}

/**
 * Entry for `--algo grpo-emollm`: returns the exit code (0 ok, 1 failure — a damaged seed file, an LLM judge that
 * never answers validly (RoleOutputError) —, 2 usage error).
 */
export async function grpoMain(argv: string[], io: Io): Promise<number> {
  return runCommand(
    io,
    async () => {
      const opts = parseGrpoArgs(argv, io);
      if (opts === 'help') {
        io.stdout(GRPO_HELP + '\n');
        return;
      }
      const { out, json, skipInvalid, language: _language, fixtures: _fixtures, ...config } = opts;
      const loadSeeds = async (source: string, task: TaskId): Promise<Seed[]> => {
        const emollm = emollmSource(source);
        const loaded = emollm
          ? await loadSeedsArg('seeds', emollm.path, emollm.name, { skipInvalid, notice: io.stderr })
          : await loadSeedsArg('seeds', source, task, { skipInvalid, notice: io.stderr });
        for (const s of loaded.skipped) io.stderr(`skipped: ${s.file}:${s.line}: ${s.reason}\n`);
        if (loaded.warnings.length) io.stderr(`${loaded.warnings.length} dataset warnings\n`);
        return loaded.seeds;
      };
      // Never over an input: the run folder itself, or (with --overwrite, which replaces it whole) one that holds one.
      await refuseOutputOverInputs({ path: out, replaced: () => config.overwrite === true }, [
        { option: 'seeds', value: config.seeds },
      ]);
      const storage = new FolderGrpoStorage(out);
      const lock = await storage.lock();
      const interrupt = listenForInterrupt();
      let saved = 0;
      let result: GrpoTrainResult;
      try {
        result = await trainGrpoJob(config, storage, {
          loadSeeds,
          services: await judgeServices(opts),
          signal: interrupt.signal,
          onStep: (s) => {
            saved = s.step;
            if (!json)
              io.stderr(
                `step ${s.step} R ${s.meanReward.toFixed(3)} return ${s.meanReturn.toFixed(3)} ` +
                  `kl ${s.kl.toFixed(4)} (${((s.rolloutMs + s.updateMs) / 1000).toFixed(1)} s)\n`,
              );
          },
          onMessage: (t) => {
            if (!json) io.stderr(t);
          },
        });
      } catch (e) {
        if (hasCode(e, CheckpointError, 'TRAIN_RESUME_CONFLICT')) throw resumeConflictUsage(e, RESUME_FLAGS);
        if (e instanceof DiskFullError)
          throw new TrainStoppedError(
            diskFullMessage(
              e,
              saved > 0
                ? `the run in ${out} keeps its steps up to step ${saved}`
                : 'no step of this run was saved',
              saved > 0 || opts.resume === true,
            ),
            { cause: e },
          );
        throw e;
      } finally {
        interrupt.dispose();
        await lock.release();
      }
      io.stdout(json ? JSON.stringify(result) + '\n' : formatGrpoReport(result));
      if (result.outcome === 'stopped')
        throw new AbortedError(
          'JOB_ABORTED',
          `train stopped: interrupted; the steps done are saved in ${out}; run the same command again with ` +
            '--resume to continue',
        );
    },
    [
      { class: ConfigError, codes: ['JOB_CONFIG_INVALID'] },
      { class: CheckpointError, codes: ['TRAIN_RUN_INVALID', 'TRAIN_RESUME_CONFLICT'] },
      { class: OutputConflictError, codes: ['OUTPUT_CONFLICT', 'TRAIN_RUN_EXISTS'] },
      { class: PathError, codes: ['OUTPUT_PATH_INVALID'] },
      { class: InputError, codes: ['GRPO_INPUT_INVALID'] },
      { class: CheckpointError, codes: ['RUN_KIND_MISMATCH'] },
    ],
    [
      ...DATASET_HINTS,
      {
        error: { class: CheckpointError, codes: ['RUN_KIND_MISMATCH'] },
        hint: '(leave out --algo grpo-emollm for a CSTPO run)',
      },
      { error: { class: CheckpointError, codes: ['GRPO_SNAPSHOT_INVALID'] }, hint: DAMAGED_RUN_HINT },
    ],
  );
}
