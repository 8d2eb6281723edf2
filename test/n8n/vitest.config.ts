import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The real n8n: `npm run test:n8n`, apart from `npm test` (it installs n8n into a cache on its
 * first run, and each `n8n execute` starts a whole n8n).
 */
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/n8n/**/*.n8n.ts'],
    fileParallelism: false,
    testTimeout: 180_000,
    // A cold cache installs n8n (about 2.9 GB) before the first test.
    hookTimeout: 3_600_000,
  },
});
