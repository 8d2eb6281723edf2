import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * Every test suite, one project each: `npm test` runs `unit` with coverage; the others need
 * something the unit suite must not (a real redis-server, Chromium, a packed tarball, a real
 * n8n) and run with `vitest run --project <name>` (CONTRIBUTING.md, "The commands"). Each
 * project's files are named apart, so `vitest run <file>` runs a file in its own project.
 */
const projects: TestProjectInlineConfiguration[] = [
  { test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/redis/**', '**/node_modules/**'] } },
  {
    test: {
      name: 'redis',
      include: ['test/redis/**/*.test.ts'],
      // Each file starts its own redis-server; the fleet tests start worker processes of their own.
      fileParallelism: false,
      testTimeout: 60_000,
      hookTimeout: 30_000,
    },
  },
  {
    test: {
      name: 'e2e',
      include: ['test/e2e/**/*.e2e.ts'],
      // One Chromium and one sandbox (chdb allows one per process) per file, one file at a time.
      fileParallelism: false,
      testTimeout: 60_000,
      hookTimeout: 120_000,
    },
  },
  // The docs' workflow test in vitest, jest and node:test, from an app that installed the packed package.
  { test: { name: 'app', include: ['test/app/**/*.app.ts'], testTimeout: 180_000, hookTimeout: 600_000 } },
  {
    test: {
      name: 'n8n',
      include: ['test/n8n/**/*.n8n.ts'],
      fileParallelism: false,
      testTimeout: 180_000,
      // A cold cache installs n8n (about 2.9 GB) before the first test.
      hookTimeout: 3_600_000,
    },
  },
];

/**
 * What Stryker (stryker.config.json) runs against each mutant: the in-process tests of the code
 * it mutates. Tests that drive a child process (the CLI, the monitor kill tests, the sandbox)
 * cannot see a mutant, which lives in this process only; they run in their own project as usual.
 * Not `isolate: false`: it ran each mutant 2.6 times faster (src/harness/errors.ts), but code run
 * at import is then covered by no test, and Stryker made 1175 of the 2777 mutants static.
 */
const mutationProjects: TestProjectInlineConfiguration[] = [
  {
    test: {
      name: 'mutation',
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
        // The n8n package's own swaps (its clock, gzip, no undici).
        'test/n8n-package/**/*.test.ts',
      ],
      // They start the sandbox, whose engine (chdb, native) crashes the runner's worker processes (SIGSEGV).
      exclude: [
        'test/agents/mcp.test.ts',
        'test/agents/mcp-http.test.ts',
        'test/agents/discovery-loop.test.ts',
        'test/agents/what-a-model-gets.test.ts',
        'test/notifications/monitor-sandbox.test.ts',
      ],
      setupFiles: ['test/mutation/setup.ts'],
    },
  },
  {
    test: {
      name: 'mutation-redis',
      // The Redis code's in-process tests, against a real redis-server each file starts.
      include: ['test/redis/**/*.test.ts'],
      exclude: [
        // They run a child process, which cannot see a mutant.
        'test/redis/cli.test.ts',
        'test/redis/monitor-cli-redis.test.ts',
        'test/redis/monitor-failover.test.ts',
        // It starts the sandbox (its chdb engine crashes Stryker's workers).
        'test/redis/pacer-fleet.test.ts',
        // Tests the test helper (a redis-server killed and restarted), none of the mutated code.
        'test/redis/redis-server.test.ts',
      ],
      fileParallelism: false,
      testTimeout: 60_000,
      hookTimeout: 30_000,
      setupFiles: ['test/mutation/setup.ts'],
    },
  },
];

// Stryker starts its test runners with STRYKER_MUTATOR_WORKER set and cannot pick a project:
// under it the mutation projects are the only ones, and elsewhere they do not exist (their files
// would otherwise run twice beside `unit`'s).
const underStryker = process.env.STRYKER_MUTATOR_WORKER !== undefined;

export default defineConfig({
  test: {
    projects: underStryker ? mutationProjects : projects,
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts', 'tools/**/*.ts'],
      // Type-only modules and the bin shim have no statements worth counting.
      exclude: ['src/**/types.ts', 'src/satellites/cli/index.ts'],
      reporter: ['text-summary', 'text'],
      // The shared harness is what every tool trusts: it stays covered.
      thresholds: { 'src/harness/**': { lines: 95 } },
    },
  },
});
