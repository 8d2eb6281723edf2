/**
 * Issue 44, item 1: the n8n node and the Sim adapter mask every secret they hold in every form
 * a service can echo it (raw, percent-encoded, form-encoded, JSON-escaped, base64, base64url),
 * in the output and in an error. The key the call sends travels in a header, so it is printable
 * ASCII; the others (a second key, a proxy password, a host's other secrets) hold any character.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBlock } from '../../src/index.js';
import { toN8nNode } from '../../src/hosts/n8n/index.js';
import { toSimTool } from '../../src/hosts/sim/index.js';
import { getTool } from '../../src/registry.js';
import { echoEveryForm, expectNoSecretForm, HEADER_SAFE_SECRETS, TELLING_SECRETS } from '../helpers/secret-forms.js';
import { runN8nNode } from './n8n-context.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

const API_KEY = HEADER_SAFE_SECRETS[0];
const OLD_KEY = TELLING_SECRETS[0];
const PASSWORD = TELLING_SECRETS[1];
const ALL = [API_KEY, OLD_KEY, PASSWORD];
const echo = ALL.map(echoEveryForm).join(' || ');
let server: Server;
let base: string;
const seen: { url: string; key: string | undefined }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', key: req.headers['x-api-key'] as string | undefined });
    if (req.url === '/api/v1/logs/bad') return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: echo }));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
      data: { id: 'log-1', workflowId: 'w', executionId: 'e', level: 'info', trigger: 'api', startedAt: '2026-11-27T10:00:00Z', executionData: { finalOutput: echo, [echo]: 1 } },
    }));
  });
  const serverAddress = await listenOnLoopback(server);
  base = serverAddress.origin;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

describe('n8n node: every secret of its credential, in every form', () => {
  const { Node } = toN8nNode(getBlock('workflow')!);
  const node = new Node();

  it('is masked in the output and in a continueOnFail error', async () => {
    // The proxy password sits in the base URL percent-encoded, as a URL holds it.
    const credentials = { apiKey: API_KEY, previousApiKey: OLD_KEY, baseUrl: `http://user:${encodeURIComponent(PASSWORD)}@127.0.0.1:${new URL(base).port}/` };
    seen.length = 0;
    const { output } = await runN8nNode({ node, parameters: { operation: 'getLog', id: 'log-1' }, credentials });
    expect(seen[0]).toEqual({ url: '/api/v1/logs/log-1', key: API_KEY });
    expect(JSON.stringify(output)).toContain('[redacted]');
    expectNoSecretForm(output, ALL);
    const failed = await runN8nNode({ node, parameters: { operation: 'getLog', id: 'bad' }, credentials, continueOnFail: true });
    expect(JSON.stringify(failed.output)).toContain('bad_request');
    expectNoSecretForm(failed.output, ALL);
  });

  it('is masked in the error n8n is thrown when the node does not continue on fail', async () => {
    const credentials = { apiKey: API_KEY, previousApiKey: OLD_KEY, baseUrl: base };
    const thrown = await runN8nNode({ node, parameters: { operation: 'getLog', id: 'bad' }, credentials }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(thrown).toBeInstanceOf(Error);
    expectNoSecretForm(thrown, [API_KEY, OLD_KEY]);
  });
});

describe('Sim tool: its key and the host\'s other secrets, in every form', () => {
  it('are masked in the output and in an error', async () => {
    const tool = toSimTool(getTool('workflow_get_log')!, { execute: { secrets: [OLD_KEY, PASSWORD] } });
    const ok = await tool.directExecution({ apiKey: API_KEY, base_url: base, id: 'log-1' });
    expect(ok.success).toBe(true);
    expect(JSON.stringify(ok)).toContain('[redacted]');
    expectNoSecretForm(ok, ALL);
    const failed = await tool.directExecution({ apiKey: API_KEY, base_url: base, id: 'bad' });
    expect(failed.success).toBe(false);
    expectNoSecretForm(failed, ALL);
  });
});
