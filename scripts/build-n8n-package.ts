/**
 * Builds `packages/n8n-nodes-flowblocks/dist/`: the community-node package n8n users install
 * by name. One CommonJS bundle of the blocks (`flowblocks.js`: the harness, the services and
 * the n8n adapter, with zod inside; n8n-workflow, its HTTP and its clock left to the host), and per block a
 * `.node.js`, a `.credentials.js`, their icons beside them and the node's codex file, all read
 * from the same block definitions as `flowblocks`. The package.json's `n8n` lists are checked
 * against what is built, so a new service cannot be left out of one.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
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
    b.onResolve({ filter: /^\.\/\w+\.js$/ }, (args) => {
      const source = relative(ROOT, join(args.resolveDir, args.path.replace(/\.js$/, '.ts')));
      const swap = SWAPS.get(source);
      return swap ? { path: join(PACKAGE_DIR, 'src', swap) } : undefined;
    });
  },
};

const pascal = (name: string) => name[0]!.toUpperCase() + name.slice(1);

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
  // The layout comes from the bundle itself: what n8n will load is what is listed.
  const { layout } = (await import(bundle)) as typeof import('../packages/n8n-nodes-flowblocks/src/index.mjs');
  const nodes: string[] = [];
  const credentials: string[] = [];
  for (const { type, node, credential, adapted, block } of layout()) {
    const nodeClass = pascal(node);
    const credentialClass = pascal(credential);
    const nodeDir = join(DIST, 'nodes', nodeClass);
    const credentialDir = join(DIST, 'credentials');
    mkdirSync(nodeDir, { recursive: true });
    mkdirSync(credentialDir, { recursive: true });
    writeFileSync(
      join(nodeDir, `${nodeClass}.node.js`),
      `'use strict';\nconst { nodeClass } = require('../../flowblocks.js');\nclass ${nodeClass} extends nodeClass(${JSON.stringify(type)}) {}\nexports.${nodeClass} = ${nodeClass};\n`,
    );
    writeFileSync(
      join(credentialDir, `${credentialClass}.credentials.js`),
      `'use strict';\nconst { credentialClass } = require('../flowblocks.js');\nclass ${credentialClass} extends credentialClass(${JSON.stringify(type)}) {}\nexports.${credentialClass} = ${credentialClass};\n`,
    );
    // n8n resolves `file:` icons beside the file that names them: the node's and the credential's.
    const svg = coloured(adapted.iconSvg, block.definition.color);
    writeFileSync(join(nodeDir, adapted.iconFile), svg);
    writeFileSync(join(credentialDir, adapted.iconFile), svg);
    writeFileSync(join(nodeDir, `${nodeClass}.node.json`), `${JSON.stringify(codex(node, block.definition.docsUrl ?? adapted.credential.documentationUrl ?? ''), null, 2)}\n`);
    nodes.push(`dist/nodes/${nodeClass}/${nodeClass}.node.js`);
    credentials.push(`dist/credentials/${credentialClass}.credentials.js`);
  }
  const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { n8n: { nodes: string[]; credentials: string[] } };
  const listed = JSON.stringify([manifest.n8n.nodes, manifest.n8n.credentials]);
  if (listed !== JSON.stringify([nodes, credentials])) {
    throw new Error(`packages/n8n-nodes-flowblocks/package.json "n8n" lists ${listed}; the blocks build ${JSON.stringify([nodes, credentials])}`);
  }
  return { dir: PACKAGE_DIR, nodes, credentials };
}

/** The block's icon on its colour: n8n draws icons as they are, and `currentColor` there is black. */
function coloured(svg: string, color: string): string {
  return svg.replace(/^<svg([^>]*)>/, `<svg$1><rect width="24" height="24" rx="5" fill="${color}" stroke="none"/>`).replaceAll('currentColor', '#fff');
}

/** n8n's codex file: the node's category and its documentation link. */
function codex(node: string, docsUrl: string) {
  return {
    node: `n8n-nodes-flowblocks.${node}`,
    nodeVersion: '1.0',
    codexVersion: '1.0',
    categories: ['Development', 'Data & Storage'],
    resources: { primaryDocumentation: [{ url: docsUrl }] },
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { dir, nodes, credentials } = await buildN8nPackage();
  console.log(`${dir}: ${nodes.length} nodes, ${credentials.length} credentials`);
}
