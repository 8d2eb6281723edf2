/**
 * Issue 44, item 1: the agents' executor and the MCP server (in process, over the SDK's
 * in-memory transport, so `vitest related` and the mutation run reach it) hand a model no
 * configured secret in any form: the called service's key and the other services' keys, each
 * echoed raw, percent-encoded, form-encoded, JSON-escaped, base64 and base64url, in an answer
 * and in an error. Secrets every encoding changes (`test/helpers/secret-forms.ts`).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpServer, createToolExecutor, type AgentToolOptions } from '../../src/hosts/agents/index.js';
import { mockService } from '../helpers/mock-service.js';
import { echoEveryForm, expectNoSecretForm, HEADER_SAFE_SECRETS, TELLING_SECRETS } from '../helpers/secret-forms.js';

const WF = 'https://workflows.example.com';
const WF_KEY = HEADER_SAFE_SECRETS[0];
// Not sent by this call (no header carries them), so any character goes.
const TB_TOKEN = TELLING_SECRETS[0];
const LOOPS_KEY = TELLING_SECRETS[1];
const ALL = [WF_KEY, TB_TOKEN, LOOPS_KEY];
const echo = ALL.map(echoEveryForm).join(' || ');

function service() {
  const svc = mockService(WF);
  const log = { id: 'log-1', workflowId: 'w', executionId: 'e', level: 'info', trigger: 'api', startedAt: '2026-11-27T10:00:00Z', executionData: { finalOutput: echo, [echo]: 1 } };
  svc.on('GET', '/api/v1/logs/log-1', { status: 200, body: { data: log } });
  svc.on('GET', '/api/v1/logs/bad', { status: 400, body: { error: echo } });
  return svc;
}

function options(svc: ReturnType<typeof mockService>): AgentToolOptions {
  return {
    settings: { workflow: { base_url: WF, apiKey: WF_KEY }, tinybird: { token: TB_TOKEN }, loops: { apiKey: LOOPS_KEY } },
    execute: { dispatcher: svc.agent, retry: false },
  };
}

describe('the agents executor: no configured secret in any form', () => {
  it('in an answer that echoes every key in every form, values and keys', async () => {
    const svc = service();
    const result = await createToolExecutor(options(svc)).execute('workflow_get_log', { id: 'log-1' });
    expect(result.ok).toBe(true);
    // The call went out with the key in its header, as given.
    expect(svc.requests[0]!.headers['x-api-key']).toBe(WF_KEY);
    expect(JSON.stringify(result)).toContain('[redacted]');
    expectNoSecretForm(result, ALL);
  });

  it('in an error that echoes every key in every form', async () => {
    const svc = service();
    const result = await createToolExecutor(options(svc)).execute('workflow_get_log', { id: 'bad' });
    expect(result).toMatchObject({ ok: false, error: { code: 'bad_request', status: 400 } });
    expectNoSecretForm(result, ALL);
  });
});

describe('the agents executor with secrets of the host\'s own (execute.secrets)', () => {
  it('masks those and every configured key, in every form', async () => {
    const svc = mockService(WF);
    const hostSecret = TELLING_SECRETS[2];
    const log = { id: 'log-2', workflowId: 'w', executionId: 'e', level: 'info', trigger: 'api', startedAt: '2026-11-27T10:00:00Z', executionData: { finalOutput: [...ALL, hostSecret].map(echoEveryForm).join(' || ') } };
    svc.on('GET', '/api/v1/logs/log-2', { status: 200, body: { data: log } });
    const base = options(svc);
    const executor = createToolExecutor({ ...base, execute: { ...base.execute, secrets: [hostSecret] } });
    const result = await executor.execute('workflow_get_log', { id: 'log-2' });
    expect(result.ok).toBe(true);
    expectNoSecretForm(result, [...ALL, hostSecret]);
  });
});

describe('the MCP server in process: no configured secret in any form', () => {
  const clients: Client[] = [];
  afterAll(async () => {
    for (const client of clients) await client.close();
  });

  async function connect(svc: ReturnType<typeof mockService>): Promise<Client> {
    const server = await createMcpServer(options(svc));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'secret-forms', version: '1.0.0' });
    await client.connect(clientSide);
    clients.push(client);
    return client;
  }

  it('in the structured and the text content of an answer and of an error', async () => {
    const svc = service();
    const client = await connect(svc);
    const ok = await client.callTool({ name: 'workflow_get_log', arguments: { id: 'log-1' } });
    const failed = await client.callTool({ name: 'workflow_get_log', arguments: { id: 'bad' } });
    expect(ok.isError).toBeFalsy();
    expect(failed.isError).toBe(true);
    expect(svc.requests).toHaveLength(2);
    expect(JSON.stringify(ok)).toContain('[redacted]');
    expectNoSecretForm([ok, failed], ALL);
  });
});
