/**
 * The equivalent-mutant list (test/mutation/equivalent-mutants.mjs) as Stryker reads it: each
 * entry names one node that has mutants, the mutation configs load the plugin, and what is left
 * as `// Stryker disable` comments in production files is only what the list cannot say.
 */
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { Instrumenter } from '@stryker-mutator/instrumenter';
// @ts-expect-error a plain ES module Stryker loads as a plugin; its types are its JSDoc
import { EQUIVALENT_MUTANTS, matchEntry } from './equivalent-mutants.mjs';

interface Entry { file: string; code: string; in?: string; reason: string }
const entries = EQUIVALENT_MUTANTS as Entry[];

const quiet = { debug() {}, info() {}, trace() {}, warn() {}, error() {}, fatal() {}, isDebugEnabled: () => false, isTraceEnabled: () => false, isInfoEnabled: () => false, isWarnEnabled: () => false, isErrorEnabled: () => false, isFatalEnabled: () => false };

/** Instruments the files as Stryker does, with an ignorer that counts which entry each match was. */
async function instrument(files: string[]) {
  const matches = new Map<Entry, number>();
  const ignorer = {
    shouldIgnore(path: unknown) {
      const entry = matchEntry(path) as Entry | undefined;
      if (entry) matches.set(entry, (matches.get(entry) ?? 0) + 1);
      return entry && `equivalent mutant: ${entry.reason}`;
    },
  };
  const { mutants } = await new Instrumenter(quiet).instrument(
    files.map((file) => ({ name: `${process.cwd()}/${file}`, content: readFileSync(file, 'utf8'), mutate: true })),
    { plugins: null, excludedMutations: [], ignorers: [ignorer] },
  );
  return { matches, mutants };
}

describe('equivalent mutants', () => {
  // Parsing a score of files takes a few seconds on a loaded machine.
  it('each entry names exactly one node of its file, with mutants that it ignores', { timeout: 60_000 }, async () => {
    const { matches, mutants } = await instrument([...new Set(entries.map((entry) => entry.file))]);
    const problems = entries.flatMap((entry) => {
      const found = matches.get(entry) ?? 0;
      const ignored = mutants.filter((m) => m.fileName.endsWith(`/${entry.file}`) && m.statusReason === `equivalent mutant: ${entry.reason}`).length;
      return found === 1 && ignored > 0 ? [] : [`${entry.file}: ${entry.code} (nodes matched: ${found}, mutants ignored: ${ignored})`];
    });
    expect(problems).toEqual([]);
  });

  it('gives each entry its own reason, so a report names which one ignored a mutant', () => {
    const reasons = entries.map((entry) => `${entry.file} ${entry.reason}`);
    expect(new Set(reasons).size).toBe(reasons.length);
  });

  it('is loaded by the mutation config', () => {
    const { appendPlugins, ignorers } = JSON.parse(readFileSync('stryker.config.json', 'utf8')) as { appendPlugins?: string[]; ignorers?: string[] };
    expect({ appendPlugins, ignorers }).toEqual({ appendPlugins: ['./test/mutation/equivalent-mutants.mjs'], ignorers: ['equivalent-mutants'] });
  });

  it('leaves in production files only comments that spare some mutators of a node, never all', () => {
    // A whole node can go in the list; a comment stays only where tests kill other mutants of the same node.
    const lines = spawnSync('git', ['grep', '-n', 'Stryker disable', '--', 'src', 'tools', 'packages/*/src'], { encoding: 'utf8' }).stdout.split('\n');
    expect(lines.filter((line) => /Stryker disable(?: next-line)? all\b/.test(line))).toEqual([]);
  });
});
