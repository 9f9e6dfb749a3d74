/**
 * The validity table and report (src/validity/metrics.ts, report.ts), the traits-only baseline, ladder files and
 * the `validate-sim` command line, on small slices of the shared datasets with few resamples.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main, parseValidateArgs } from '../../../cli/validate-sim';
import { SIMULATOR_VERSION } from '../../../src/sim';
import { rocAuc } from '../../../src/stats';
import { replayDialogues } from '../../../src/validity/datasets';

import { parseLadderFile } from '../../../src/validity/ladder';
import { COUNTER_MEASURE, validityRows } from '../../../src/validity/metrics';
import { buildValidityReport, reportMarkdown } from '../../../src/validity/report';
import { replayDialogue } from '../../../src/validity/replay';
import { crossValidated, fitPredict } from '../../../src/validity/traits';
import { jsonlHead, smallFiles } from './helpers';

describe('validity table', () => {
  it('has dev and held-out rows per measure, with intervals around the estimates and "beats" from the differences', async () => {
    const replayed = [];
    for (const d of replayDialogues(smallFiles())) replayed.push(await replayDialogue(d));
    const rows = validityRows(replayed, { resamples: 60 });
    const measures = new Set(rows.map((r) => `${r.task}/${r.measure}`));
    expect(measures).toContain("p4g/persuadee reaction — Cohen's kappa");
    expect(measures).toContain('cb/seller act — macro-F1');
    expect(measures).toContain('esconv/valence change vs seeker reply sentiment — Spearman');
    expect(rows.some((r) => r.split === 'dev')).toBe(true);
    for (const r of rows) {
      expect(r.simulator.lo).toBeLessThanOrEqual(r.simulator.hi);
      expect(r.n).toBeGreaterThanOrEqual(r.dialogues);
      for (const [name, d] of Object.entries(r.differences)) expect(r.beats.includes(name)).toBe(d.lo > 0);
      if (r.measure.includes('kappa') && r.baselines.majority) expect(r.baselines.majority.estimate).toBe(0);
    }
  });
});

describe('traits-only baseline', () => {
  it('predicts out of sample, and separates a separable outcome', () => {
    const rows = Array.from({ length: 80 }, (_, i) => ({
      id: `d${i}`,
      traits: [i % 7, (i * 13) % 5, i % 2 === 0 ? 4 : 1],
      donated: i % 2 === 0,
    }));
    const p = crossValidated(rows);
    expect(p).toHaveLength(80);
    for (const x of p) expect(x).toBeGreaterThanOrEqual(0);
    expect(
      rocAuc(
        p,
        rows.map((r) => r.donated),
      ),
    ).toBeGreaterThan(0.95);
    expect(
      fitPredict(
        rows.slice(0, 3).map((r) => ({ ...r, donated: true })),
        rows.slice(0, 2),
      ),
    ).toEqual([1, 1]);
  });
});

describe('ladder files', () => {
  const ok = {
    esconv: { levels: [{ utterances: ['Okay.'] }, { utterances: ['That sounds hard.'] }] },
    cb: {
      levels: [
        { utterances: ['Would you take ${price}?'], priceFraction: 0.6 },
        { utterances: ['I can pay {price} dollars.'], priceFraction: 0.9 },
      ],
    },
  };

  it('reads the issue’s shape', () => {
    expect(parseLadderFile(JSON.stringify(ok), 'l.json')).toEqual(ok);
  });

  it('names the file and the path of every mistake', () => {
    expect(() => parseLadderFile('{', 'l.json')).toThrow(/l\.json line 1: the JSON ends early at column 2/);
    expect(() => parseLadderFile('{\n  "cb": }', 'l.json')).toThrow(
      /l\.json line 2: not valid JSON: unexpected "}" at column 9/,
    );
    expect(() =>
      parseLadderFile(JSON.stringify({ esconv: { levels: [{ utterances: ['a'] }] } }), 'l.json'),
    ).toThrow(/l\.json: esconv\.levels/);
    const noPrice = { cb: { levels: [{ utterances: ['a'] }, { utterances: ['b'] }] } };
    expect(() => parseLadderFile(JSON.stringify(noPrice), 'l.json')).toThrow(
      /cb\.levels\[0\]\.priceFraction: CB levels need priceFraction/,
    );
    const noSlot = {
      cb: {
        levels: [
          { utterances: ['a'], priceFraction: 0.5 },
          { utterances: ['b {price}'], priceFraction: 1 },
        ],
      },
    };
    expect(() => parseLadderFile(JSON.stringify(noSlot), 'l.json')).toThrow(
      /cb\.levels\[0\]\.utterances\[0\]: CB utterances need \{price\}/,
    );
    const stray = { p4g: { levels: [{ utterances: ['a'], priceFraction: 0.5 }, { utterances: ['b'] }] } };
    expect(() => parseLadderFile(JSON.stringify(stray), 'l.json')).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'VALIDITY_INPUT' }),
    );
    expect(() => parseLadderFile(JSON.stringify({ chess: ok.esconv }), 'l.json')).toThrow(
      /chess|Unrecognized/,
    );
  });
});

describe('validity report', () => {
  it('stops at its first safe point with JOB_ABORTED when its signal is aborted, returning nothing', async () => {
    const files = smallFiles();
    const stop = new AbortController();
    stop.abort('interrupted');
    const replayed: number[] = [];
    await expect(
      buildValidityReport({
        files: { cb: files.cb ?? [] },
        doseSeeds: 2,
        checkSeeds: 0,
        exploitSeeds: 0,
        resamples: 30,
        signal: stop.signal,
        onReplayed: (done) => replayed.push(done),
      }),
    ).rejects.toMatchObject({ name: 'AbortedError', code: 'JOB_ABORTED' });
    expect(replayed).toEqual([1]); // the first dialogue, then the first safe point
    // Aborted while it runs: a timer's abort is seen at a later safe point (each at most ~0.1 s of work apart).
    const later = new AbortController();
    setTimeout(() => later.abort('interrupted'), 20);
    await expect(
      buildValidityReport({
        files: { cb: files.cb ?? [] },
        doseSeeds: 2,
        checkSeeds: 0,
        exploitSeeds: 0,
        resamples: 20_000,
        signal: later.signal,
      }),
    ).rejects.toMatchObject({ code: 'JOB_ABORTED' });
  }, 60_000);

  it('names the simulator version, runs a ladder from a file and the replay-vs-random check', async () => {
    const files = smallFiles();
    const report = await buildValidityReport({
      files: { cb: files.cb ?? [] },
      ladder: parseLadderFile(
        JSON.stringify({
          cb: {
            levels: [0.5, 0.75, 1].map((f) => ({
              utterances: ['I can offer ${price} for it.', 'How about {price}?'],
              priceFraction: f,
            })),
          },
        }),
        'l.json',
      ),
      doseSeeds: 3,
      checkSeeds: 2,
      exploitSeeds: 2,
      resamples: 30,
    });
    expect(report.simulatorVersion).toBe(SIMULATOR_VERSION);
    expect(report.dose).toHaveLength(1);
    expect(report.dose[0]).toMatchObject({ task: 'cb', ladder: 'file', seeds: 3 });
    expect(report.dose[0]?.levelMeans).toHaveLength(3);
    expect(report.policyCheck[0]?.rows.map((r) => r.policy)).toEqual(['random', 'replay']);
    // Reply variety: the seller never repeats its previous reply word for word; varied but not random text.
    const replies = report.replies[0];
    expect(replies).toMatchObject({ task: 'cb', episodes: 3, verbatimRepeats: 0 });
    expect(replies?.replies).toBeGreaterThan(3);
    expect(replies?.distinct1).toBeGreaterThan(0.05);
    expect(replies?.distinct2).toBeGreaterThan(replies?.distinct1 ?? 1);
    const md = reportMarkdown(report);
    expect(md).toContain('distinct-2');
    expect(md).toContain(SIMULATOR_VERSION);
    expect(md).toContain('| cb | dev |');
    expect(md).toContain('What success means');
    // Only the task this report holds.
    expect(md).toContain('- **cb**: ');
    expect(md).not.toMatch(/- \*\*(esconv|p4g)\*\*: /);
    expect(report.exploits?.tasks.map((t) => [t.task, t.seeds, t.rows.length])).toEqual([['cb', 2, 9]]);
    expect(md).toContain('## Exploits against the adaptive script');
  });
});

describe('validate-sim command line', () => {
  const io = () => {
    const out = { stdout: '', stderr: '' };
    return {
      out,
      io: { stdout: (s: string) => void (out.stdout += s), stderr: (s: string) => void (out.stderr += s) },
    };
  };

  it('parses [TASK=]PATH seeds and rejects bad options', () => {
    const a = parseValidateArgs(['--seeds', 'cb=x.jsonl', '--seeds', 'data/p4g', '--json']);
    expect(a).toMatchObject({
      seeds: [
        { task: 'cb', path: 'x.jsonl' },
        { task: null, path: 'data/p4g' },
      ],
      json: true,
    });
    expect(() => parseValidateArgs(['--seeds', 'chess=x.jsonl'])).toThrow(/unknown task "chess"/);
    expect(() => parseValidateArgs(['--resamples', '0'])).toThrow(
      /--resamples must be an integer in 100 to 100,000, got "0"/,
    );
    expect(() => parseValidateArgs(['--bogus'])).toThrow(
      expect.objectContaining({ name: 'UsageError', code: 'VALIDITY_INPUT' }),
    );
    expect(parseValidateArgs(['-h'])).toBe('help');
  });

  it('prints help with the success definitions, and exits 2 on a missing file', async () => {
    const h = io();
    expect(await main(['--help'], h.io)).toBe(0);
    expect(h.out.stdout).toContain('--ladder FILE');
    expect(h.out.stdout).toContain('a deal at the list price is not a success');
    const m = io();
    expect(await main(['--seeds', 'cb=/no/such/file.jsonl'], m.io)).toBe(2);
    expect(m.out.stderr).toMatch(/no such file or folder "\/no\/such\/file\.jsonl"/);
    const empty = mkdtempSync(join(tmpdir(), 'validate-sim-empty-'));
    const e = io();
    expect(await main(['--seeds', empty], e.io)).toBe(2);
    expect(e.out.stderr).toContain(`--seeds ${empty}: a folder with no dataset file`);
  });

  it('--all-held-out scores the whole given file as held-out, the CB counter-offers included', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'validate-sim-'));
    const data = join(dir, 'outside-cb.jsonl');
    writeFileSync(data, jsonlHead('cb/craigslistbargain-valid.jsonl', 40));
    const args = [
      '--seeds',
      `cb=${data}`,
      '--json',
      '--resamples',
      '100',
      '--dose-seeds',
      '2',
      '--check-seeds',
      '0',
      '--exploit-seeds',
      '3',
    ];
    const run = async (extra: string[]) => {
      const r = io();
      expect(await main([...args, ...extra], r.io)).toBe(0);
      return JSON.parse(r.out.stdout) as Awaited<ReturnType<typeof buildValidityReport>>;
    };
    const whole = await run(['--all-held-out']);
    expect(whole.split).toMatch(/every dialogue of the given files/);
    expect(whole.datasets).toEqual([
      { task: 'cb', purpose: 'turns', dev: 0, heldOut: 40, steps: expect.any(Number) },
    ]);
    expect(whole.rows.length).toBeGreaterThan(0);
    expect(whole.rows.every((x) => x.split === 'held-out')).toBe(true);
    const counter = whole.rows.find((x) => x.measure === COUNTER_MEASURE);
    expect(counter?.baselines['split the difference']).toBeDefined();
    // Every countered buyer offer of the file is scored, not only its held-out fifth.
    const split = await run([]);
    const heldOnly = split.rows.find((x) => x.measure === COUNTER_MEASURE && x.split === 'held-out');
    const devOnly = split.rows.find((x) => x.measure === COUNTER_MEASURE && x.split === 'dev');
    expect(counter?.n).toBe((heldOnly?.n ?? 0) + (devOnly?.n ?? 0));
    expect(counter?.n).toBeGreaterThan(heldOnly?.n ?? 0);
    expect(reportMarkdown(whole)).toContain('CB counter-offers: every replayed buyer turn');
    // The exploit table plays the file's first dialogues (all held-out), not the bundled seeds.
    expect(whole.exploits?.design).toMatch(/first 3 dialogues of the given files \(all held-out\)/);
    expect(whole.exploits?.tasks).toMatchObject([{ task: 'cb', seedSource: 'held-out dialogues', seeds: 3 }]);
  });

  it('--json prints the report and --out writes it as JSON and Markdown', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'validate-sim-'));
    const data = join(dir, 'esconv.jsonl');
    writeFileSync(data, jsonlHead('esconv/esconv-valid.jsonl', 6));
    const r = io();
    const code = await main(
      [
        '--seeds',
        data,
        '--json',
        '--out',
        join(dir, 'out'),
        '--resamples',
        '100',
        '--dose-seeds',
        '2',
        '--check-seeds',
        '0',
        '--no-exploits',
      ],
      r.io,
    );
    expect(r.out.stderr).not.toMatch(/error/);
    expect(code).toBe(0);
    const report = JSON.parse(r.out.stdout);
    expect(report.simulatorVersion).toBe(SIMULATOR_VERSION);
    expect(report.rows.every((x: { task: string }) => x.task === 'esconv')).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'out', 'validity.json'), 'utf8'))).toEqual(report);
    expect(readFileSync(join(dir, 'out', 'validity.md'), 'utf8')).toContain('## Dose–response');
    expect(report.exploits).toBeUndefined();
  });
});
