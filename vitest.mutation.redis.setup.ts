/**
 * Loaded before each test file of the Redis mutation run (vitest.mutation.redis.config.ts):
 * imports every mutated module of stryker.redis.config.json, so code that runs at import
 * (regular expressions, constants) runs outside any test and Stryker sees its mutants as
 * static (left out with `ignoreStatic`), as vitest.mutation.setup.ts does for the main set.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const { mutate } = JSON.parse(readFileSync('stryker.redis.config.json', 'utf8')) as { mutate: string[] };
for (const file of mutate.filter((f) => !f.startsWith('!'))) await import(resolve(file));
