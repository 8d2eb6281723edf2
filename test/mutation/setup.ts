/**
 * Loaded before each test file of a mutation run (the `mutation` and `mutation-redis` projects
 * of vitest.config.ts): imports every mutated module (stryker.config.json's `mutate`), so code
 * that runs at import (schemas, regular expressions, constants) runs here, outside any test.
 * Stryker then sees its mutants as static, the same in every run; without this, such a mutant
 * counts as covered by whichever test first imported its module (often one that never reaches
 * it) and is judged by that test alone.
 */
import { resolve } from 'node:path';
import { mutatedFiles } from './mutated-files.js';

for (const file of mutatedFiles()) await import(resolve(file));
