// Lint: typescript-eslint's recommended rules; `any` must carry a disable comment saying why; production
// code never imports a test helper (`*.test-support.ts`).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

/** Test helpers that live beside the code they serve are named `*.test-support.ts`; only tests import them. */
const TEST_SUPPORT = '\\.test-support(\\.[cm]?[jt]sx?)?$';
const TEST_SUPPORT_MESSAGE = 'a *.test-support file is for tests only; production code must not import it';

export default tseslint.config(
  // src/**/assembly/ holds AssemblyScript (compiled to WebAssembly by scripts/build-wasm.mjs), not TypeScript.
  { ignores: ['dist/**', 'node_modules/**', '.cache/**', 'test-results/**', 'web/dist/**', 'src/**/assembly/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  { files: ['web/src/**'], languageOptions: { globals: { ...globals.browser } } },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: ['**/*.test.{ts,tsx}', '**/*.test-support.ts', 'test/**', 'bench/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: TEST_SUPPORT, message: TEST_SUPPORT_MESSAGE }] }],
      'no-restricted-syntax': ['error', { selector: `ImportExpression[source.value=/${TEST_SUPPORT}/]`, message: TEST_SUPPORT_MESSAGE }],
    },
  },
);
