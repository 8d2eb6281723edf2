/**
 * dist/'s declarations: one `.d.ts` at each `types` path of package.json's `exports`, with the
 * declarations two entries share in `dist/chunks/*.d.ts`, bundled by rollup-plugin-dts from
 * what `tsc` wrote to dist/.declarations/ (removed after). Only the declarations an entry's
 * types reach are published, not every file that holds one of them, and a user's compiler opens
 * about 25 files instead of 160. Run by `npm run build` after `tsc`; the optional peers' imports
 * are marked after it (scripts/optional-peer-types.ts).
 */
import { readFileSync, rmSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Where `npm run build` has tsc write the declarations this script bundles. */
export const TSC_OUT = 'dist/.declarations';

/** Bundles `entries` (output name without `.d.ts` → tsc's declaration file) into `outDir`; returns the files written. */
export async function bundleDeclarations(entries: Record<string, string>, outDir: string): Promise<string[]> {
  // Packages and node: built-ins stay imports: a user's compiler resolves them from their install.
  const external = (id: string) => !id.startsWith('.') && !isAbsolute(id);
  const bundle = await rollup({ input: entries, plugins: [dts()], external, logLevel: 'warn' });
  try {
    const { output } = await bundle.write({
      dir: outDir,
      format: 'es',
      entryFileNames: '[name].d.ts',
      // A shared chunk is named after its first module (`types.d.ts` → `types-<hash>.d.ts`).
      chunkFileNames: (chunk) => `chunks/${chunk.name.replace(/\.d$/, '')}-[hash].d.ts`,
    });
    return output.map((file) => file.fileName);
  } finally {
    await bundle.close();
  }
}

/** package.json's `types` targets, each keyed by its path under dist/ and mapped to tsc's file for it. */
export function declarationEntries(exports: Record<string, string | { types?: string }>, tscOut: string): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const target of Object.values(exports)) {
    if (typeof target !== 'object' || !target.types) continue;
    const inDist = target.types.replace(/^\.\/dist\//, '');
    if (inDist === target.types) throw new Error(`${target.types}: a types path outside ./dist/`);
    entries[inDist.replace(/\.d\.ts$/, '')] = join(tscOut, inDist);
  }
  return entries;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, string | { types?: string }> };
  const tscOut = join(ROOT, TSC_OUT);
  const entries = declarationEntries(pkg.exports, tscOut);
  const written = await bundleDeclarations(entries, join(ROOT, 'dist'));
  rmSync(tscOut, { recursive: true, force: true });
  console.log(`declarations: ${Object.keys(entries).length} entry points bundled into ${written.length} files`);
}
