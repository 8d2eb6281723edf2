import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The docs' test of a small workflow, in vitest, jest and node:test, run from an app that
 * installed the packed package: `npm run test:app`, apart from `npm test` (it packs and installs).
 */
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/app/**/*.app.ts'],
    testTimeout: 180_000,
    hookTimeout: 600_000,
  },
});
