import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../helpers/loopback-server.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..', '..');
const ESBUILD = join(ROOT, 'node_modules', '.bin', 'esbuild');
/** The other undici major an app may have beside us (npm's registry, or its cache). */
const APP_UNDICI = '8';

/** An app's server code as a bundler takes it: one call, its result printed as JSON. */
const APP = `import { closeSharedDispatcher, executeTool } from 'flowblocks';

executeTool('tinybird_list_datasources', { base_url: process.env.TINYBIRD_BASE_URL, token: 'p.app-token' }, { retry: { baseDelayMs: 1 } })
  .then(async (result) => {
    console.log(JSON.stringify({ success: result.success, error: result.error, attempts: result.meta.attempts, output: result.output }));
    await closeSharedDispatcher();
  });
`;

let work: string;
let server: Server;
let baseUrl: string;
const seen: { method?: string; url?: string; authorization?: string }[] = [];

/** Builds the app with esbuild as the issue did it: `--bundle --platform=node`, no other flag but `extra`. */
async function bundle(app: string, outfile: string, extra: string[] = []): Promise<void> {
  await run(ESBUILD, ['app.mjs', '--bundle', '--platform=node', `--outfile=${outfile}`, '--log-level=error', ...extra], { cwd: app });
}

/** Runs a bundle where it lies (its folder's node_modules, if any, is what Node finds). */
async function runBundle(file: string): Promise<{ success: boolean; error?: { code: string; message: string; retryable: boolean }; attempts: number; output?: unknown }> {
  const { stdout } = await run(process.execPath, [file], { env: { ...process.env, TINYBIRD_BASE_URL: baseUrl }, timeout: 30_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ method: req.method, url: req.url, authorization: req.headers.authorization });
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ datasources: [] }));
  });
  const serverAddress = await listenOnLoopback(server);
  baseUrl = serverAddress.origin;

  work = mkdtempSync(join(tmpdir(), 'flowblocks-bundle-'));
  // npm pack once (prepack builds dist/ first), or the tarball .ci/run packed for every app test.
  let tarball = process.env.FLOWBLOCKS_TARBALL ? resolve(process.env.FLOWBLOCKS_TARBALL) : undefined;
  if (!tarball) {
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, maxBuffer: 64 << 20 });
    tarball = join(work, (JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string }[])[0]!.filename);
  }
  const app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'bundled-app', private: true, type: 'module' }));
  writeFileSync(join(app, 'app.mjs'), APP);
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: app, maxBuffer: 64 << 20 });
  await bundle(app, join(work, 'bare', 'app.cjs'));
  await bundle(app, join(work, 'no-undici', 'app.cjs'), ['--external:undici']);
  // A folder whose node_modules holds the app's own undici 8, the bundle dropped beside it.
  const beside = join(work, 'beside-undici-8');
  mkdirSync(beside);
  writeFileSync(join(beside, 'package.json'), JSON.stringify({ name: 'app-on-undici-8', private: true }));
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', `undici@${APP_UNDICI}`], { cwd: beside, maxBuffer: 64 << 20 });
  copyFileSync(join(work, 'bare', 'app.cjs'), join(beside, 'app.cjs'));
});

afterAll(async () => {
  if (work) rmSync(work, { recursive: true, force: true });
  await new Promise((done) => server?.close(done));
});

describe('an app bundled with esbuild --bundle --platform=node (issue 42)', () => {
  it('runs from a folder with no node_modules: undici is in the bundle', async () => {
    seen.length = 0;
    const result = await runBundle(join(work, 'bare', 'app.cjs'));
    expect(result).toEqual({ success: true, attempts: 1, output: { datasources: [] } });
    expect(seen).toEqual([{ method: 'GET', url: '/v0/datasources', authorization: 'Bearer p.app-token' }]);
  });

  it("runs beside an app's undici 8: the bundle's own undici 7 sends", async () => {
    const installed = JSON.parse(readFileSync(join(work, 'beside-undici-8', 'node_modules', 'undici', 'package.json'), 'utf8')) as { version: string };
    expect(installed.version).toMatch(new RegExp(`^${APP_UNDICI}\\.`));
    seen.length = 0;
    const result = await runBundle(join(work, 'beside-undici-8', 'app.cjs'));
    expect(result).toEqual({ success: true, attempts: 1, output: { datasources: [] } });
    expect(seen).toEqual([{ method: 'GET', url: '/v0/datasources', authorization: 'Bearer p.app-token' }]);
  });

  it('a bundle that left undici out, run where there is none: `internal`, sent once, never retried', async () => {
    seen.length = 0;
    const result = await runBundle(join(work, 'no-undici', 'app.cjs'));
    expect(result.success).toBe(false);
    expect(result.error).toMatchObject({ code: 'internal', retryable: false });
    expect(result.error!.message).toMatch(/^internal error while loading undici, the HTTP client: Cannot find (module|package) 'undici'/);
    expect(result.attempts).toBe(1);
    expect(seen).toEqual([]);
  });
});
