/**
 * Loaded before each test file of a mutation run (vitest.mutation.config.ts): imports every
 * mutated module, so code that runs at import (schemas, regular expressions, constants) runs
 * here, outside any test. Stryker then sees its mutants as static, the same in every run;
 * without this, such a mutant counts as covered by whichever test first imported its module
 * (often one that never reaches it) and is judged by that test alone.
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const DIRS = ['src/harness', 'src/webhooks'];
const FILES = [
  'src/schema.ts',
  'src/hosts/agents/scrub.ts',
  'src/hosts/agents/options.ts',
  'src/satellites/notifications/rules.ts',
  'src/satellites/notifications/rule-engine.ts',
  'src/satellites/notifications/queue.ts',
  'src/satellites/notifications/journal.ts',
  'src/satellites/notifications/delivery-retry.ts',
  'src/satellites/notifications/lock.ts',
  'src/satellites/sandbox/tinybird/sql-gate.ts',
  'tools/tinybird/ingest/ndjson-chunker.ts',
  'tools/tinybird/events.ts',
  'tools/tinybird/ingest/events-request.ts',
  'tools/tinybird/ingest/send-chunks.ts',
  'tools/tinybird/ingest/chunk-attempts.ts',
];

const modules = [...DIRS.flatMap((dir) => readdirSync(dir).filter((name) => name.endsWith('.ts')).map((name) => join(dir, name))), ...FILES];
for (const file of modules) await import(resolve(file));
