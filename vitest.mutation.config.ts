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
      // The custom API-call tools: the path checks of src/harness/define/custom-call.ts.
      'test/tools/custom/**/*.test.ts',
      'test/registry-schema.test.ts',
      // The SQL gate on a fake session (no chdb): src/satellites/sandbox/tinybird/sql-gate.ts.
      'test/sandbox/sql-gate-alone.test.ts',
      // The in-process hostile-input families: rate-limit headers and webhook abuse.
      'test/reliability/hostile-headers.test.ts',
      'test/reliability/webhook-abuse.test.ts',
    ],
    // They start the sandbox, whose engine (chdb, native) crashes the runner's worker processes (SIGSEGV).
    exclude: ['test/agents/mcp.test.ts', 'test/agents/discovery-loop.test.ts', 'test/notifications/monitor-sandbox.test.ts'],
    // Runs the mutated modules' import-time code outside any test (see the file).
    setupFiles: ['vitest.mutation.setup.ts'],
    // Not `isolate: false`: it ran each mutant 2.6 times faster (src/harness/errors.ts), but
    // code run at import (tool and schema definitions) is then covered by no test, and Stryker
    // made 1175 of the 2777 mutants static, each run against every test.
  },
});
