/**
 * n8n's "Test credential" button on each credential of the packed package, run by n8n's own
 * code on n8n's Node (test/n8n/credential-tester.mjs: n8n's `CredentialsTester`, request,
 * credential and rules as n8n applies them) against the sandbox: a valid key passes, a wrong
 * one fails, and for the workflow platform, whose check is a refusal only an accepted key
 * gets, a web server's 404 page at a wrong base URL fails too; a base URL that never answers
 * fails after the credential's own time limit, not n8n's 300 s.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildN8nPackage } from '../../scripts/build-n8n-package.js';
import { ensureN8n, N8N_DIR, N8N_NODE, N8N_VERSION } from '../../scripts/n8n-host.js';
import { CREDENTIAL_TEST_TIMEOUT_MS } from '../../src/hosts/n8n/credential-authenticate.js';
import { startSandbox, type Sandbox } from '../../src/satellites/sandbox/index.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

interface Result {
  status: 'OK' | 'Error';
  message: string;
}

let sb: Sandbox;
let packageDir: string;
const page = createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>'));
let pageUrl: string;
/** Another web app at the base URL: any path answers 200 with a page (as the n8n editor itself does). */
const app = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>n8n</title>'));
let appUrl: string;
/** A base URL that takes the request and never answers (a stuck proxy, a host that hangs): what it was asked. */
const asked: { path: string | undefined; keyed: boolean }[] = [];
const silent = createServer((req) => asked.push({ path: req.url, keyed: Boolean(req.headers.authorization ?? req.headers['x-api-key']) }));
let silentUrl: string;
const listen = async (server: ReturnType<typeof createServer>) => {
  const serverAddress = await listenOnLoopback(server);
  return serverAddress.origin;
};

beforeAll(async () => {
  ensureN8n();
  ({ dir: packageDir } = await buildN8nPackage());
  sb = await startSandbox({ servicePorts: false });
  const pageAddress = await listenOnLoopback(page);
  pageUrl = pageAddress.origin;
  appUrl = await listen(app);
  silentUrl = await listen(silent);
});

afterAll(async () => {
  await sb?.close();
  await new Promise((resolve) => page.close(resolve));
  await new Promise((resolve) => app.close(resolve));
  silent.closeAllConnections();
  await new Promise((resolve) => silent.close(resolve));

});

/** What n8n's button answers for each credential (asynchronously: the sandbox runs in this process). */
async function testCredentials(cases: { type: string; data: Record<string, string> }[]): Promise<Result[]> {
  const n8nModules = join(N8N_DIR, 'node_modules');
  const script = join(import.meta.dirname, 'credential-tester.mjs');
  const { stdout } = await promisify(execFile)(N8N_NODE, [script, n8nModules, packageDir, JSON.stringify(cases)], { encoding: 'utf8' });
  return JSON.parse(stdout) as Result[];
}

describe(`"Test credential" in n8n ${N8N_VERSION}`, () => {
  it('passes a valid key of each service and fails a wrong one', async () => {
    const { tinybird, loops, workflow } = sb.credentials;
    const results = await testCredentials([
      { type: 'flowblocksTinybirdApi', data: { token: tinybird.readToken, baseUrl: sb.urls.tinybird } },
      { type: 'flowblocksTinybirdApi', data: { token: 'p.not-a-token', baseUrl: sb.urls.tinybird } },
      { type: 'flowblocksLoopsApi', data: { apiKey: loops.apiKey, baseUrl: sb.urls.loops } },
      { type: 'flowblocksLoopsApi', data: { apiKey: 'not-a-key', baseUrl: sb.urls.loops } },
      { type: 'flowblocksWorkflowApi', data: { apiKey: workflow.apiKey, baseUrl: sb.urls.workflow } },
      { type: 'flowblocksWorkflowApi', data: { apiKey: workflow.freeApiKey, baseUrl: `${sb.urls.workflow}/` } },
      { type: 'flowblocksWorkflowApi', data: { apiKey: 'wf-not-a-key', baseUrl: sb.urls.workflow } },
      { type: 'flowblocksWorkflowApi', data: { apiKey: workflow.apiKey, baseUrl: pageUrl } },
    ]);
    const ok = { status: 'OK', message: 'Connection successful!' };
    const refused = {
      status: 'Error',
      message: 'The Workflow API did not accept the credential, or the base URL is not its API (an accepted key gets an answer with "details"). Check both.',
    };
    expect(results).toEqual([ok, { status: 'Error', message: expect.any(String) }, ok, { status: 'Error', message: expect.any(String) }, ok, ok, refused, refused]);
    // n8n never shows the key it tried.
    expect(JSON.stringify(results)).not.toContain('not-a-key');
  });

  it('fails Tinybird and Loops at a base URL that answers 200 but is not their API', async () => {
    const { tinybird, loops } = sb.credentials;
    const started = performance.now();
    const results = await testCredentials([
      { type: 'flowblocksTinybirdApi', data: { token: tinybird.readToken, baseUrl: appUrl } },
      { type: 'flowblocksLoopsApi', data: { apiKey: loops.apiKey, baseUrl: appUrl } },
    ]);
    expect(results).toEqual([
      { status: 'Error', message: "The answer is not the Tinybird API's: check the base URL." },
      { status: 'Error', message: "The answer is not the Loops API's: check the base URL." },
    ]);
    expect(performance.now() - started).toBeLessThan(60_000);
  });

  it(`gives up on a base URL that never answers after ${CREDENTIAL_TEST_TIMEOUT_MS / 1000} s, not n8n's 300 s`, async () => {
    const { tinybird, loops, workflow } = sb.credentials;
    const started = performance.now();
    // One tester each, side by side: n8n's tester runs one test at a time.
    const results = (
      await Promise.all([
        testCredentials([{ type: 'flowblocksTinybirdApi', data: { token: tinybird.readToken, baseUrl: silentUrl } }]),
        testCredentials([{ type: 'flowblocksLoopsApi', data: { apiKey: loops.apiKey, baseUrl: silentUrl } }]),
        testCredentials([{ type: 'flowblocksWorkflowApi', data: { apiKey: workflow.apiKey, baseUrl: silentUrl } }]),
      ])
    ).flat();
    const took = performance.now() - started;
    // n8n's own words for an aborted connection: 2.x names its code, 1.x says it in a sentence.
    const message = Number(N8N_VERSION.split('.')[0]) >= 2 ? 'ECONNABORTED' : 'The connection was aborted, perhaps the server is offline';
    expect(results).toEqual([0, 1, 2].map(() => ({ status: 'Error', message })));
    // Each request reached the server with its key, so the wait was the answer's.
    expect(asked.map((a) => a.path).sort()).toEqual(['/api-key', '/api/v1/logs', '/v0/pipes']);
    expect(asked.every((a) => a.keyed)).toBe(true);
    expect(took).toBeGreaterThanOrEqual(CREDENTIAL_TEST_TIMEOUT_MS);
    // n8n's start and three testers on a shared machine: far under n8n's 300 s.
    expect(took).toBeLessThan(CREDENTIAL_TEST_TIMEOUT_MS + 45_000);
  });
});
