/**
 * `npm run train -- --algo grpo-emollm`: the GRPO train job (src/jobs/train-grpo.ts) from the command line —
 * EmoLLM's Stage II heads trained by trajectory-level GRPO in template mode on tfjs wasm (else cpu). Reached
 * through `cli/train.ts`'s `--algo` switch.
 */
import { OutputConflictError, OutputPathError } from '../src/io';
import { GrpoInputError, GrpoSnapshotError } from '../src/grpo/errors';
import { FolderGrpoStorage } from '../src/grpo/node';
import { JobConfigError, TrainRunError } from '../src/jobs/errors';
import { trainGrpoJob, type GrpoTrainJobConfigInput, type GrpoTrainResult } from '../src/jobs/train-grpo';
import { ESTIMATE_METHOD_NAMES, formatEstimate } from '../src/stats';
import { EMOLLM_TASK_NAMES, TASK_IDS, getTask, isEmollmTaskName } from '../src/tasks';
import { SUCCESS_HELP, UsageError, bool, parseCommandLine, runCommand, str, type Io } from './options';

export const GRPO_HELP = `Usage: npm run train -- --algo grpo-emollm --task TASK --out runs/NAME [options]

EmoLLM Stage II: trajectory-level GRPO of the trained heads (reasoning gate, response strategy, candidate
scorer) over the template ARG actor and reverse-perspective predictor, rewards of emollm.txt appendix A
(src/grpo/config.ts documents the weights). Every step is saved under --out; --resume continues exactly.
At the end the trained heads are evaluated against their initial weights on held-out seeds (eval.json).

Options:
  --task TASK          ${TASK_IDS.join(' | ')}, or an EmoLLM setting (${EMOLLM_TASK_NAMES.join(' | ')}: its
                       scenario seeds, played as the esconv family) (required unless --resume)
  --steps N            RL steps (default 50)
  --group-size G       trajectories per group (default 4)
  --groups N           groups (scenarios) per step (default 2)
  --horizon N          turns per episode (default 8)
  --depth N            lookahead depth n (default 3)
  --ablate LIST        comma-separated: no-arg (never an ARG trace), no-rp (no reverse-perspective rewards)
  --eval-repeats N     episodes per evaluation seed (default 2)
  --rng-seed N         master random seed (default 0)
  --resume | --overwrite
  --no-eval            skip the final evaluation
  --out DIR            run folder (required)
  --json               print the result as one JSON object
  -h, --help           show this help

${SUCCESS_HELP}`;

const NUMBERS = {
  steps: 'steps',
  'group-size': 'groupSize',
  groups: 'groupsPerStep',
  horizon: 'horizon',
  depth: 'depth',
  'eval-repeats': 'evalRepeats',
  'rng-seed': 'rngSeed',
} as const;

/** Parse the GRPO command line (`--algo grpo-emollm` already chosen). @throws UsageError. */
export function parseGrpoArgs(
  argv: string[],
): (GrpoTrainJobConfigInput & { out: string; json: boolean }) | 'help' {
  const values = parseCommandLine(argv, {
    algo: { type: 'string' },
    task: { type: 'string' },
    ablate: { type: 'string' },
    out: { type: 'string' },
    resume: { type: 'boolean' },
    overwrite: { type: 'boolean' },
    'no-eval': { type: 'boolean' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
    ...Object.fromEntries(Object.keys(NUMBERS).map((k) => [k, { type: 'string' as const }])),
  });
  if (bool(values, 'help')) return 'help';
  const out = str(values, 'out');
  if (!out) throw new UsageError('--out is required (the run folder, e.g. runs/esconv-grpo)');
  const taskName = str(values, 'task');
  const taskNames: readonly string[] = [...TASK_IDS, ...EMOLLM_TASK_NAMES];
  if (taskName !== undefined && !taskNames.includes(taskName))
    throw new UsageError(`unknown task "${taskName}"; use ${taskNames.join(', ')}`);
  // An EmoLLM setting trains on its scenario seeds, which are ESConv-family seeds (src/tasks/emollm.ts).
  const emollm = taskName !== undefined && isEmollmTaskName(taskName);
  const task = emollm ? 'esconv' : taskName;
  const num: Record<string, number> = {};
  for (const [flag, key] of Object.entries(NUMBERS)) {
    const v = str(values, flag);
    if (v === undefined) continue;
    if (!/^\d+$/.test(v)) throw new UsageError(`--${flag} must be a non-negative integer, got "${v}"`);
    num[key] = Number(v);
  }
  const ablations = { arg: true, reversePerspective: true };
  for (const name of (str(values, 'ablate') ?? '').split(',').filter((s) => s.trim() !== '')) {
    if (name.trim() === 'no-arg') ablations.arg = false;
    else if (name.trim() === 'no-rp') ablations.reversePerspective = false;
    else throw new UsageError(`unknown ablation "${name}"; use no-arg, no-rp`);
  }
  const { groupSize, groupsPerStep, horizon, depth, steps, evalRepeats, rngSeed } = num;
  const grpo = {
    ablations,
    ...(groupSize !== undefined ? { groupSize } : {}),
    ...(groupsPerStep !== undefined ? { groupsPerStep } : {}),
    ...(horizon !== undefined ? { horizon } : {}),
    ...(depth !== undefined ? { depth } : {}),
  };
  return {
    ...(task ? { task: task as GrpoTrainJobConfigInput['task'] } : {}),
    ...(emollm ? { seeds: taskName } : {}),
    ...(steps !== undefined ? { steps } : {}),
    ...(evalRepeats !== undefined ? { evalRepeats } : {}),
    ...(rngSeed !== undefined ? { rngSeed } : {}),
    grpo,
    resume: bool(values, 'resume'),
    overwrite: bool(values, 'overwrite'),
    evaluate: !bool(values, 'no-eval'),
    out,
    json: bool(values, 'json'),
  };
}

const ci = (e: Parameters<typeof formatEstimate>[0]) => formatEstimate(e);

/** The human-readable report. */
export function formatGrpoReport(r: GrpoTrainResult): string {
  const last = r.steps.slice(-10);
  const avg = (f: (x: GrpoTrainResult['steps'][number]) => number) =>
    last.length ? (last.reduce((s, x) => s + f(x), 0) / last.length).toFixed(3) : 'n/a';
  const lines = [
    `${getTask(r.config.task).title} · GRPO (EmoLLM Stage II) · backend ${r.backend}`,
    `seeds: ${r.seeds.train} training, ${r.seeds.eval} evaluation (${r.seeds.source})`,
    `RL: ${r.steps.length}/${r.config.steps} steps (${r.outcome}); last ${last.length} steps: ` +
      `reward R(τ) ${avg((x) => x.meanReward)}, env return ${avg((x) => x.meanReturn)}, trace rate ${avg((x) => x.traceRate)}`,
  ];
  const e = r.evaluation;
  if (e) {
    lines.push(`evaluation: ${e.seeds} seeds × ${e.repeats} episodes [95% CI]`);
    lines.push(`  trained  return ${ci(e.trained.meanReturn)}  success ${ci(e.trained.successRate)}`);
    lines.push(`  initial  return ${ci(e.initial.meanReturn)}  success ${ci(e.initial.successRate)}`);
    lines.push(`  trained − initial return ${ci(e.returnDifference)}`);
    lines.push(
      `  intervals: return — ${ESTIMATE_METHOD_NAMES[e.trained.meanReturn.method]}; ` +
        `success — ${ESTIMATE_METHOD_NAMES[e.trained.successRate.method]}`,
    );
  }
  lines.push(`files: ${r.files.join(', ')}`);
  return lines.join('\n') + '\n';
}

/** Entry for `--algo grpo-emollm`: returns the exit code (0 ok, 1 failure, 2 usage error). */
export async function grpoMain(argv: string[], io: Io): Promise<number> {
  return runCommand(io, async () => {
    const opts = parseGrpoArgs(argv);
    if (opts === 'help') {
      io.stdout(GRPO_HELP + '\n');
      return;
    }
    const { out, json, ...config } = opts;
    const result = await trainGrpoJob(config, new FolderGrpoStorage(out), {
      onStep: (s) => {
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
    io.stdout(json ? JSON.stringify(result) + '\n' : formatGrpoReport(result));
  }, [
    JobConfigError,
    TrainRunError,
    OutputConflictError,
    OutputPathError,
    GrpoInputError,
    GrpoSnapshotError,
  ]);
}
