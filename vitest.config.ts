import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The real-redis-server tests have their own script (`npm run test:redis`).
    exclude: ['test/redis/**', '**/node_modules/**'],
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
