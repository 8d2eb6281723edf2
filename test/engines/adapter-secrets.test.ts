/**
 * The n8n node holds a whole credential object: every secret in it is masked in the item's
 * output and error, whichever field the tool sent (issue 30, item 1). A service here echoes
 * a second key of the credential and the user name and password of its base URL. A Sim tool
 * gets one credential per call; the other secrets a host holds go in `execute.secrets`.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBlock } from '../../src/index.js';
import { toN8nNode } from '../../src/hosts/n8n/index.js';
import { toSimTool } from '../../src/hosts/sim/index.js';
import { getTool } from '../../src/registry.js';
import { runN8nNode } from './n8n-context.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

const API_KEY = 'wf-n8n-primary-key-30';
const OLD_KEY = 'wf-n8n-previous-key-30';
const PASSWORD = 'proxy-pass-30';
let server: Server;
let base: string;
const echo = `keys ${API_KEY} ${OLD_KEY} ${PASSWORD}`;
/** The base URL's userinfo as a client sends it in `Authorization: Basic …`. */
const BASIC = Buffer.from(`user:${PASSWORD}`).toString('base64');

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/api/v1/logs/basic') return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `proxy said: Basic ${BASIC}` }));
    if (req.url === '/api/v1/logs/bad') return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: echo }));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
      data: { id: 'log-1', workflowId: 'w', executionId: 'e', level: 'info', trigger: 'api', startedAt: '2026-11-27T10:00:00Z', executionData: { finalOutput: echo } },
    }));
  });
  const serverAddress = await listenOnLoopback(server);
  base = serverAddress.origin;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

describe('n8n node: every secret of its credential is masked', () => {
  const { Node } = toN8nNode(getBlock('workflow')!);
  const node = new Node();

  it('in the output and in a continueOnFail error', async () => {
    // A proxy's user name and password in the base URL are secrets too; the URL itself is not.
    const credentials = { apiKey: API_KEY, previousApiKey: OLD_KEY, baseUrl: `${base}/` };
    const { output } = await runN8nNode({ node, parameters: { operation: 'getLog', id: 'log-1' }, credentials });
    const text = JSON.stringify(output);
    expect(text).toContain('[redacted]');
    for (const secret of [API_KEY, OLD_KEY]) expect(text).not.toContain(secret);
    const failed = await runN8nNode({ node, parameters: { operation: 'getLog', id: 'bad' }, credentials, continueOnFail: true });
    const error = JSON.stringify(failed.output);
    expect(error).toContain('bad_request');
    for (const secret of [API_KEY, OLD_KEY]) expect(error).not.toContain(secret);
  });

  it('the password of a base URL is masked, not sent on to a model', async () => {
    const credentials = { apiKey: API_KEY, baseUrl: `http://user:${PASSWORD}@127.0.0.1:${new URL(base).port}` };
    const { output } = await runN8nNode({ node, parameters: { operation: 'getLog', id: 'bad' }, credentials, continueOnFail: true });
    expect(JSON.stringify(output)).not.toContain(PASSWORD);
  });

  it('the user name and password of a base URL are masked in their base64 Basic form too', async () => {
    const credentials = { apiKey: API_KEY, baseUrl: `http://user:${PASSWORD}@127.0.0.1:${new URL(base).port}` };
    const { output } = await runN8nNode({ node, parameters: { operation: 'getLog', id: 'basic' }, credentials, continueOnFail: true });
    const text = JSON.stringify(output);
    expect(text).toContain('proxy said: Basic [redacted]');
    expect(text).not.toContain(BASIC);
  });
});

describe('Sim tool: the secrets a host passes in execute.secrets are masked beside the tool\'s own', () => {
  it('in the output', async () => {
    const tool = toSimTool(getTool('workflow_get_log')!, { execute: { secrets: [OLD_KEY, PASSWORD] } });
    const result = await tool.directExecution({ apiKey: API_KEY, base_url: base, id: 'log-1' });
    const text = JSON.stringify(result);
    expect(result.success).toBe(true);
    for (const secret of [API_KEY, OLD_KEY, PASSWORD]) expect(text).not.toContain(secret);
  });
});
