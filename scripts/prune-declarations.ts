/**
 * Deletes the `.d.ts` files (and their maps) that no published entry point's types reach.
 * `tsc` declares every source file, but a user's compiler only ever opens the declarations
 * that the `types` of package.json's `exports` import, directly or through others: the rest
 * (the sandbox's SQL engine, the CLI's internals, …) would only weigh on every install.
 * Imports are read with TypeScript's own pre-processor (static, re-exports and `import("…")`
 * types). Run by `npm run build` after `tsc`; prints what it kept and removed.
 */
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The declaration file a relative specifier of `from` names, if it exists. */
function declarationOf(from: string, specifier: string): string | undefined {
  const target = join(dirname(from), specifier).replace(/\.js$/, '');
  return [`${target}.d.ts`, join(target, 'index.d.ts')].find((file) => existsSync(file));
}

/** Every `.d.ts` reachable from `entries`, as normalized paths. */
export function reachableDeclarations(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const pending = entries.map((entry) => normalize(entry));
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const next = declarationOf(file, fileName);
      if (!next) throw new Error(`${relative(ROOT, file)} imports ${fileName}, which has no declaration in dist/`);
      pending.push(normalize(next));
    }
  }
  return seen;
}

function declarationsUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.d.ts'))
    .map((name) => normalize(join(dir, name)));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, string | { types?: string }> };
  const entries = Object.values(pkg.exports).flatMap((target) => (typeof target === 'object' && target.types ? [join(ROOT, target.types)] : []));
  const keep = reachableDeclarations(entries);
  const all = declarationsUnder(join(ROOT, 'dist'));
  const unreached = all.filter((file) => !keep.has(file));
  for (const file of unreached) {
    rmSync(file);
    rmSync(`${file}.map`, { force: true });
  }
  console.log(`declarations: ${keep.size} reached from ${entries.length} entry points, ${unreached.length} unreached removed`);
}
