// ESLint for the dashboard: typescript-eslint's strict, type-aware rules and the React hooks rules;
// formatting is Prettier's alone (eslint-config-prettier turns off the rules that would fight it).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'dist-bench/', 'node_modules/', 'src/api/generated/'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  ...tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.browser },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Template literals with numbers are how labels are built here (e.g. `${gbps} Gb/s`).
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
    },
  },
  {
    // Tests index fixtures they built themselves (a wrong index fails the test anyway), read typed
    // JSON fixtures, and use `act(async () => ...)`, React's documented way to flush promise callbacks.
    files: ['src/**/*.test.{ts,tsx}', 'src/testing/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unnecessary-type-parameters': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
  { files: ['eslint.config.js'], extends: [tseslint.configs.disableTypeChecked] },
  {
    // The browser test and benchmark are plain Node scripts driving chromium (no type project):
    // the untyped rules still apply.
    files: ['browser/**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  // Node scripts outside the TypeScript project (typed for callers by their .d.mts).
  {
    files: ['scripts/**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { ...globals.node } },
  },
  prettier,
);
