/**
 * No command writes its output over one of its inputs, whatever --overwrite says: an --out that is the --seeds
 * (--in, --report, --ppdpp-model, …) file — the same file by its real path, so a link to it or `./F` counts — is a
 * usage error (exit 2) before any work, and the input stays as it was. An output folder is refused when it holds an
 * input where the command writes (a run folder that --overwrite replaces, an evaluation's own files).
 */
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as simulateMain } from '../../../cli/simulate';
import { main as principlesMain } from '../../../cli/principles';
import { main as exportMain } from '../../../cli/export-chat';
import { main as evaluateMain } from '../../../cli/evaluate';
import { main as trainMain } from '../../../cli/train';
import { refuseOutputOverInputs, UsageError } from '../../../cli/options';
import { main as fitMain } from '../../../scripts/fit-sim';
import { main as cardMain } from '../../../scripts/simulator-card';
import { DATA_DIR, readData } from '../data/paths';
import { cli } from './run-main';

let dir = '';
let seeds = '';
let seedText = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pdl-out-over-input-'));
  seeds = join(dir, 'seeds.jsonl');
  seedText = readData('esconv/esconv-valid.jsonl').split('\n').slice(0, 3).join('\n') + '\n';
  await writeFile(seeds, seedText);
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The refusal every command gives, naming --out and the input's option. */
const refusal = (out: string, option: string, kind = 'file') =>
  `error: --out ${out} is the --${option} ${kind}: give another --out, the input is never overwritten\n`;

describe('an --out that is an input is refused before any work (exit 2), even with --overwrite', () => {
  it('simulate --seeds F --out F, also as ./F and through a link', async () => {
    const link = join(dir, 'link.jsonl');
    await symlink(seeds, link);
    const dotted = `./${relative(process.cwd(), seeds)}`;
    for (const out of [seeds, dotted, link]) {
      const r = await cli(simulateMain, ['--task', 'esconv', '--seeds', seeds, '--out', out, '--overwrite']);
      expect(r.code).toBe(2);
      expect(r.err).toContain(refusal(out, 'seeds'));
      expect(r.err).not.toContain('    at ');
      expect(r.out).toBe('');
    }
    expect(await readFile(seeds, 'utf8')).toBe(seedText);
  });

  it('principles build --seeds F --out F --overwrite', async () => {
    const r = await cli(principlesMain, [
      'build',
      '--task',
      'esconv',
      '--seeds',
      seeds,
      '--out',
      seeds,
      '--overwrite',
      '--episodes',
      '1',
    ]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(refusal(seeds, 'seeds'));
    expect(await readFile(seeds, 'utf8')).toBe(seedText);
  });

  it('export-chat: --out a link to --in, or --out the --seeds file', async () => {
    const run = join(dir, 'run.jsonl');
    expect((await cli(simulateMain, ['--task', 'esconv', '--seeds', seeds, '--out', run])).code).toBe(0);
    const runText = await readFile(run, 'utf8');
    const link = join(dir, 'run-link.jsonl');
    await symlink(run, link);
    const viaLink = await cli(exportMain, ['--in', run, '--out', link, '--overwrite']);
    expect(viaLink.code).toBe(2);
    expect(viaLink.err).toContain(refusal(link, 'in'));
    const overSeeds = await cli(exportMain, ['--in', run, '--seeds', seeds, '--out', seeds, '--overwrite']);
    expect(overSeeds.code).toBe(2);
    expect(overSeeds.err).toContain(refusal(seeds, 'seeds'));
    expect(await readFile(run, 'utf8')).toBe(runText);
    expect(await readFile(seeds, 'utf8')).toBe(seedText);
  });

  it('fit-sim --seeds esconv=F --out F --overwrite', async () => {
    const r = await cli(fitMain, ['--seeds', `esconv=${seeds}`, '--out', seeds, '--overwrite']);
    expect(r.code).toBe(2);
    expect(r.err).toContain(refusal(seeds, 'seeds'));
    expect(await readFile(seeds, 'utf8')).toBe(seedText);
  });

  it('sim-card --out (or --record-before --before) the --report file', async () => {
    const report = join(dir, 'validity.json');
    await writeFile(report, '{}\n');
    const card = await cli(cardMain, ['--report', report, '--out', report, '--data', join(dir, 'none')]);
    expect(card.code).toBe(2);
    expect(card.err).toContain(refusal(report, 'report'));
    const before = await cli(cardMain, ['--record-before', '--report', report, '--before', report]);
    expect(before.code).toBe(2);
    expect(before.err).toContain(
      `error: --before ${report} is the --report file: give another --before, the input is never overwritten`,
    );
    expect(await readFile(report, 'utf8')).toBe('{}\n');
  });
});

describe('an output folder that holds an input where the command writes is refused', () => {
  it('evaluate --ppdpp-model DIR/ppdpp-esconv.json --out DIR --overwrite (which clears that file)', async () => {
    const folder = join(dir, 'evaluation');
    await mkdir(folder);
    await writeFile(join(folder, 'manifest.json'), '{}\n');
    const model = join(folder, 'ppdpp-esconv.json');
    await writeFile(model, '{"a planner": true}\n');
    const r = await cli(evaluateMain, [
      '--task',
      'esconv',
      '--policy',
      'ppdpp',
      '--ppdpp-model',
      `esconv=${model}`,
      '--out',
      folder,
      '--overwrite',
    ]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      `error: --out ${folder} holds the --ppdpp-model file ${model}, where this command writes: give another --out, ` +
        'the input is never overwritten',
    );
    expect(await readFile(model, 'utf8')).toBe('{"a planner": true}\n');
  });

  it('train --seeds DIR/seeds.jsonl --out DIR --overwrite (which replaces the run folder whole)', async () => {
    const run = join(dir, 'run-folder');
    await mkdir(run);
    await writeFile(join(run, 'split.json'), '{}\n');
    const inside = join(run, 'seeds.jsonl');
    await writeFile(inside, seedText);
    const r = await cli(trainMain, ['--task', 'esconv', '--seeds', inside, '--out', run, '--overwrite']);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`--out ${run} holds the --seeds file ${inside}, where this command writes`);
    expect(await readFile(inside, 'utf8')).toBe(seedText);
  });
});

describe('refuseOutputOverInputs', () => {
  it('names the files a folder or a P4G CSV stands for; leaves alone what is no input', async () => {
    const p4g = join(DATA_DIR, 'p4g');
    const companion = join(p4g, 'p4g-participants.csv');
    // A P4G companion is read with the dialogues CSV; a dataset file of an input folder is read with the folder.
    await expect(
      refuseOutputOverInputs({ path: companion }, [{ option: 'seeds', value: join(p4g, 'p4g-dialogs.csv') }]),
    ).rejects.toThrow(`is one of the files that --seeds ${join(p4g, 'p4g-dialogs.csv')} reads`);
    await expect(
      refuseOutputOverInputs({ path: companion }, [{ option: 'seeds', value: `p4g=${p4g}` }]),
    ).rejects.toBeInstanceOf(UsageError);
    // Another file, an absent --out, bundled seeds and a folder the command does not write into pass.
    for (const out of [join(dir, 'other.jsonl'), join(dir, 'absent.jsonl')]) {
      if (out.endsWith('other.jsonl')) await writeFile(out, 'x\n');
      await expect(
        refuseOutputOverInputs({ path: out }, [
          { option: 'seeds', value: seeds },
          { option: 'seeds', value: 'bundled' },
          { option: 'fixtures', value: undefined },
        ]),
      ).resolves.toBeUndefined();
    }
    await expect(
      refuseOutputOverInputs({ path: dir, replaced: (inside) => inside === 'report.json' }, [
        { option: 'seeds', value: seeds },
      ]),
    ).resolves.toBeUndefined();
    await expect(refuseOutputOverInputs({ path: dir }, [{ option: 'seeds', value: dir }])).rejects.toThrow(
      refusal(dir, 'seeds', 'folder').slice('error: '.length, -1),
    );
  });
});
