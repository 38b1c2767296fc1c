// The linter: ESLint's and typescript-eslint's recommended rules (not the type-checked set, which
// would typecheck the tree a second time: `npm run typecheck` does that). Layout is Prettier's.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'viewer/dist/', '.ci/work/', 'bench/', '.exp/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      // The service refuses and strips control characters on purpose (file names, IRIs, topics, plain
      // text): every control character in a regular expression of its is meant.
      'no-control-regex': 'off',
      // A destructuring with one name reassigned later stays one `let`.
      'prefer-const': ['error', { destructuring: 'all' }],
      // `_`-prefixed names are the code's way of saying "unused on purpose" (a parameter a signature needs).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  { files: ['viewer/src/**/*.ts'], languageOptions: { globals: globals.browser } },
  {
    // A test reads an answer's JSON as a client would, and its assertions are the checks of its shape.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
