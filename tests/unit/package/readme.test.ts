/**
 * The README checked against the package: every ```ts block type-checks (the project's strict
 * tsconfig, `proactive-dialogue-lab` and its subpaths mapped to their sources) and passes ESLint, and every API
 * name the README mentions in inline code is exported by one of the package's entries. The pack test
 * (tests/package) runs the "Using the library" block for real, from the packed tarball.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { entrySources } from '../../../scripts/api-report';
import { documentedNames, importedNames, readme, REPO_ROOT, tsBlocks, type CodeBlock } from './readme';

/** Package specifier → source entry (package.json "exports", read as the API report reads it). */
const ENTRIES: Record<string, string> = Object.fromEntries(
  entrySources().filter(([spec]) => !spec.includes('/workers/')),
);

function compilerOptions(): ts.CompilerOptions {
  const config = ts.getParsedCommandLineOfConfigFile(
    resolve(REPO_ROOT, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('cannot read tsconfig.json');
  const paths: Record<string, string[]> = Object.fromEntries(
    Object.entries(ENTRIES).map(([spec, file]) => [spec, [`./${file}`]]),
  );
  paths['proactive-dialogue-lab/workers/*'] = ['./workers/*.ts'];
  return { ...config.options, noEmit: true, baseUrl: REPO_ROOT, paths };
}

/** A block to check, named by where it comes from: `README.md`, or `probe` (a test of the check itself). */
interface Checked extends CodeBlock {
  label: string;
}

const blockFile = (block: Checked) =>
  resolve(REPO_ROOT, `${block.label.replace(/\W/g, '-')}-block-line-${block.line}.ts`);

/** A program over the blocks (served from memory) and the package's entries. */
function checkBlocks(blocks: Checked[]): { program: ts.Program; errors: string[] } {
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const virtual = new Map(blocks.map((b) => [blockFile(b), b]));
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (f) => virtual.has(f) || fileExists.call(host, f);
  host.readFile = (f) => virtual.get(f)?.code ?? readFile.call(host, f);
  host.getSourceFile = (f, lang, ...rest) => {
    const block = virtual.get(f);
    return block ? ts.createSourceFile(f, block.code, lang) : getSourceFile.call(host, f, lang, ...rest);
  };
  const roots = [...virtual.keys(), ...Object.values(ENTRIES).map((f) => resolve(REPO_ROOT, f))];
  const program = ts.createProgram({ rootNames: roots, options, host });
  const errors: string[] = [];
  for (const [file, block] of virtual) {
    const source = program.getSourceFile(file);
    if (!source) throw new Error(`block at ${block.label}:${block.line} was not compiled`);
    for (const d of ts.getPreEmitDiagnostics(program, source)) {
      const { line } = source.getLineAndCharacterOfPosition(d.start ?? 0);
      errors.push(
        `${block.label}:${block.line + line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
      );
    }
  }
  return { program, errors };
}

/** Every name (values and types) exported by each entry. */
function exportedNames(program: ts.Program): Set<string> {
  const checker = program.getTypeChecker();
  const names = new Set<string>();
  for (const file of Object.values(ENTRIES)) {
    const source = program.getSourceFile(resolve(REPO_ROOT, file));
    const symbol = source && checker.getSymbolAtLocation(source);
    if (!symbol) throw new Error(`no module symbol for ${file}`);
    for (const s of checker.getExportsOfModule(symbol)) names.add(s.name);
  }
  return names;
}

describe('README code blocks and names', () => {
  const text = readme();
  const blocks = tsBlocks(text).map((b) => ({ ...b, label: 'README.md' }));
  // Probes of the check itself, compiled in the same program (one program: the sources are read once).
  const probes = [
    {
      label: 'probe',
      line: 1,
      code: "import { DialogueEnv } from 'proactive-dialogue-lab';\nconst env: number = new DialogueEnv('p4g');\nexport { env };\n",
    },
    {
      label: 'probe',
      line: 10,
      code: "import { NoSuchThing } from 'proactive-dialogue-lab';\nexport { NoSuchThing };\n",
    },
  ];
  const { program, errors: all } = checkBlocks([...blocks, ...probes]);
  const errors = all.filter((e) => e.startsWith('README.md:'));
  const found = all.filter((e) => e.startsWith('probe:'));

  it('has the "Using the library" block', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(1);
    expect(blocks.some((b) => b.code.includes("from 'proactive-dialogue-lab'"))).toBe(true);
  });

  it('every ts block type-checks against the package', () => {
    expect(errors).toEqual([]);
  });

  it('the check fails on a block with a type error or a name the package lacks', () => {
    expect(found.some((e) => e.startsWith('probe:2: ') && /not assignable to type 'number'/.test(e))).toBe(
      true,
    );
    expect(found.some((e) => e.startsWith('probe:10: ') && /NoSuchThing/.test(e))).toBe(true);
  });

  it('every ts block passes ESLint', async () => {
    const eslint = new ESLint({ cwd: REPO_ROOT });
    const problems: string[] = [];
    for (const block of blocks) {
      const [result] = await eslint.lintText(block.code, { filePath: blockFile(block) });
      for (const m of result?.messages ?? [])
        problems.push(`README.md:${block.line + m.line - 1}: ${m.ruleId}: ${m.message}`);
    }
    expect(problems).toEqual([]);
  });

  it('every API name the README mentions is exported by the package', () => {
    const exported = exportedNames(program);
    const mentioned = [
      ...documentedNames(text),
      ...blocks.flatMap((b) => importedNames(b.code).map(([, n]) => n)),
    ];
    expect(mentioned.length).toBeGreaterThan(20);
    expect(mentioned.filter((n) => !exported.has(n))).toEqual([]);
    // CSTPO is part of the public entry.
    for (const name of ['CstpoTrainer', 'TrainingSession', 'resolveConfig', 'ActorNetworks'])
      expect(exported).toContain(name);
  });

  it('every `npm run` command the README shows is a script of package.json', () => {
    const { scripts } = JSON.parse(readFileSync(resolve(REPO_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const named = [...text.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1] as string);
    expect(named.length).toBeGreaterThan(5);
    expect([...new Set(named)].filter((n) => !(n in scripts))).toEqual([]);
  });

  it('reads names from inline code, not from prose or code blocks', () => {
    const md =
      'Use `DialogueEnv` and `runEpisode()`, not `--policy`, `p4g` or `info.state`.\n```ts\nconst `Hidden` = 1;\n```\n';
    expect(documentedNames(md)).toEqual(['DialogueEnv', 'runEpisode']);
  });
});
