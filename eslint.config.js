import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'coverage/', 'node_modules/', 'test/engines/sim-types/', '.stryker-tmp*/', 'reports/', 'packages/n8n-nodes-flowblocks/dist/', 'packages/n8n-nodes-flowblocks/eslint.config.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Plain-JavaScript scripts (bench workers, examples) run on Node.
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', performance: 'readonly', Buffer: 'readonly', URL: 'readonly' } },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
);
