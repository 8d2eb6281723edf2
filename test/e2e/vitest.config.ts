import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** The browser tests: `npm run test:e2e`, apart from `npm test` so that one stays fast. */
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    // One Chromium and one sandbox (chdb allows one per process) per file, one file at a time.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
