/**
 * The JavaScript of `dist/`: every entry point in package.json's `exports` and its `bin`,
 * bundled by esbuild as ESM with code splitting (shared code in `dist/chunks/`), so an import
 * compiles and links a few files instead of about 70 (a faster cold start; the figures are in
 * docs/benchmarks.md). Their declarations are bundled after, at the `types` paths of `exports`
 * (scripts/bundle-declarations.ts).
 *
 * Every dependency and peer stays external: users share zod and undici with their own code, and
 * the optional peers (ioredis, bullmq, chdb, ai, the MCP SDK, n8n-workflow) are loaded with
 * `import()` only when a feature needs them. Code splitting keeps the project's own `import()`s
 * (the CLI's commands, the sandbox, the Redis store) as separate chunks loaded on demand.
 * The build fails when anything from node_modules would be bundled.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { thirdPartyNotices } from './third-party-notices.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Manifest {
  exports: Record<string, string | { default?: string }>;
  bin: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as Manifest;

/** `./dist/tools/loops/index.js` → `tools/loops/index.ts`: the source of a built file. */
function sourceOf(built: string): string {
  const match = /^\.\/dist\/(.+)\.js$/.exec(built);
  if (!match) throw new Error(`${built}: not a .js file under ./dist`);
  return `${match[1]}.ts`;
}

const built = [
  ...Object.values(pkg.exports).flatMap((target) => (typeof target === 'string' ? [] : target.default ? [target.default] : [])),
  ...Object.values(pkg.bin),
].filter((file) => file.endsWith('.js'));
// Not exported: bench/ingest-worker.mjs imports it by path from dist/ (a plain Node process,
// no tsx) to pre-build the raw side's chunks.
const benchOnly = ['tools/tinybird/ingest/ndjson-chunker.ts'];
export const entryPoints = [...new Set([...built.map(sourceOf), ...benchOnly])];

const packages = Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies, ...pkg.optionalDependencies });

/**
 * Small pure-function packages bundled into dist/ on purpose, so the runtime dependencies stay
 * zod and undici: `title-case` (with its `tslib`) is what n8n's lint judges node names by, used
 * only by the n8n adapter's house style (docs/decisions.md, "`title-case` is bundled into `dist/`").
 */
export const inlined = ['node_modules/title-case/', 'node_modules/tslib/'];

/** An input of the build that comes from node_modules and is not one of `inlined`. */
export const bundledByMistake = (input: string) => input.includes('node_modules/') && !inlined.some((dir) => input.includes(dir));

/** The esbuild options of dist/'s JavaScript (test/package/bundle.test.ts builds with them in memory). */
export const options = {
  absWorkingDir: ROOT,
  entryPoints,
  outdir: 'dist',
  outbase: '.',
  entryNames: '[dir]/[name]',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  // Whitespace and syntax only, about 30 kB less to download: identifiers keep their names, so
  // stack traces and `error.name` still read as in the source (docs/decisions.md, "Tarball").
  minifyWhitespace: true,
  minifySyntax: true,
  external: packages.flatMap((name) => [name, `${name}/*`]),
  sourcemap: true, // not published ("!dist/**/*.map" in files); for profiles and stack traces here
  metafile: true,
  logLevel: 'warning',
} satisfies BuildOptions;

/** dist/THIRD_PARTY_NOTICES.md: what is inlined (title-case, tslib) ships with its licence. */
export const noticesOf = (metafile: Metafile) => thirdPartyNotices(ROOT, Object.keys(metafile.inputs), 'flowblocks (dist/)');

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await build(options);
  const bundled = Object.keys(result.metafile.inputs).filter(bundledByMistake);
  if (bundled.length) {
    console.error(`bundle: these would be bundled into dist/; add their package to dependencies or peerDependencies:\n  ${bundled.join('\n  ')}`);
    process.exit(1);
  }
  const notices = noticesOf(result.metafile);
  if (notices) writeFileSync(new URL('../dist/THIRD_PARTY_NOTICES.md', import.meta.url), notices);
  const outputs = Object.entries(result.metafile.outputs).filter(([file]) => file.endsWith('.js'));
  const bytes = outputs.reduce((sum, [, output]) => sum + output.bytes, 0);
  console.log(`bundle: ${entryPoints.length} entry points, ${outputs.length - entryPoints.length} chunks, ${(bytes / 1000).toFixed(1)} kB of JavaScript in dist/`);
}
