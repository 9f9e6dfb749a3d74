/**
 * Re-runs the studies of issue 9 on the current simulator, small enough for a shared two-core machine:
 *
 * - the CSTPO table with its ablations (CSTPO paper §5): full CSTPO, w/o cognitive state (`no-cog`), V-only critic
 *   (`v-only`) and no branching at an equal number of environment returns (`no-branch`), each trained from the
 *   same SFT initialisation and split, and evaluated on the held-out seeds against SFT and random;
 * - Principles vs Standard (Principles paper): a memory built by self-play with backtracking, then the planner
 *   against the Standard policy on the same seeds.
 *
 * Every figure is a mean with a 95% interval as the CLIs report it (cluster bootstrap over seeds; Wilson for
 * success rates). Runs go one after another through the project's own CLIs (`train`, `principles`), so the table
 * is what a researcher gets from those commands. Nothing here is tuned to the papers' numbers.
 *
 * Usage: npm run studies -- [--tasks esconv,p4g,cb] [--steps 20] [--seeds-per-step 4] [--sft-epochs 100]
 *        [--eval-repeats 4] [--principles-episodes 20] [--rng-seed 0] [--out results/studies] [--overwrite]
 * Writes <out>/studies.json and <out>/studies.md (and the runs under <out>/runs, memories under <out>/memories).
 * `--out` is checked before any work: a new or empty folder, or an earlier studies folder (one holding
 * studies.json) with `--overwrite`, which also lets the runs and memories in it be replaced; anything else exits 2.
 */
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { OutputConflictError, OutputPathError } from '../src/io';
import { assertOutputAvailable, writeFileAtomic } from '../src/io/node';

const run = promisify(execFile);

const { values } = parseArgs({
  options: {
    tasks: { type: 'string', default: 'esconv,p4g,cb' },
    steps: { type: 'string', default: '20' },
    'seeds-per-step': { type: 'string', default: '4' },
    'sft-epochs': { type: 'string', default: '100' },
    'eval-repeats': { type: 'string', default: '4' },
    'principles-episodes': { type: 'string', default: '20' },
    'rng-seed': { type: 'string', default: '0' },
    out: { type: 'string', default: 'results/studies' },
    overwrite: { type: 'boolean', default: false },
  },
});

interface Interval {
  mean: number;
  lo: number | null;
  hi: number | null;
}

const VARIANTS = [
  { name: 'CSTPO', ablate: null },
  { name: 'w/o Cog-State', ablate: 'no-cog' },
  { name: 'V-only critic', ablate: 'v-only' },
  { name: 'no branching (equal returns)', ablate: 'no-branch' },
] as const;

/** The JSON object a CLI printed with --json (the last top-level object of its stdout). */
function lastJson(stdout: string): Record<string, unknown> {
  const start = stdout.indexOf('\n{');
  return JSON.parse(stdout.startsWith('{') ? stdout : stdout.slice(start + 1)) as Record<string, unknown>;
}

async function tsx(args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run('npx', ['tsx', ...args], { maxBuffer: 256 * 1024 * 1024 });
  return lastJson(stdout);
}

/** A mean with its interval; a CLI gives no interval (null bounds) where the resamples cannot make one. */
const fmt = (e: Interval | undefined) =>
  !e
    ? '—'
    : e.lo === null || e.hi === null
      ? `${e.mean.toFixed(3)} (no interval)`
      : `${e.mean.toFixed(3)} [${e.lo.toFixed(3)}, ${e.hi.toFixed(3)}]`;

type Summary = { successRate: Interval; meanReturn: Interval; avgTurnsAll: Interval };

async function main(): Promise<void> {
  const out = values.out as string;
  const overwrite = values.overwrite === true;
  await assertOutputAvailable(out, { kind: 'dir', ownerMarker: 'studies.json', overwrite });
  const replace = overwrite ? ['--overwrite'] : [];
  await mkdir(join(out, 'runs'), { recursive: true });
  await mkdir(join(out, 'memories'), { recursive: true });
  const tasks = (values.tasks as string).split(',');
  const results: Record<string, unknown>[] = [];
  const md: string[] = [];
  let version = '';
  for (const task of tasks) {
    md.push(
      `\n## ${task}: CSTPO and ablations (held-out seeds; mean terminal return, success rate, turns)\n`,
    );
    md.push('| variant | return | success | turns | vs SFT (return) | vs random (return) |');
    md.push('|---|---|---|---|---|---|');
    let baselines: Record<string, Summary> = {};
    for (const v of VARIANTS) {
      const dir = join(out, 'runs', `${task}-${v.ablate ?? 'full'}`);
      const started = Date.now();
      const r = await tsx([
        'cli/train.ts',
        '--task',
        task,
        '--steps',
        values.steps as string,
        '--seeds-per-step',
        values['seeds-per-step'] as string,
        '--sft-epochs',
        values['sft-epochs'] as string,
        '--eval-repeats',
        values['eval-repeats'] as string,
        '--rng-seed',
        values['rng-seed'] as string,
        ...(v.ablate ? ['--ablate', v.ablate] : []),
        '--out',
        dir,
        ...replace,
        '--json',
      ]);
      version = String(r.simulatorVersion);
      const ev = r.evaluation as {
        policies: Record<string, { summary: Summary }>;
        differences: { vsSft: Interval; vsRandom: Interval };
      };
      const s = ev.policies.cstpo?.summary as Summary;
      baselines = {
        SFT: ev.policies.sft?.summary as Summary,
        random: ev.policies.random?.summary as Summary,
      };
      results.push({ study: 'cstpo', task, variant: v.name, summary: s, differences: ev.differences });
      md.push(
        `| ${v.name} | ${fmt(s.meanReturn)} | ${fmt(s.successRate)} | ${fmt(s.avgTurnsAll)} | ${fmt(ev.differences.vsSft)} | ${fmt(ev.differences.vsRandom)} |`,
      );
      process.stderr.write(`${task} ${v.name}: ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
    }
    for (const [name, s] of Object.entries(baselines))
      if (s)
        md.push(
          `| ${name} (reference) | ${fmt(s.meanReturn)} | ${fmt(s.successRate)} | ${fmt(s.avgTurnsAll)} | | |`,
        );

    const memory = join(out, 'memories', `${task}.json`);
    const started = Date.now();
    await tsx([
      'cli/principles.ts',
      'build',
      '--task',
      task,
      '--episodes',
      values['principles-episodes'] as string,
      '--rng-seed',
      values['rng-seed'] as string,
      '--out',
      memory,
      ...replace,
      '--json',
    ]);
    const p = await tsx([
      'cli/principles.ts',
      'eval',
      '--task',
      task,
      '--memory',
      memory,
      '--origins',
      'all',
      '--rng-seed',
      values['rng-seed'] as string,
      '--json',
    ]);
    results.push({ study: 'principles', task, report: p });
    md.push(`\n## ${task}: Principles vs Standard\n`);
    md.push('| policy | return | success | turns | vs Standard (return) |');
    md.push('|---|---|---|---|---|');
    const rows = (p.rows ?? []) as {
      policy: string;
      summary: Summary;
      vsStandard: { return: Interval } | null;
    }[];
    for (const row of rows)
      md.push(
        `| ${row.policy} | ${fmt(row.summary.meanReturn)} | ${fmt(row.summary.successRate)} | ${fmt(row.summary.avgTurnsAll)} | ${fmt(row.vsStandard?.return)} |`,
      );
    process.stderr.write(`${task} principles: ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  }
  const head = [
    `# Studies on simulator ${version}`,
    '',
    `Command: npm run studies -- --tasks ${values.tasks} --steps ${values.steps} --seeds-per-step ${values['seeds-per-step']} --sft-epochs ${values['sft-epochs']} --eval-repeats ${values['eval-repeats']} --principles-episodes ${values['principles-episodes']} --rng-seed ${values['rng-seed']}`,
    '',
    'Intervals: 95%, cluster bootstrap over seeds (Wilson for success rates), as the CLIs report them.',
  ];
  await writeFileAtomic(join(out, 'studies.md'), [...head, ...md, ''].join('\n'));
  await writeFileAtomic(
    join(out, 'studies.json'),
    JSON.stringify({ simulatorVersion: version, options: values, results }, null, 1),
  );
  process.stdout.write([...head, ...md, ''].join('\n'));
}

try {
  await main();
} catch (err) {
  if (!(err instanceof OutputConflictError || err instanceof OutputPathError)) throw err;
  process.stderr.write(`error: ${err.message}\n`);
  process.exitCode = 2;
}
