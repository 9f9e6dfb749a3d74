import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The library's errors are all {@link LabError} subclasses (issue 12): no bare `Error`, `RangeError` or `TypeError`
 * is constructed under `src/`, so every error a public function throws carries a stable `code`. The CLIs, benches
 * and tests are outside the rule.
 */
const BUILTIN_ERROR = '/^(Error|RangeError|TypeError)$/';
const LAB_ERROR_MESSAGE = "throw the folder's LabError subclass (its errors.ts) instead of a built-in error";

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
