import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The library's errors are all {@link LabError} subclasses (issue 12): no bare `Error`, `RangeError` or `TypeError`
 * is constructed under `src/`, so every error a public function throws carries a stable `code`. The CLIs, benches
 * and tests are outside the rule.
 */
const BUILTIN_ERROR = '/^(Error|RangeError|TypeError)$/';
const LAB_ERROR_MESSAGE =
  'throw one of the LabError classes of src/errors (with its stable code) instead of a built-in error';

/**
 * The repository's own users of the library (the command line, the app, the worker entries, benchmarks,
 * experiments and scripts) import it through the package's entries only, as an installed package's user would
 * (issue 27): `src/index.ts` (the main entry), `src/node.ts`, `src/worker.ts` or a subject entry
 * `src/entries/NAME.ts` (package.json "exports"). A deep import (`../src/sim/rules`) fails; what it needs is
 * added to the entry of its subject, so the API report shows it. `\x2f` is `/` (esquery's regex literals cannot
 * hold one). Static imports and re-exports through `no-restricted-imports`, `import()` through a selector.
 */
const DEEP_IMPORT = '^(\\.\\.\\x2f)+src\\x2f(?!(index|node|worker)$|entries\\x2f[\\w-]+$)';
const DEEP_IMPORT_MESSAGE =
  "import the library through its entries (src/index, src/node, src/worker, src/entries/NAME), not a module inside src/: add the name to its subject's entry";

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'runs', 'reports', 'memories', 'coverage', 'scratch'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Type-checked promise rules (issue 27): a promise dropped, passed where a plain value is expected (a
    // callback whose result is ignored), or awaited where nothing is a promise. These three only: the whole
    // `recommendedTypeChecked` set reports about 300 findings here, mostly style (require-await,
    // no-unnecessary-type-assertion) and `JSON.parse` results in tests, at no extra type-checking cost once
    // these run; the type information is what costs (eslint's CPU time about ×4).
    // tsconfig.json's files (so not, for example, the README's code blocks that tests lint as virtual files).
    files: [
      '{src,workers,demo,tests,cli,bench,scripts,experiments}/**/*.ts',
      'vite.config.ts',
      'vitest.config.ts',
    ],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    files: ['{cli,demo,workers,bench,experiments,scripts}/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: DEEP_IMPORT, message: DEEP_IMPORT_MESSAGE }] },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: `ImportExpression[source.value=/${DEEP_IMPORT}/]`, message: DEEP_IMPORT_MESSAGE },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: `NewExpression[callee.name=${BUILTIN_ERROR}]`, message: LAB_ERROR_MESSAGE },
        { selector: `CallExpression[callee.name=${BUILTIN_ERROR}]`, message: LAB_ERROR_MESSAGE },
      ],
    },
  },
);
