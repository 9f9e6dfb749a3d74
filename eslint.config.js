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
