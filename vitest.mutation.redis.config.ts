import { defineConfig } from 'vitest/config';

/**
 * The tests the Redis mutation run (`npm run mutation:redis`, stryker.redis.config.json) runs
 * against each mutant: the in-process tests of test/redis/, against a real redis-server that
 * each file starts on a free port (test/redis/redis-server.ts). Left out, as in
 * vitest.mutation.config.ts: the tests that run a child process, which cannot see a mutant
 * (`cli.test.ts`, `monitor-cli-redis.test.ts`, `monitor-failover.test.ts`), and
 * `pacer-fleet.test.ts`, which starts the sandbox (its chdb engine crashes Stryker's workers).
 * They run in `npm run test:redis` as usual.
 */
export default defineConfig({
  test: {
    include: ['test/redis/**/*.test.ts'],
    exclude: [
      'test/redis/cli.test.ts',
      'test/redis/monitor-cli-redis.test.ts',
      'test/redis/monitor-failover.test.ts',
      'test/redis/pacer-fleet.test.ts',
      // Tests the test helper (a redis-server killed and restarted), none of the mutated code.
      'test/redis/redis-server.test.ts',
    ],
    // Each file starts its own redis-server (Stryker runs one file at a time anyway).
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 30_000,
    // Runs the mutated modules' import-time code outside any test (see the file).
    setupFiles: ['vitest.mutation.redis.setup.ts'],
  },
});
