/**
 * Findings of a fresh user trying the README (one block per finding, each failing before its fix): the built bin
 * finds the shared datasets like `npm run validate-sim`, export-chat refuses to overwrite its input and says what
 * it dropped or why a file is not a trajectory file, wrong-task seed files name their task, simulate --resume
 * names the option that differs, serve names a taken port and why a ladder file cannot be read, and help/usage
 * texts speak of what an installed package has.
 */
import { appendFile, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as pdlMain } from '../../../cli/dispatch';
import { main as exportMain } from '../../../cli/export-chat';
import { main as evaluateMain } from '../../../cli/evaluate';
import { main as principlesMain } from '../../../cli/principles';
import { main as serveMain } from '../../../cli/serve';
import { HELP as SIMULATE_HELP, main as simulateMain } from '../../../cli/simulate';
import { main as trainMain } from '../../../cli/train';
import { dataFolderBeside, main as validateMain } from '../../../cli/validate-sim';
import { cli, type Main } from './run-main';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pdl-fresh-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const ESCONV = '../shared/data/esconv/esconv-valid.jsonl';
const CB = '../shared/data/cb/craigslistbargain-valid.jsonl';

describe('export-chat (findings 3, 4, 5, 7)', () => {
  let runFile = '';
  beforeAll(async () => {
    runFile = join(dir, 'run.jsonl');
    const r = await cli(simulateMain, ['--task', 'cb', '--episodes', '2', '--out', runFile]);
    expect(r.code, r.err).toBe(0);
  });

  it('refuses to write over its own input, even with --overwrite (exit 2), and leaves it whole', async () => {
    const before = await readFile(runFile, 'utf8');
    const r = await cli(exportMain, ['--in', runFile, '--out', runFile, '--overwrite']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('is the --in file');
    expect(await readFile(runFile, 'utf8')).toBe(before);
  });

  it('says it dropped a last episode cut short, exports the rest and leaves the input as it was', async () => {
    const torn = join(dir, 'torn.jsonl');
    const whole = await readFile(runFile, 'utf8');
    await writeFile(torn, whole);
    await appendFile(torn, whole.split('\n')[0]!.slice(0, 80));
    const out = join(dir, 'torn.chat.jsonl');
    const r = await cli(exportMain, ['--in', torn, '--out', out]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/notice: .*torn\.jsonl:3: dropped an episode cut short \(80 bytes/);
    expect(r.out).toContain('2 chat rows');
    expect((await readFile(torn, 'utf8')).length).toBe(whole.length + 80);
  });

  it('a damaged line after the first is a data error (exit 1) naming file:line; nothing is written', async () => {
    const damaged = join(dir, 'damaged.jsonl');
    const [first, second] = (await readFile(runFile, 'utf8')).split('\n');
    await writeFile(damaged, `${first}\n{"seedId": 3\n${second}\n`);
    const out = join(dir, 'damaged.chat.jsonl');
    const r = await cli(exportMain, ['--in', damaged, '--out', out]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${damaged}:2: not JSON; the file is damaged (nothing was exported)`);
    await writeFile(damaged, `${first}\n{"seedId": 3}\n`);
    const shape = await cli(exportMain, ['--in', damaged, '--out', out]);
    expect(shape.code).toBe(1);
    expect(shape.err).toMatch(/damaged\.jsonl:2: not an episode \(/);
    expect(existsSync(out)).toBe(false);
  });

  it('a seed missing from the seeds given says to pass the same --seeds as the run', async () => {
    const run = join(dir, 'esconv-run.jsonl');
    const s = await cli(simulateMain, [
      '--task',
      'esconv',
      '--seeds',
      ESCONV,
      '--episodes',
      '1',
      '--out',
      run,
    ]);
    expect(s.code, s.err).toBe(0);
    const r = await cli(exportMain, ['--in', run, '--out', join(dir, 'esconv.chat.jsonl')]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('pass the same --seeds (and --task, --seed-set) as the run');
    const ok = await cli(exportMain, [
      '--in',
      run,
      '--seeds',
      ESCONV,
      '--out',
      join(dir, 'esconv.chat.jsonl'),
    ]);
    expect(ok.code, ok.err).toBe(0);
  });

  it('a dataset file or a memory file as --in is "not a trajectory file", saying what it is', async () => {
    const dataset = await cli(exportMain, ['--in', ESCONV, '--out', join(dir, 'd.chat.jsonl')]);
    expect(dataset.code).toBe(2);
    expect(dataset.err).toContain('is not a trajectory file (line 1: an ESConv dialogue of a dataset file');
    const memory = join(dir, 'memory.json');
    await writeFile(
      memory,
      JSON.stringify(
        { format: 'proactive-dialogue-lab/principle-memory', version: 1, principles: [] },
        null,
        2,
      ),
    );
    const m = await cli(exportMain, ['--in', memory, '--out', join(dir, 'm.chat.jsonl')]);
    expect(m.code).toBe(2);
    expect(m.err).toContain(
      'not a trajectory file (it is one JSON document, a proactive-dialogue-lab/principle-memory file',
    );
    const oneLine = join(dir, 'memory-one-line.json');
    await writeFile(
      oneLine,
      JSON.stringify({ format: 'proactive-dialogue-lab/principle-memory', version: 1 }),
    );
    const o = await cli(exportMain, ['--in', oneLine, '--out', join(dir, 'o.chat.jsonl')]);
    expect(o.code).toBe(2);
    expect(o.err).toContain('principle-memory file');
  });
});

describe('the default data folder (finding 2)', () => {
  it('is ../shared/data from the package root, from cli/ of the source and dist/cli/ of the built bin', async () => {
    const pkg = join(dir, 'repo');
    await mkdir(join(pkg, 'dist', 'cli', 'chunks'), { recursive: true });
    await mkdir(join(pkg, 'cli'), { recursive: true });
    await writeFile(join(pkg, 'package.json'), '{}');
    const expected = resolve(dir, 'shared', 'data');
    expect(dataFolderBeside(join(pkg, 'cli'))).toBe(expected);
    expect(dataFolderBeside(join(pkg, 'dist', 'cli'))).toBe(expected);
    expect(dataFolderBeside(join(pkg, 'dist', 'cli', 'chunks'))).toBe(expected);
  });
});

describe('serve and validate-sim --ladder (finding 14)', () => {
  it('a port in use is "port P on HOST is in use: pick another --port", exit 2', async () => {
    const taken = createServer();
    const port = await new Promise<number>((res) =>
      taken.listen(0, '127.0.0.1', () => res((taken.address() as { port: number }).port)),
    );
    try {
      const r = await cli(serveMain, ['--task', 'cb', '--port', String(port), '--host', '127.0.0.1']);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`port ${port} on 127.0.0.1 is in use: pick another --port`);
    } finally {
      await new Promise((res) => taken.close(res));
    }
  });

  it('a --ladder file that cannot be read says why', async () => {
    const missing = join(dir, 'no-ladders.json');
    const r = await cli(validateMain, ['--seeds', `esconv=${ESCONV}`, '--ladder', missing]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`cannot read "${missing}" (no such file or folder)`);
    const folder = await cli(validateMain, ['--seeds', `esconv=${ESCONV}`, '--ladder', dir]);
    expect(folder.err).toContain(`cannot read "${dir}" (it is a folder, not a file)`);
  });
});

describe('simulate --resume with other options (finding 9)', () => {
  it('exits 2 naming the option that differs, like train and evaluate', async () => {
    const out = join(dir, 'resume.jsonl');
    const first = await cli(simulateMain, ['--task', 'cb', '--episodes', '2', '--out', out]);
    expect(first.code, first.err).toBe(0);
    await rename(out, `${out}.partial`);
    const base = ['--task', 'cb', '--episodes', '3', '--out', out, '--resume'];
    const policy = await cli(simulateMain, [...base, '--policy', 'proactive']);
    expect(policy.code).toBe(2);
    expect(policy.err).toContain('--resume: the run in');
    expect(policy.err).toContain(
      'other settings: --policy (episode 1 has policy "random" where this run plays "proactive")',
    );
    const rng = await cli(simulateMain, [...base, '--rng-seed', '7']);
    expect(rng.code).toBe(2);
    expect(rng.err).toContain('other settings: --rng-seed');
    const same = await cli(simulateMain, base);
    expect(same.code, same.err).toBe(0);
  });
});

describe('usage texts (finding 16)', () => {
  it('principles without a command prints its usage to stderr and exits 2; through pdl it says `pdl principles`', async () => {
    const bare = await cli(principlesMain, []);
    expect(bare.code).toBe(2);
    expect(bare.err).toContain('Usage: npm run principles -- <command>');
    const viaPdl = await cli(pdlMain, ['principles']);
    expect(viaPdl.code).toBe(2);
    expect(viaPdl.err).toContain('Usage: pdl principles <command>');
    expect(viaPdl.out).toBe('');
  });

  it('--episodes states its range once (simulate, evaluate)', async () => {
    for (const help of [SIMULATE_HELP, (await cli(evaluateMain, ['--help'])).out]) {
      const line = help.split('\n').find((l) => l.trimStart().startsWith('--episodes'));
      expect(line).toBeDefined();
      expect(line!.match(/1,000,000/g)).toHaveLength(1);
    }
  });

  it('--episodes names the cycle by S, the number of seeds, not N (simulate, evaluate)', async () => {
    for (const help of [SIMULATE_HELP, (await cli(evaluateMain, ['--help'])).out]) {
      const flat = help.replace(/\s+/g, ' ');
      expect(flat).toContain('plays seed i mod S as its repeat ⌊i / S⌋, S being the number of seeds');
      expect(flat).not.toMatch(/mod N|\/ N⌋/);
    }
  });

  it('an unknown --backend lists the Node backends and marks the browser-only ones', async () => {
    const r = await cli(simulateMain, ['--task', 'cb', '--backend', 'foo']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('use template, openai, replay, llamacpp (webllm and wllama: browser only)');
  });
});

describe('seed files of another task (finding 8)', () => {
  it('validate-sim --seeds cb=<an ESConv file> says the file holds esconv dialogues (exit 2)', async () => {
    const r = await cli(validateMain, ['--seeds', `cb=${ESCONV}`]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`--seeds cb=${ESCONV} holds esconv dialogues, not cb`);
  });

  it('simulate --task emollm-ed --seeds <an ESConv file> says the file holds esconv dialogues (exit 2)', async () => {
    const r = await cli(simulateMain, ['--task', 'emollm-ed', '--seeds', ESCONV, '--episodes', '1']);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`--seeds ${ESCONV} holds esconv dialogues, not emollm-ed`);
  });

  it('simulate --seeds <a folder of an ESConv and a CB file> names the file of the other task (exit 2)', async () => {
    const mixed = join(dir, 'mixed');
    await mkdir(mixed);
    const head = async (file: string) =>
      (await readFile(file, 'utf8')).split('\n').slice(0, 2).join('\n') + '\n';
    await writeFile(join(mixed, 'a.jsonl'), await head(ESCONV));
    await writeFile(join(mixed, 'b.jsonl'), await head(CB));
    const esconv = await cli(simulateMain, ['--task', 'esconv', '--seeds', mixed, '--episodes', '1']);
    expect(esconv.code).toBe(2);
    expect(esconv.err).toContain(
      `--seeds ${mixed}: ${join(mixed, 'b.jsonl')} holds cb dialogues, not esconv`,
    );
    const cb = await cli(simulateMain, ['--task', 'cb', '--seeds', mixed, '--episodes', '1']);
    expect(cb.code).toBe(2);
    expect(cb.err).toContain(`--seeds ${mixed}: ${join(mixed, 'a.jsonl')} holds esconv dialogues, not cb`);
  });
});

describe('a trained cstpo policy in simulate (finding 10)', () => {
  it("prints no tfjs banner ('install tfjs-node'), as train does not", async () => {
    const run = join(dir, 'cstpo-run');
    const t = await cli(trainMain, ['--task', 'cb', '--out', run, '--steps', '1', '--no-eval', '--json']);
    expect(t.code, t.err).toBe(0);
    // A fresh process: training already put this one's tfjs in production mode.
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'cli/simulate.ts', '--task', 'cb', '--policy', `cstpo:${run}`, '--episodes', '1'],
      { encoding: 'utf8', timeout: 120_000 },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`policy cstpo:${run}`);
    expect(r.stdout + r.stderr).not.toContain('TensorFlow.js in Node.js');
  }, 120_000);
});

describe('help texts cite what an installed package has (finding 15)', () => {
  const helps: [string, Main, string[]][] = [
    ['simulate', simulateMain, ['--help']],
    ['evaluate', evaluateMain, ['--help']],
    ['train', trainMain, ['--help']],
    ['train --algo grpo-emollm', trainMain, ['--algo', 'grpo-emollm', '--help']],
    ['export-chat', exportMain, ['--help']],
    ['serve', serveMain, ['--help']],
  ];
  it.each(helps)('%s --help names no source file and no test fixture folder', async (_name, main, argv) => {
    const r = await cli(main, argv);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Usage:');
    expect(r.out).not.toMatch(/src\/[\w/-]+\.ts/);
    // The one replay example names a fixture of a checkout, saying so.
    for (const line of r.out.split('\n').filter((l) => l.includes('tests/fixtures')))
      expect(line).toContain('(a file of a repository checkout)');
  });
});
