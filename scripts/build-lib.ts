/**
 * Builds the installable library: `tsc -p tsconfig.build.json` through the TypeScript API, emitting ES modules
 * (`.js`) and declarations (`.d.ts`) for `src/` and `workers/` into `dist/lib/` (the same tree: `dist/lib/src/…`,
 * `dist/lib/workers/…`), with one transformer applied to both outputs so that they load in Node's ES-module
 * loader as well as in bundlers:
 *
 * - a relative import written without extension (`./rng`, `../tasks/defaults`) gets the extension Node needs
 *   (`./rng/index.js` for a folder, `./env.js` for a file); the same for `export … from`, `import()` and, in
 *   declarations, `import('…')` types;
 * - a worker or asset URL `new URL('./x.ts', import.meta.url)` names the emitted `./x.js`;
 * - a JSON import (only `package.json`, which every tarball holds) is re-pointed from the emitted file to the
 *   package root and gets `with { type: 'json' }`; tsc's copy of the JSON file is not written.
 *
 * Run with `npm run build`. Exits non-zero on a type error or on a relative import that resolves to no file.
 */
import { existsSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '..');
const CONFIG = join(ROOT, 'tsconfig.build.json');

/** Unresolvable specifiers found while emitting (reported at the end). */
const problems: string[] = [];

function posix(path: string): string {
  return path.split('\\').join('/');
}

/** The emitted-file form of a relative specifier written in `sourceFile`, or undefined when it stays as is. */
function rewriteSpecifier(
  spec: string,
  sourceFile: string,
  outDir: string,
  rootDir: string,
): string | undefined {
  if (!spec.startsWith('./') && !spec.startsWith('../')) return undefined;
  const dir = dirname(sourceFile);
  const target = resolve(dir, spec);
  if (spec.endsWith('.json')) {
    if (!existsSync(target) || target !== join(ROOT, 'package.json')) {
      problems.push(`${relative(ROOT, sourceFile)}: JSON import "${spec}" is not the package's package.json`);
      return undefined;
    }
    const emitted = join(outDir, relative(rootDir, sourceFile));
    const rel = posix(relative(dirname(emitted), target));
    return rel.startsWith('.') ? rel : `./${rel}`;
  }
  if (spec.endsWith('.js')) return undefined;
  if (spec.endsWith('.ts') && existsSync(target)) return `${spec.slice(0, -3)}.js`;
  if (existsSync(`${target}.ts`)) return `${spec}.js`;
  if (existsSync(join(target, 'index.ts'))) return `${spec}/index.js`;
  problems.push(`${relative(ROOT, sourceFile)}: "${spec}" resolves to no .ts file or folder index`);
  return undefined;
}

function jsonAttributes(factory: ts.NodeFactory): ts.ImportAttributes {
  return factory.createImportAttributes(
    factory.createNodeArray([
      factory.createImportAttribute(factory.createIdentifier('type'), factory.createStringLiteral('json')),
    ]),
  );
}

function isImportMetaUrl(node: ts.Expression | undefined): boolean {
  return (
    node !== undefined &&
    ts.isPropertyAccessExpression(node) &&
    ts.isMetaProperty(node.expression) &&
    node.expression.keywordToken === ts.SyntaxKind.ImportKeyword &&
    node.name.text === 'url'
  );
}

/** The transformer (used for `.js` and `.d.ts` output alike). */
function specifierTransformer(
  outDir: string,
  rootDir: string,
): ts.TransformerFactory<ts.SourceFile | ts.Bundle> {
  return (context) => {
    const { factory } = context;
    return (root) => {
      if (!ts.isSourceFile(root)) return root;
      const fileName = root.fileName;
      const rewrite = (lit: ts.StringLiteral) => rewriteSpecifier(lit.text, fileName, outDir, rootDir);
      const visit = (node: ts.Node): ts.Node => {
        if (
          (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
          node.moduleSpecifier &&
          ts.isStringLiteral(node.moduleSpecifier)
        ) {
          const next = rewrite(node.moduleSpecifier);
          if (next === undefined) return node;
          const spec = factory.createStringLiteral(next);
          const attributes = next.endsWith('.json') ? jsonAttributes(factory) : node.attributes;
          return ts.isImportDeclaration(node)
            ? factory.updateImportDeclaration(node, node.modifiers, node.importClause, spec, attributes)
            : factory.updateExportDeclaration(
                node,
                node.modifiers,
                node.isTypeOnly,
                node.exportClause,
                spec,
                attributes,
              );
        }
        if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
          const [arg, ...rest] = node.arguments;
          const next = arg && ts.isStringLiteral(arg) ? rewrite(arg) : undefined;
          if (next !== undefined) {
            return factory.updateCallExpression(node, node.expression, node.typeArguments, [
              factory.createStringLiteral(next),
              ...rest,
            ]);
          }
        }
        if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'URL') {
          const [arg, base] = node.arguments ?? [];
          if (arg && ts.isStringLiteral(arg) && isImportMetaUrl(base)) {
            const next = rewrite(arg);
            if (next !== undefined) {
              return factory.updateNewExpression(node, node.expression, node.typeArguments, [
                factory.createStringLiteral(next),
                base as ts.Expression,
              ]);
            }
          }
        }
        if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
          const lit = node.argument.literal;
          const next = ts.isStringLiteral(lit) ? rewrite(lit) : undefined;
          if (next !== undefined) {
            return factory.updateImportTypeNode(
              node,
              factory.createLiteralTypeNode(factory.createStringLiteral(next)),
              node.attributes,
              node.qualifier,
              node.typeArguments,
              node.isTypeOf,
            );
          }
        }
        return ts.visitEachChild(node, visit, context);
      };
      return ts.visitEachChild(root, visit, context);
    };
  };
}

function main(): number {
  const host: ts.ParseConfigFileHost = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  };
  const parsed = ts.getParsedCommandLineOfConfigFile(CONFIG, {}, host);
  if (!parsed) return 1;
  const { outDir, rootDir } = parsed.options;
  if (!outDir || !rootDir) throw new Error('tsconfig.build.json needs outDir and rootDir');
  rmSync(outDir, { recursive: true, force: true });
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
  const transformer = specifierTransformer(outDir, rootDir);
  const writeFile: ts.WriteFileCallback = (file, text, bom) => {
    if (!file.endsWith('.json')) ts.sys.writeFile(file, text, bom);
  };
  const result = program.emit(undefined, writeFile, undefined, false, {
    after: [transformer as ts.TransformerFactory<ts.SourceFile>],
    afterDeclarations: [transformer],
  });
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics];
  if (diagnostics.length > 0) {
    const formatHost: ts.FormatDiagnosticsHost = {
      getCanonicalFileName: (f) => f,
      getCurrentDirectory: () => ROOT,
      getNewLine: () => '\n',
    };
    process.stderr.write(ts.formatDiagnostics(diagnostics, formatHost));
  }
  for (const p of problems) process.stderr.write(`build: ${p}\n`);
  return diagnostics.length > 0 || problems.length > 0 || result.emitSkipped ? 1 : 0;
}

process.exitCode = main();
