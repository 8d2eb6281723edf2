/**
 * Builds `packages/n8n-nodes-flowblocks/dist/`: the community-node package n8n users install
 * by name. One CommonJS bundle of the blocks (`flowblocks.js`: the harness, the services and
 * the n8n adapter, with zod inside; n8n-workflow, its HTTP and its clock left to the host), and per block a
 * `.node.js`, a `.credentials.js`, their icons beside them and the node's codex file, all read
 * from the same block definitions as `flowblocks`. The package.json's `n8n` lists are checked
 * against what is built, so a new service cannot be left out of one.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { n8nNodeSources } from './n8n-node-sources.js';
import { thirdPartyNotices } from './third-party-notices.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const PACKAGE_DIR = join(ROOT, 'packages/n8n-nodes-flowblocks');
const DIST = join(PACKAGE_DIR, 'dist');

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

/** `../../dist/flowblocks.js` in a node's source is the bundle beside the compiled node: required, not inlined. */
const bundleBeside: Plugin = {
  name: 'flowblocks-bundle-beside',
  setup(b) {
    b.onResolve({ filter: /\/dist\/flowblocks\.js$/ }, (args) => ({ path: relative(args.resolveDir.replace(PACKAGE_DIR, DIST), join(DIST, 'flowblocks.js')), external: true }));
  },
};

export async function buildN8nPackage(): Promise<{ dir: string; nodes: string[]; credentials: string[] }> {
  rmSync(DIST, { recursive: true, force: true });
  const bundle = join(DIST, 'flowblocks.js');
  const built = await build({
    absWorkingDir: ROOT,
    entryPoints: [join(PACKAGE_DIR, 'src/index.mts')],
    outfile: bundle,
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
  const notices = thirdPartyNotices(ROOT, Object.keys(built.metafile.inputs), 'n8n-nodes-flowblocks (dist/flowblocks.js)');
  if (notices) writeFileSync(join(DIST, 'THIRD_PARTY_NOTICES.md'), notices);
  // The nodes and credentials are the committed TypeScript sources (scripts/n8n-node-sources.ts
  // writes them; a test keeps them from drifting), compiled one file each by esbuild as n8n's
  // own tooling compiles them with tsc: CommonJS, n8n-workflow the host's, and the node's
  // `executeOf` required from the bundle beside them.
  const { entries } = n8nNodeSources();
  const nodes = entries.map((e) => `dist/nodes/${e.nodeClass}/${e.nodeClass}.node.js`);
  const credentials = entries.map((e) => `dist/credentials/${e.credentialClass}.credentials.js`);
  await build({
    absWorkingDir: PACKAGE_DIR,
    entryPoints: [...nodes, ...credentials].map((file) => file.replace(/^dist\//, '').replace(/\.js$/, '.ts')),
    outdir: DIST,
    outbase: '.',
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    external: ['n8n-workflow'],
    plugins: [bundleBeside],
    logLevel: 'warning',
  });
  for (const dir of ['nodes', 'credentials']) {
    cpSync(join(PACKAGE_DIR, dir), join(DIST, dir), { recursive: true, filter: (file) => !file.endsWith('.ts') });
  }
  const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { n8n: { nodes: string[]; credentials: string[] } };
  const listed = JSON.stringify([manifest.n8n.nodes, manifest.n8n.credentials]);
  if (listed !== JSON.stringify([nodes, credentials])) {
    throw new Error(`packages/n8n-nodes-flowblocks/package.json "n8n" lists ${listed}; the blocks build ${JSON.stringify([nodes, credentials])}`);
  }
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
