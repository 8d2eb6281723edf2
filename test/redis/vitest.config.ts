import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** The tests against a real redis-server: `npm run test:redis`, apart from `npm test` (CI runs both). */
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/redis/**/*.test.ts'],
    // Each file starts its own redis-server; the fleet tests start worker processes of their own.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
});
