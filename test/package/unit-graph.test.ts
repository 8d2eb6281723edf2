/**
 * Issue 44, item 4: every source file is reached by the unit suite. `vitest related` and the
 * mutation run see a file only through the imports of the unit tests (vitest.config.ts' `unit` project);
 * a file loaded only by another suite (the real-n8n one, a child process) is outside their
 * graph, and a bug planted there ships. This walks the imports from every unit test file
 * (static and dynamic) and names each file of `src/`, `tools/` and the
 * n8n package's `src/` it never reaches.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');

/**
 * Reached only in a child process, with the reason. Nothing else may be: a file here is tested
 * by a suite `vitest related` cannot see, so keep it a shim with no logic of its own.
 */
const CHILD_PROCESS_ONLY: Record<string, string> = {
  'src/satellites/cli/index.ts': 'the bin shim (stdout EPIPE, argv) over src/satellites/cli/main.ts, which the unit tests import; test/cli runs it as `flowblocks`',
};

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files(path, out);
    else out.push(path);
  }
  return out;
}

/** The file an import names, as vite resolves it here: `.js` is the `.ts` source, `.mjs` the `.mts`. */
function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  const candidates = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), base.replace(/\.mjs$/, '.mts'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((path) => existsSync(path) && statSync(path).isFile());
}

/** Every file reached from `roots` by imports: `import`, `export … from` and `import()` with a literal (ts.preProcessFile). */
function reached(roots: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file) || !/\.(m?ts|tsx)$/.test(file)) continue;
    seen.add(file);
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      const target = resolveImport(file, fileName);
      if (target) queue.push(target);
    }
  }
  return seen;
}

it('every source file is imported, directly or not, by a unit test (or is a listed child-process shim)', { timeout: 30_000 }, () => {
  // The unit suite: the `unit` project takes test/**/*.test.ts but test/redis (its own project).
  const roots = files(join(ROOT, 'test')).filter((path) => path.endsWith('.test.ts') && !relative(ROOT, path).startsWith('test/redis/'));
  const sources = ['src', 'tools', 'packages/n8n-nodes-flowblocks/src'].flatMap((dir) => files(join(ROOT, dir))).filter((path) => /\.(m?ts|tsx)$/.test(path));
  const seen = reached(roots);
  const outside = sources.map((path) => relative(ROOT, path)).filter((path) => !seen.has(join(ROOT, path)));
  expect(outside.sort()).toEqual(Object.keys(CHILD_PROCESS_ONLY).sort());
  // The list is no excuse: each entry is still a file.
  for (const path of Object.keys(CHILD_PROCESS_ONLY)) expect(existsSync(join(ROOT, path)), path).toBe(true);
});
