import { defineConfig } from 'vitest/config';

/**
 * The tests the mutation check (`npm run mutation`, stryker.config.json) runs against each
 * mutant: the in-process tests of the code it mutates. Tests that drive a child process (the
 * CLI, the monitor kill tests, the sandbox) cannot see a mutant, which lives in this process
 * only, and the end-to-end families run in `npm test` as usual.
 */
export default defineConfig({
  test: {
    include: [
      'test/harness/**/*.test.ts',
      'test/webhooks/**/*.test.ts',
      'test/agents/**/*.test.ts',
      'test/notifications/**/*.test.ts',
      'test/tools/tinybird/**/*.test.ts',
      'test/registry-schema.test.ts',
      // The in-process hostile-input families: rate-limit headers and webhook abuse.
      'test/reliability/hostile-headers.test.ts',
      'test/reliability/webhook-abuse.test.ts',
    ],
    // Starts the sandbox, whose engine (chdb, native) crashes the runner's worker threads.
    exclude: ['test/agents/mcp.test.ts'],
    // One module graph per worker, not per test file: the mutation run re-runs the covering
    // files of every mutant, and re-importing the harness for each made it 2.6 times slower
    // (src/harness/errors.ts: 269 s against 103 s, the same 111 mutants and results).
    isolate: false,
  },
});
