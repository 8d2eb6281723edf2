/**
 * Docs as tests: every fenced block of README.md and docs/*.md runs as a user would run
 * it, or says why not (`<!-- illustrative: <reason> -->`; the markers: docs-test/blocks.ts).
 *
 * The package is packed once (`npm pack`) and installed into an empty app in a temp dir, as
 * an app developer installs it; the optional peers come from this repository's own install
 * (linked, not downloaded again). The sandbox is started there with `npx flowblocks sandbox`.
 * Then, from the app's directory:
 * - `ts`/`js` blocks are type-checked together (tsc, strict) and each run with
 *   `node --import tsx`, as shown: nothing hidden runs before them;
 * - `sh` blocks run with bash; an `npm install <pkgs>` line in one is checked (each package
 *   must be installed in the app) instead of run, so the test never downloads;
 * - `file` blocks are written into the app, for the blocks after them (and beside the code
 *   blocks, so a block's `import './welcome.mjs'` finds it as an app's file would).
 * Each block sees the sandbox's URLs and demo credentials in the environment variables the
 * CLI and the agents read (TINYBIRD_TOKEN, LOOPS_API_KEY, …), and the real Tinybird API's
 * URL in its text stands for the sandbox's. A failure names the block as file:line.
 *
 * Usage: npm run test:docs [-- <file.md>…]   (FLOWBLOCKS_TARBALL=<tgz> skips the pack)
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoBlocks, where, type DocBlock } from './docs-test/blocks.js';
import { freePort } from './free-port.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Optional peers and tools a docs block imports or runs: linked from this repository's install. */
const LINKED = ['chdb', '@modelcontextprotocol/sdk', 'ai', 'ioredis', 'bullmq', 'loops', '@tinybirdco/sdk', 'tsx', 'typescript', '@types/node'];
const BLOCK_TIMEOUT_MS = 90_000;

const started = performance.now();
const only = process.argv.slice(2);
const blocks = repoBlocks(ROOT).filter((b) => only.length === 0 || only.includes(b.file));
const log = (line: string) => process.stdout.write(`${line}\n`);

const failures: string[] = [];
const brokenBlocks: DocBlock[] = [];
let passed = 0;
const fail = (block: DocBlock, why: string) => {
  if (!brokenBlocks.includes(block)) log(`  ✗ ${where(block)}`);
  brokenBlocks.push(block);
  failures.push(`${where(block)} (${block.lang || 'no language'}): ${why}`);
};

for (const block of blocks.filter((b) => b.kind === 'unmarked')) {
  fail(block, 'neither run nor marked: put `<!-- illustrative: <reason> -->` on the line before its fence, or make it a ts/js/sh block that runs');
}
for (const block of blocks.filter((b) => b.kind === 'hidden-preamble')) {
  fail(block, 'a hidden `<!-- preamble: … -->` runs before it, which GitHub and npm do not show: what a reader sees must be what runs; put that code in the block');
}

const app = mkdtempSync(join(tmpdir(), 'flowblocks-docs-app-'));
let sandbox: ChildProcess | undefined;
try {
  log(`docs test: ${blocks.length} blocks in ${new Set(blocks.map((b) => b.file)).size} files; the app is ${app}`);
  installApp(app);
  const ports = await sandboxPorts();
  const env = sandboxEnv(ports);
  const rewrite = rewriter(ports);
  const files = writeCodeBlocks(blocks, app, rewrite);
  typeCheck(app, files);
  // A block that starts a sandbox of its own (`npx flowblocks sandbox --tour --once`) runs first, on the documented ports.
  const ownSandbox = (b: DocBlock) => b.kind === 'shell' && /flowblocks sandbox\b/.test(b.text);
  await runBlocks(blocks.filter(ownSandbox), app, env, rewrite, files);
  sandbox = await startSandbox(app, ports);
  await runBlocks(blocks.filter((b) => !ownSandbox(b)), app, env, rewrite, files);
} catch (error) {
  failures.push(`the docs test could not run: ${(error as Error).message}`);
} finally {
  if (sandbox?.pid) stopGroup(sandbox.pid);
  if (!process.env.FLOWBLOCKS_KEEP_APP) rmSync(app, { recursive: true, force: true });
}

const count = (kinds: DocBlock['kind'][]) => blocks.filter((b) => kinds.includes(b.kind)).length;
const run = count(['code', 'shell', 'file']);
const notReached = run - passed - new Set(brokenBlocks.filter((b) => b.kind === 'code' || b.kind === 'shell' || b.kind === 'file')).size;
log(
  `\ndocs test: ${run} blocks run (${passed} passed${notReached ? `, ${notReached} not reached` : ''}), ${count(['illustrative'])} illustrative, ` +
    `${new Set(brokenBlocks).size} broken, in ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
if (failures.length) {
  log(`\n${failures.join('\n\n')}`);
  process.exitCode = 1;
}

function sh(command: string, args: string[], cwd: string, what: string): string {
  const out = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (out.status !== 0) throw new Error(`${what} failed (${command} ${args.join(' ')}):\n${out.stdout}\n${out.stderr}`);
  return out.stdout;
}

/** An empty app with the packed package installed from its tarball, and the peers linked. */
function installApp(dir: string): void {
  let tarball = process.env.FLOWBLOCKS_TARBALL;
  if (!tarball) {
    log('packing the package (npm pack: builds it first)…');
    // The prepack build prints to stdout too: the tarball is the one .tgz in the empty app directory.
    sh('npm', ['pack', '--pack-destination', dir], ROOT, 'npm pack');
    tarball = join(dir, readdirSync(dir).find((name) => name.endsWith('.tgz'))!);
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'docs-test-app', private: true, type: 'module' }, null, 2));
  log(`installing ${tarball} into the app…`);
  sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', resolve(tarball)], dir, 'npm install of the tarball');
  for (const name of LINKED) {
    const target = join(dir, 'node_modules', name);
    if (existsSync(target)) continue;
    mkdirSync(dirname(target), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', name), target, 'dir');
  }
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] },
      include: ['blocks/*.ts'],
    }),
  );
}

/** The sandbox's documented ports when free (CI), else free ones (a shared machine); the blocks' text is rewritten to match. */
async function sandboxPorts(): Promise<Record<'main' | 'tinybird' | 'loops' | 'workflow', number>> {
  const wanted = { main: 4100, tinybird: 7181, loops: 7182, workflow: 7183 };
  const free = async (port: number) =>
    new Promise<boolean>((done) => {
      const server = createServer().once('error', () => done(false)).listen(port, '127.0.0.1', () => server.close(() => done(true)));
    });
  const all = await Promise.all(Object.values(wanted).map(free));
  if (all.every(Boolean)) return wanted;
  return { main: await freePort(), tinybird: await freePort(), loops: await freePort(), workflow: await freePort() };
}

function startSandbox(dir: string, ports: Record<string, number>): Promise<ChildProcess> {
  log(`starting the sandbox: npx flowblocks sandbox (ports ${Object.values(ports).join(', ')})…`);
  const args = ['flowblocks', 'sandbox', '--port', `${ports.main}`, '--tinybird-port', `${ports.tinybird}`, '--loops-port', `${ports.loops}`, '--workflow-port', `${ports.workflow}`];
  // Its own process group: stopping the group stops npx and the node it started.
  const child = spawn('npx', args, { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((done, reject) => {
    const timer = setTimeout(() => reject(new Error(`the sandbox did not start within 120 s:\n${output}`)), 120_000);
    const read = (chunk: Buffer) => {
      output += chunk;
      if (output.includes('Stop with Ctrl-C.')) {
        clearTimeout(timer);
        done(child);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => reject(new Error(`the sandbox exited (${code}):\n${output}`)));
  });
}

function stopGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    // already gone
  }
}

/** The sandbox as the environment variables the CLI, the MCP server and the agents read. */
function sandboxEnv(ports: Record<string, number>): NodeJS.ProcessEnv {
  const main = `http://127.0.0.1:${ports.main}`;
  return {
    ...process.env,
    TINYBIRD_BASE_URL: `${main}/tinybird`,
    TINYBIRD_TOKEN: 'p.sandbox-admin-token',
    LOOPS_BASE_URL: `${main}/loops/api/v1`,
    LOOPS_API_KEY: 'loops-sandbox-api-key',
    WORKFLOW_BASE_URL: `${main}/workflow`,
    WORKFLOW_API_KEY: 'wf-sandbox-team-key',
  };
}

/** A block's text as run: the documented ports as the sandbox's, the real Tinybird API as the sandbox. */
function rewriter(ports: Record<string, number>): (text: string) => string {
  const swaps: [string, string][] = [
    ['https://api.tinybird.co', `http://127.0.0.1:${ports.main}/tinybird`],
    ['127.0.0.1:4100', `127.0.0.1:${ports.main}`],
    ['127.0.0.1:7181', `127.0.0.1:${ports.tinybird}`],
    ['127.0.0.1:7182', `127.0.0.1:${ports.loops}`],
    ['127.0.0.1:7183', `127.0.0.1:${ports.workflow}`],
  ];
  // On a machine where the documented ports are taken, a block's own sandbox is moved to the free ones too.
  const moved = ports.main !== 4100;
  const sandboxFlags = ` --port ${ports.main} --tinybird-port ${ports.tinybird} --loops-port ${ports.loops} --workflow-port ${ports.workflow}`;
  return (text) => {
    const swapped = swaps.reduce((t, [from, to]) => t.split(from).join(to), text);
    return moved ? swapped.replace(/(npx flowblocks sandbox)(?=[ \t]|$)/gm, `$1${sandboxFlags}`) : swapped;
  };
}

function slug(block: DocBlock): string {
  return `${block.file.replace(/[^\w]+/g, '_')}_L${block.line}`;
}

type CodeFiles = Map<DocBlock, { name: string }>;

/** Every code block as a module of its own in the app's blocks/, exactly as shown, by block. */
function writeCodeBlocks(all: DocBlock[], dir: string, rewrite: (t: string) => string): CodeFiles {
  const blockDir = join(dir, 'blocks');
  mkdirSync(blockDir, { recursive: true });
  const files: CodeFiles = new Map();
  for (const block of all) {
    if (block.kind !== 'code') continue;
    const name = `${slug(block)}.${block.lang.startsWith('t') ? 'ts' : 'mjs'}`;
    // `export {}`: a module of its own (top-level await, no names shared with other blocks).
    writeFileSync(join(blockDir, name), `${rewrite(block.text)}\nexport {};\n`);
    files.set(block, { name });
  }
  return files;
}

/** Every ts block type-checked in one tsc run (strict, as an app would); a diagnostic names the doc's line. */
function typeCheck(dir: string, files: CodeFiles): void {
  const byName = new Map([...files].map(([block, file]) => [file.name, { block, ...file }]));
  if (![...byName.keys()].some((n) => n.endsWith('.ts'))) return;
  log('type-checking the ts blocks (tsc, strict)…');
  const tsc = spawnSync(process.execPath, [join(dir, 'node_modules/typescript/bin/tsc'), '-p', dir, '--pretty', 'false'], { cwd: dir, encoding: 'utf8' });
  for (const line of tsc.stdout.split('\n')) {
    const m = /^blocks\/([^(]+)\((\d+),(\d+)\): (.*)$/.exec(line);
    const hit = m ? byName.get(m[1]!) : undefined;
    if (!m || !hit) continue;
    fail(hit.block, `type error at ${hit.block.file}:${hit.block.line + Number(m[2])}: ${m[4]}`);
  }
}

async function runBlocks(all: DocBlock[], dir: string, env: NodeJS.ProcessEnv, rewrite: (t: string) => string, files: CodeFiles): Promise<void> {
  for (const block of all) {
    if (block.kind === 'file') {
      writeFileSync(join(dir, block.note!), rewrite(block.text));
      // The code blocks run from blocks/: a copy there is what their `./<name>` imports reach.
      if (!block.note!.includes('/')) writeFileSync(join(dir, 'blocks', block.note!), rewrite(block.text));
      log(`  ✓ ${where(block)} written to ${block.note}`);
      passed++;
    } else if (block.kind === 'code') {
      if (brokenBlocks.includes(block)) continue; // a type error: reported once
      await runOne(block, process.execPath, ['--import', 'tsx', join('blocks', files.get(block)!.name)], dir, env);
    } else if (block.kind === 'shell') {
      const script = installChecked(block, rewrite(block.text), dir);
      if (script !== undefined) await runOne(block, 'bash', ['-eo', 'pipefail', '-c', script], dir, env);
    }
  }
}

/** The script without its `npm install` lines, each checked instead (undefined when a package is missing). */
function installChecked(block: DocBlock, text: string, dir: string): string | undefined {
  const kept: string[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*npm (?:install|i) ([^#]+)/.exec(line);
    if (!m) {
      kept.push(line);
      continue;
    }
    const missing = m[1]!.trim().split(/\s+/).filter((pkg) => !pkg.startsWith('-') && !existsSync(join(dir, 'node_modules', pkg.replace(/(.)@.*$/, '$1'), 'package.json')));
    if (missing.length) {
      fail(block, `${missing.join(', ')} not installed in the test app (add to LINKED in scripts/test-docs.ts)`);
      return undefined;
    }
  }
  return kept.join('\n');
}

function runOne(block: DocBlock, command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  const t0 = performance.now();
  return new Promise((done) => {
    const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c));
    child.stderr.on('data', (c: Buffer) => (output += c));
    const timer = setTimeout(() => {
      output += `\n(stopped after ${BLOCK_TIMEOUT_MS / 1000} s)`;
      stopGroup(child.pid!);
    }, BLOCK_TIMEOUT_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      stopGroup(child.pid!);
      const ms = Math.round(performance.now() - t0);
      if (code === 0) {
        log(`  ✓ ${where(block)} (${ms} ms)`);
        passed++;
      }
      else fail(block, `exit ${code ?? signal} after ${ms} ms:\n${output.trim().split('\n').slice(-25).join('\n')}`);
      done();
    });
  });
}
