/**
 * Builds `packages/n8n-nodes-flowblocks/dist/`: the community-node package n8n users install
 * by name, in two steps.
 *
 * 1. The package's own build, as its maintainer runs it: `npm run build` there, which is
 *    `n8n-node build` (n8n's `@n8n/node-cli`, from the cache: scripts/n8n-tools.ts). That is tsc
 *    over the package's tsconfig.json (n8n's template's): the committed node and credential
 *    sources and lib/flowblocks.ts compiled to CommonJS, then the icons copied beside them; tsc
 *    copies the codex `.node.json` files.
 * 2. The runtime bundle: src/index.mts (the harness, the services and the n8n adapter, with zod
 *    inside; n8n-workflow, its HTTP and its clock left to the host) bundled by esbuild into
 *    `dist/lib/flowblocks.js`, in place of tsc's output of lib/flowblocks.ts, which only
 *    declares it. A verified community node may have no runtime dependency, so the library is
 *    inlined; the nodes `require('../../lib/flowblocks')` as tsc compiled them.
 *
 * The package.json's `n8n` lists are then checked against the blocks and the built files, so a
 * new service cannot be left out of one.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { build, type Plugin } from 'esbuild';
import { n8nNodeSources } from './n8n-node-sources.js';
import { ensureN8nTools, N8N_TOOLS_BIN } from './n8n-tools.js';
import { thirdPartyNotices } from './third-party-notices.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const PACKAGE_DIR = join(ROOT, 'packages/n8n-nodes-flowblocks');
const DIST = join(PACKAGE_DIR, 'dist');
/** The runtime the nodes require: tsc's output of lib/flowblocks.ts, replaced by the bundle. */
export const RUNTIME = join(DIST, 'lib/flowblocks.js');

/**
 * The harness's platform files, swapped for n8n's: timers over n8n-workflow's `sleep`, gzip over
 * the web's CompressionStream, and no undici (the nodes send through n8n's `httpRequest`). What
 * n8n Cloud's checks refuse in a node (timers, `node:zlib`, a network client) is then not in the bundle.
 */
const SWAPS = new Map([
  ['src/harness/send/timers.ts', 'host-timers.mts'],
  ['src/harness/send/gzip.ts', 'web-gzip.mts'],
  ['src/harness/send/undici.ts', 'no-undici.mts'],
]);

const hostPlatform: Plugin = {
  name: 'n8n-host-platform',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\/[\w./-]+\.js$/ }, (args) => {
      const source = relative(ROOT, join(args.resolveDir, args.path.replace(/\.js$/, '.ts')));
      const swap = SWAPS.get(source);
      return swap ? { path: join(PACKAGE_DIR, 'src', swap) } : undefined;
    });
  },
};

/** Step 1: `npm run build` in the package (`n8n-node build`), with n8n's CLI on PATH and the repository's tsc found by `npm exec`. */
function runPackageBuild(): void {
  ensureN8nTools();
  try {
    execFileSync('npm', ['run', 'build'], {
      cwd: PACKAGE_DIR,
      encoding: 'utf8',
      stdio: 'pipe',
      env: { ...process.env, PATH: `${N8N_TOOLS_BIN}:${process.env.PATH ?? ''}` },
    });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`n8n-nodes-flowblocks: \`npm run build\` (n8n-node build) failed:\n${stripVTControlCharacters(`${stdout}${stderr}`)}`);
  }
}

/**
 * Step 2: the runtime bundle at dist/lib/flowblocks.js (tsc's declaration of it, flowblocks.d.ts,
 * stays), with THIRD_PARTY_NOTICES.md beside it. Needs no n8n tool: the unit tests run it alone
 * (into a directory of their own with `outfile`).
 */
export async function bundleN8nRuntime(outfile = RUNTIME): Promise<{ bundle: string; notices: string }> {
  mkdirSync(dirname(outfile), { recursive: true });
  // tsc's source map is of the declarations-only module this file replaces.
  rmSync(`${outfile}.map`, { force: true });
  const built = await build({
    absWorkingDir: ROOT,
    entryPoints: [join(PACKAGE_DIR, 'src/index.mts')],
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    external: ['n8n-workflow'],
    plugins: [hostPlatform],
    // zod keeps its registry on the global object; in the bundle that is a private one (bundle-globals.mts).
    define: { globalThis: 'bundleGlobals' },
    inject: [join(PACKAGE_DIR, 'src/bundle-globals.mts')],
    legalComments: 'eof',
    metafile: true,
    logLevel: 'warning',
  });
  // zod, title-case and the rest of what the bundle holds ship with their licences.
  const notices = join(dirname(outfile), 'THIRD_PARTY_NOTICES.md');
  const text = thirdPartyNotices(ROOT, Object.keys(built.metafile.inputs), 'n8n-nodes-flowblocks (dist/lib/flowblocks.js)');
  if (!text) throw new Error('n8n-nodes-flowblocks: the runtime bundle holds no package from node_modules, yet zod is its validator');
  writeFileSync(notices, text);
  return { bundle: outfile, notices };
}

export async function buildN8nPackage(): Promise<{ dir: string; nodes: string[]; credentials: string[] }> {
  runPackageBuild();
  await bundleN8nRuntime();
  const { entries } = n8nNodeSources();
  const nodes = entries.map((e) => `dist/nodes/${e.nodeClass}/${e.nodeClass}.node.js`);
  const credentials = entries.map((e) => `dist/credentials/${e.credentialClass}.credentials.js`);
  const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { n8n: { nodes: string[]; credentials: string[] } };
  const listed = JSON.stringify([manifest.n8n.nodes, manifest.n8n.credentials]);
  if (listed !== JSON.stringify([nodes, credentials])) {
    throw new Error(`packages/n8n-nodes-flowblocks/package.json "n8n" lists ${listed}; the blocks build ${JSON.stringify([nodes, credentials])}`);
  }
  const missing = [...nodes, ...credentials].filter((file) => !existsSync(join(PACKAGE_DIR, file)));
  if (missing.length) throw new Error(`n8n-nodes-flowblocks: n8n-node build wrote no ${missing.join(', ')}`);
  return { dir: PACKAGE_DIR, nodes, credentials };
}

/** Writes the node and credential sources from the block definitions (`--write-sources`). */
export function writeN8nNodeSources(): void {
  for (const dir of ['nodes', 'credentials']) rmSync(join(PACKAGE_DIR, dir), { recursive: true, force: true });
  for (const [file, text] of n8nNodeSources().files) {
    mkdirSync(dirname(join(PACKAGE_DIR, file)), { recursive: true });
    writeFileSync(join(PACKAGE_DIR, file), text);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--write-sources')) writeN8nNodeSources();
  const { dir, nodes, credentials } = await buildN8nPackage();
  console.log(`${dir}: ${nodes.length} nodes, ${credentials.length} credentials`);
}
