import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Folders whose errors are all {@link LabError} subclasses (issue 12): no bare `Error`, `RangeError` or
 * `TypeError` is constructed there, so every error a public function throws carries a stable `code`. Widen the
 * list as folders are converted; the exceptions are files converted by their owners later.
 */
const LAB_ERROR_FOLDERS = [
  'src/errors',
  'src/rng',
  'src/tasks',
  'src/data',
  'src/embed',
  'src/baselines',
  'src/appraisal',
  'src/agents',
  'src/eval',
  'src/rl',
  'src/stats',
  'src/llm',
  'src/io',
  'src/store',
  'src/grpo',
  'src/features',
  'src/validity',
  'src/sim',
  'src/env',
  'src/pool',
  'src/seeding',
  'src/memory',
];
/** Files in those folders that still construct built-in errors; each is converted by the engineer who owns it. */
const LAB_ERROR_EXCEPTIONS = ['src/tasks/defaults/**', 'src/tasks/success.ts'];
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
    files: LAB_ERROR_FOLDERS.map((folder) => `${folder}/**/*.ts`),
    ignores: LAB_ERROR_EXCEPTIONS,
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: `NewExpression[callee.name=${BUILTIN_ERROR}]`, message: LAB_ERROR_MESSAGE },
        { selector: `CallExpression[callee.name=${BUILTIN_ERROR}]`, message: LAB_ERROR_MESSAGE },
      ],
    },
  },
);
