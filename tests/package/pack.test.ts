/**
 * The package as people install it: `npm pack` (its `prepack` script runs `npm run build`), the
 * tarball installed into a fresh consumer project with `npm ci --offline` (see consumer.ts), and the README's
 * "Using the library" example run from it
 * - in Node, directly (the block transpiled to JavaScript, nothing else changed), and
 * - in headless Chromium, as a fresh Vite app built with `vite build` (the app also imports the whole main
 *   entry, so the bundle holds every module the entry reaches and none may import a `node:` module);
 * both must play the same episode. The README block is also type-checked against the installed declarations
 * under `moduleResolution: nodenext`, the strictest consumer setting. The package's `bin` runs through `npx`:
 * `pdl --help`, a command's stored `--help` (the same text the command computes), and `pdl simulate`, which must
 * play the same episodes as the sources do through tsx.
 *
 * Needs the npm cache that `npm ci` fills (offline install; it fails with ENOTCACHED if a tarball is missing
 * from the cache) and /usr/bin/chromium. Run: `npx vitest run --project package`.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import ts from 'typescript';
import { build, createLogger } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS } from '../browser/harness';
import { startStaticServer } from '../browser/server';
import { readme, REPO_ROOT, tsBlocks } from '../unit/package/readme';
import { writeConsumer } from './consumer';

const run = promisify(execFile);
const NAME = 'proactive-dialogue-lab';

/** The README block that uses the package's main entry. */
function usingTheLibrary(): string {
  const block = tsBlocks(readme()).find((b) => b.code.includes(`from '${NAME}'`));
  if (!block) throw new Error(`README has no ts block importing from '${NAME}'`);
  return block.code;
}

/** The subject entries (package.json "exports" besides the main entry, `/node`, `/worker` and `/workers/*`). */
const SUBJECTS = [
  'simulator',
  'policies',
  'training',
  'evaluation',
  'validity',
  'models',
  'storage',
  'errors',
  'training/node',
  'evaluation/node',
  'server',
];

/** Appended to the README block: what both runs report (the block's own variables, the entry's export count). */
const REPORT = `
import * as entry from '${NAME}';
const result = {
  exports: Object.keys(entry).length,
  firstReward: step.reward,
  firstTerminated: step.terminated,
  turns: episode.turns.map((t) => [t.action.strategy, t.action.utterance, t.userUtterance]),
  success: episode.success,
  return: episode.return,
};
`;

interface Result {
  exports: number;
  turns: [string, string, string][];
  [key: string]: unknown;
}

let work: string;
let app: string;
let files: string[];
const timings: Record<string, number> = {};

async function timed<T>(name: string, f: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await f();
  } finally {
    timings[name] = Math.round(performance.now() - t0);
  }
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'pdl-pack-'));
  app = join(work, 'consumer');
  mkdirSync(app);
  const { stdout } = await timed('npm pack (with build)', () =>
    run('npm', ['pack', '--json', '--pack-destination', work], { cwd: REPO_ROOT, maxBuffer: 64 << 20 }),
  );
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as {
    filename: string;
    files: { path: string }[];
  }[];
  if (!packed) throw new Error('npm pack reported no tarball');
  files = packed.files.map((f) => f.path);
  writeConsumer(REPO_ROOT, app, join(work, packed.filename));
  await timed('npm ci --offline', () =>
    run('npm', ['ci', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: app }).catch(
      (e: Error) => {
        if (!/ENOTCACHED/.test(String((e as { stderr?: string }).stderr ?? e.message))) throw e;
        throw new Error(
          `the npm cache lacks a dependency of the package (ENOTCACHED); this test installs offline from the cache ` +
            `that the repository's \`npm ci\` fills: run \`npm ci\` first.\n${e.message}`,
        );
      },
    ),
  );
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
  console.log(`pack test timings (ms): ${JSON.stringify(timings)}`);
});

describe('npm pack → install → README example', () => {
  let nodeResult: Result | undefined;

  it('the tarball holds the built entries, their declarations and no sources', () => {
    for (const entry of [
      'src/index',
      'src/node',
      'src/worker',
      'src/entries/simulator',
      'src/entries/training-node',
      'workers/llm.worker',
      'workers/trainer.worker',
    ]) {
      expect(files).toContain(`dist/lib/${entry}.js`);
      expect(files).toContain(`dist/lib/${entry}.d.ts`);
    }
    expect(files).toContain('package.json');
    expect(files).toContain('README.md');
    expect(files).toContain('dist/cli/pdl.js');
    expect(files).toContain('dist/cli/help/simulate.txt');
    expect(
      files.filter((f) => !/^dist\/(lib|cli)\//.test(f) && !['package.json', 'README.md'].includes(f)),
    ).toEqual([]);
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
  });

  it('Node: the README example runs from the installed package, with every entry importable', async () => {
    const js = ts.transpileModule(usingTheLibrary() + REPORT, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    writeFileSync(
      join(app, 'readme-example.mjs'),
      `${js}\nconst node = await import('${NAME}/node');\nconst worker = await import('${NAME}/worker');\n` +
        // Every subject entry loads in Node from the installed package.
        `const subjects = {};\nfor (const s of ${JSON.stringify(SUBJECTS)}) subjects[s] = Object.keys(await import('${NAME}/' + s)).length;\n` +
        // The Node worker pool from the installed package: built worker entries, no TypeScript loader.
        `const pool = (await import('${NAME}/evaluation/node')).createNodePool(2);\n` +
        `const pooled = await entry.evaluateJob({ tasks: ['cb'], policies: ['random'], episodes: 3 }, { executor: pool });\n` +
        `await pool.close();\n` +
        `console.log('RESULT ' + JSON.stringify({ ...result, node: Object.keys(node).length, worker: Object.keys(worker).length, subjects, pooled: pooled.run.ran }));\n`,
    );
    const { stdout } = await timed('node example', () => run('node', ['readme-example.mjs'], { cwd: app }));
    const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
    expect(line, stdout).toBeDefined();
    const { node, worker, subjects, pooled, ...result } = JSON.parse(
      (line as string).slice('RESULT '.length),
    ) as Result & {
      node: number;
      worker: number;
      subjects: Record<string, number>;
      pooled: number;
    };
    expect(pooled).toBe(3);
    // The main entry is the small, by-use one (60 to 80 names); each subject entry exports something.
    expect(result.exports).toBeGreaterThanOrEqual(60);
    expect(result.exports).toBeLessThanOrEqual(80);
    expect(Object.keys(subjects)).toEqual(SUBJECTS);
    for (const s of SUBJECTS) expect(subjects[s], s).toBeGreaterThan(0);
    expect(node).toBeGreaterThan(3);
    expect(worker).toBeGreaterThan(3);
    expect(result.turns.length).toBeGreaterThan(0);
    nodeResult = result;
  });

  it('bin: `npx pdl` lists the commands, prints stored help, and plays the same episodes as the sources', async () => {
    // `--`: npx would take a `--help` before the first positional as its own.
    const pdl = (args: string[]) =>
      run('npx', ['--no', '--', 'pdl', ...args], { cwd: app, maxBuffer: 16 << 20 });
    const { stdout: usage } = await timed('npx pdl --help', () => pdl(['--help']));
    for (const command of ['simulate', 'evaluate', 'train', 'principles', 'validate-sim']) {
      expect(usage).toMatch(new RegExp(`^  ${command} `, 'm'));
    }
    const { stdout: stored } = await timed('npx pdl simulate --help', () => pdl(['simulate', '--help']));
    expect(stored).toMatch(/^Usage: pdl simulate --task TASK/);
    // Not the stored text's form (one argument), so the command computes its help: both must agree.
    const { stdout: computed } = await pdl(['simulate', '--help', '--task', 'esconv']);
    expect(computed).toBe(stored);
    const args = ['simulate', '--task', 'esconv', '--episodes', '2', '--json'];
    const { stdout: installed } = await timed('npx pdl simulate', () => pdl(args));
    const { stdout: sources } = await run('npx', ['tsx', 'cli/pdl.ts', ...args], { cwd: REPO_ROOT });
    const report = JSON.parse(installed) as { episodes: number; task: string; summary: unknown };
    expect(report).toMatchObject({ task: 'esconv', episodes: 2 });
    expect(report).toEqual(JSON.parse(sources));
  });

  it('types: the README example checks against the installed declarations (nodenext), which are not `any`', () => {
    const example = join(app, 'example.ts');
    const probe = join(app, 'probe.ts');
    writeFileSync(example, usingTheLibrary());
    const probes = [
      `import { DialogueEnv } from '${NAME}';\nexport const a: number = new DialogueEnv('p4g');`,
      `import { FileRunStore } from '${NAME}/training/node';\nexport const b: number = FileRunStore;`,
      `import { createEvalWorkerApi } from '${NAME}/worker';\nexport const c: number = createEvalWorkerApi;`,
      `import type { TrainerWorkerApi } from '${NAME}/workers/trainer.worker';\nexport const d: TrainerWorkerApi = 1;`,
    ];
    writeFileSync(probe, probes.join('\n'));
    const program = ts.createProgram([example, probe], {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
      strict: true,
      noUncheckedIndexedAccess: true,
      skipLibCheck: true,
      noEmit: true,
    });
    const messages = (file: string) =>
      ts
        .getPreEmitDiagnostics(program, program.getSourceFile(file))
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(messages(example)).toEqual([]);
    const probeErrors = messages(probe);
    expect(probeErrors, probeErrors.join('\n')).toHaveLength(probes.length);
    for (const m of probeErrors) expect(m).toMatch(/is not assignable to type/);
  });

  it('browser: a fresh Vite app built with the package plays the same episode in headless Chromium', async () => {
    writeFileSync(
      join(app, 'index.html'),
      '<!doctype html>\n<script type="module" src="./main.ts"></script>\n',
    );
    writeFileSync(
      join(app, 'main.ts'),
      `${usingTheLibrary()}${REPORT}(globalThis as unknown as { readmeResult: unknown }).readmeResult = result;\n`,
    );
    const warnings: string[] = [];
    const logger = createLogger('warn');
    logger.warn = (msg) => void warnings.push(msg);
    const outDir = join(app, 'dist');
    await timed('vite build', () =>
      build({
        root: app,
        configFile: false,
        logLevel: 'warn',
        customLogger: logger,
        build: { outDir, target: 'es2022', chunkSizeWarningLimit: 100_000, reportCompressedSize: false },
      }),
    );
    expect(warnings.filter((w) => /externalized for browser compatibility|node:/.test(w))).toEqual([]);
    const bundles = readdirSync(outDir, { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.js'),
    );
    expect(bundles.length).toBeGreaterThan(0);
    for (const f of bundles) {
      expect(readFileSync(join(outDir, f), 'utf8'), f).not.toMatch(/(?:from|import)\s*\(?\s*["']node:/);
    }
    const server = await startStaticServer(outDir);
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: [...CHROMIUM_ARGS] });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${server.url}/index.html`);
      const result = await timed('chromium run', async () => {
        await page
          .waitForFunction(() => 'readmeResult' in globalThis, undefined, { timeout: 60_000 })
          .catch(() => {
            throw new Error(
              `the README example did not finish in Chromium: ${errors.join('; ') || 'no page error'}`,
            );
          });
        return page.evaluate(() => (globalThis as unknown as { readmeResult: Result }).readmeResult);
      });
      expect(errors).toEqual([]);
      expect(nodeResult, 'the Node run must pass first').toBeDefined();
      expect(result).toEqual(nodeResult);
    } finally {
      await browser.close();
      await server.close();
    }
  });
});
