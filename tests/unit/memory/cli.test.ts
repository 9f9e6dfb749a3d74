import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  main,
  splitSeeds,
  UsageError,
  type BuildReport,
  type EvalReport,
  type QueryReport,
} from '../../../cli/principles';
import { HashedNgramEmbedder, type Embedder } from '../../../src/embed';
import { parseMemoryFile, PrincipleMemory } from '../../../src/memory';
import { embedder as smallEmbedder, principle } from './helpers';
import { defaultSeeds } from '../../../src/tasks/defaults';

const dir = mkdtempSync(join(tmpdir(), 'pdl-principles-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { stdout: (s) => void (out += s), stderr: (s) => void (err += s) });
  return { code, out, err };
}

describe('npm run principles', () => {
  const file = join(dir, 'm', 'esconv.json');

  it('builds a memory file and reports what it holds', async () => {
    const r = await run('build', '--task', 'esconv', '--episodes', '4', '--out', file, '--json');
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(r.out) as BuildReport;
    const { file: memory } = parseMemoryFile(readFileSync(file, 'utf8'));
    expect(memory.principles).toHaveLength(report.kept);
    expect(report.written).toBe(report.kept + report.duplicates);
    expect(report.fromRevision).toBe(report.turns.revised);
    expect(report.keptFromRevision).toBe(
      memory.principles.filter((p) => p.principle.provenance.origin === 'revision').length,
    );
    expect(Object.values(report.strategies).reduce((a, b) => a + b, 0)).toBe(report.kept);
    expect(report.turns.success + report.turns.revised).toBe(report.written);
    const before = readFileSync(file, 'utf8');
    const refused = await run('build', '--task', 'esconv', '--episodes', '4', '--out', file);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/already holds a file \(\d[\d,]* bytes\); pass --overwrite/);
    expect(readFileSync(file, 'utf8')).toBe(before);
    const text = await run(
      'build',
      '--task',
      'esconv',
      '--episodes',
      '4',
      '--out',
      file,
      '--overwrite',
      '--seed',
      '0',
    );
    expect(text.err).toMatch(/notice: --seed is now --rng-seed/);
    expect(text.out).toMatch(/principles written {3}\d+ \(from revisions \d+ = [\d.]+%\)/);
    expect(text.out).toMatch(/strategies covered {3}\d of 8 labels/);
  });

  it('queries a memory file', async () => {
    const r = await run(
      'query',
      '--memory',
      file,
      '--task',
      'esconv',
      '--text',
      'the help-seeker sounds low',
      '--k',
      '2',
      '--json',
    );
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(r.out) as QueryReport;
    expect(report.hits).toHaveLength(2);
    expect(report.hits[0]!.distance).toBeLessThanOrEqual(report.hits[1]!.distance);
    expect(report.hits[0]!.principle).toMatch(/^When .*, you should .*, because .*\.$/);
    const text = await run('query', '--memory', file, '--task', 'esconv', '--text', 'low');
    expect(text.out).toMatch(/^memory "esconv" \(\d+ principles\)/);
    // Without --task, the memory file's own task: the same hits.
    const untasked = await run(
      'query',
      '--memory',
      file,
      '--text',
      'the help-seeker sounds low',
      '--k',
      '2',
      '--json',
    );
    expect(untasked.code, untasked.err).toBe(0);
    expect((JSON.parse(untasked.out) as QueryReport).hits).toEqual(report.hits);
  });

  it('evaluates the planner against Standard with paired differences', async () => {
    const r = await run(
      'eval',
      '--task',
      'esconv',
      '--memory',
      file,
      '--episodes',
      '3',
      '--protocol',
      'ppdpp',
      '--online',
      '--json',
    );
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(r.out) as EvalReport;
    expect(report.rows.map((x) => x.policy)).toEqual([
      'standard',
      'random',
      'principles:all',
      'principles:success',
      'principles:revision',
      'principles:online',
    ]);
    // The memory variants run through the evaluate job under their registry names.
    expect(report.rows.map((x) => x.name).slice(2, 5)).toEqual([
      `principles:${file}`,
      `principles:${file}#success`,
      `principles:${file}#revision`,
    ]);
    expect(report.evaluation.config.policies).toEqual(report.rows.slice(0, 5).map((x) => x.name));
    const { file: memory } = parseMemoryFile(readFileSync(file, 'utf8'));
    expect(report.rows.map((x) => x.principles).slice(0, 5)).toEqual([
      null,
      null,
      memory.principles.length,
      memory.principles.filter((p) => p.principle.provenance.origin === 'success').length,
      memory.principles.filter((p) => p.principle.provenance.origin === 'revision').length,
    ]);
    expect(report.rows[0]!.vsStandard).toBeNull();
    for (const row of report.rows) expect(row.summary.episodes).toBe(3);
    for (const row of report.rows.slice(1)) {
      expect(row.vsStandard!.return.reference).toBe('standard');
      expect(row.vsStandard!.return.mean).toBeCloseTo(
        row.summary.meanReturn.mean - report.rows[0]!.summary.meanReturn.mean,
        9,
      );
      expect(row.vsStandard!.success.mean).toBeCloseTo(
        row.summary.successRate.mean - report.rows[0]!.summary.successRate.mean,
        9,
      );
    }
    const text = await run(
      'eval',
      '--task',
      'esconv',
      '--memory',
      file,
      '--episodes',
      '2',
      '--origins',
      'all',
    );
    expect(text.code, text.err).toBe(0);
    expect(text.out).toMatch(/^principles:all {8}\d+ +[\d.]+ /m);
    expect(text.out).toMatch(/paired difference against standard/);
    expect(text.out).toMatch(/^ {2}principles:all +return [+-][\d.]+ /m);
    expect(text.out).toMatch(/success rate: 95% Wilson score interval/);
    expect(text.out).toMatch(/mean return, avg turns: 95% case-clustered percentile bootstrap/);
  });

  it('rejects mistakes with a clear message and exit code', async () => {
    expect((await run('--help')).out).toMatch(/^Usage: npm run principles/);
    expect((await run()).code).toBe(2);
    const cases: [string[], RegExp, number][] = [
      [['--task', 'esconv'], /give a command: build, query or eval/, 2],
      [['frobnicate', '--task', 'esconv'], /unknown command "frobnicate"/, 2],
      [['build', '--task', 'nope', '--out', 'x'], /unknown task "nope"/, 2],
      [['build', '--task', 'esconv'], /--out is required/, 2],
      [
        ['build', '--task', 'esconv', '--out', 'x', '--episodes', '0'],
        /--episodes must be an integer in 1 to 100,000, got "0"/,
        2,
      ],
      [['query', '--task', 'esconv', '--memory', file], /--text is required/, 2],
      [['query', '--task', 'p4g', '--memory', file, '--text', 'x'], /is an esconv memory, not p4g/, 2],
      [
        ['query', '--task', 'esconv', '--memory', join(dir, 'missing.json'), '--text', 'x'],
        /--memory: no such file or folder: .*missing\.json/,
        2,
      ],
      [['eval', '--task', 'esconv', '--online'], /--online needs per-turn critic rewards/, 2],
      [['eval', '--task', 'esconv'], /--memory is required/, 2],
      [['eval', '--task', 'p4g', '--memory', file], /is an esconv memory, not p4g/, 2],
      [
        ['build', '--task', 'esconv', '--out', 'x', '--split', 'build'],
        /needs more than --build-size 50 seeds; there are 15/,
        2,
      ],
      [['build', '--task', 'esconv', '--bogus'], /Unknown option '--bogus'/, 2],
    ];
    for (const [argv, message, code] of cases) {
      const r = await run(...argv);
      expect(r.err, argv.join(' ')).toMatch(message);
      expect(r.code, argv.join(' ')).toBe(code);
    }
    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({
        format: 'proactive-dialogue-lab/principle-memory',
        version: 1,
        name: 'x',
        task: 'esconv',
        principles: [{}],
      }),
    );
    const r = await run('query', '--task', 'esconv', '--memory', bad, '--text', 'x');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/bad\.json is not a valid principle memory .*principles\[0\]\.principle/);
  });

  it('gives an unknown option of any command the one-line error every command gives, exit 2', async () => {
    const unknown = "error: Unknown option '--bogus'\nRun with --help for the options.\n";
    for (const argv of [
      ['query', '--bogus'],
      ['query', '--memory', file, '--text', 'x', '--bogus'],
      ['build', '--task', 'esconv', '--bogus'],
      ['eval', '--bogus', '--task', 'esconv'],
      ['--bogus', 'query'],
    ])
      expect(await run(...argv), argv.join(' ')).toEqual({ code: 2, out: '', err: unknown });
    expect((await run('query', '--memroy', file)).err).toBe(
      "error: Unknown option '--memroy' (did you mean --memory?)\nRun with --help for the options.\n",
    );
  });

  it('refuses a memory built with another embedder as a usage error naming both and --embedder', async () => {
    const hashed = new HashedNgramEmbedder();
    // A valid memory of MiniLM's id (its vectors from a stand-in), and one of a hashed embedder no option gives.
    const standIn: Embedder = {
      id: 'minilm-l6-v2:int8:mean-l2:0123456789abcdef',
      dim: hashed.dim,
      embed: (texts) => hashed.embed(texts),
    };
    const written: string[] = [];
    for (const e of [standIn, smallEmbedder]) {
      const memory = new PrincipleMemory('m', 'esconv', e);
      await memory.add([principle('the help-seeker sounds low', 'Question')]);
      written.push(join(dir, `${e.dim}-${written.length}.json`));
      writeFileSync(written.at(-1)!, JSON.stringify(memory.toFile()));
    }
    const [minilmFile, smallFile] = written as [string, string];
    for (const command of [
      ['query', '--text', 'low'],
      ['eval', '--task', 'esconv', '--episodes', '1'],
    ]) {
      const r = await run(...command, '--memory', minilmFile);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toBe(
        `error: --memory ${minilmFile} was built with embedder ${standIn.id}, and this command asked for ` +
          `--embedder hashed (${hashed.id}): pass --embedder minilm to load it with the embedder it was built ` +
          'with, or rebuild the memory with npm run principles -- build … --embedder hashed\n' +
          'Run with --help for the options.\n',
      );
    }
    const small = await run('query', '--text', 'low', '--memory', smallFile);
    expect(small.code).toBe(2);
    expect(small.err).toContain(
      `was built with embedder ${smallEmbedder.id}, and this command asked for --embedder hashed ` +
        `(${hashed.id}): no --embedder value gives that embedder; rebuild the memory with`,
    );
  });

  it('splits seeds deterministically into disjoint build and eval parts', () => {
    const seeds = defaultSeeds('p4g');
    const a = splitSeeds(seeds, 5, 7);
    expect(splitSeeds(seeds, 5, 7)).toEqual(a);
    expect(a.build).toHaveLength(5);
    expect(a.eval).toHaveLength(seeds.length - 5);
    expect(new Set([...a.build, ...a.eval].map((s) => s.id)).size).toBe(seeds.length);
    expect(splitSeeds(seeds, 5, 8).build.map((s) => s.id)).not.toEqual(a.build.map((s) => s.id));
    expect(() => splitSeeds(seeds, 15, 1)).toThrow(UsageError);
  });
});
