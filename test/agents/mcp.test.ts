import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer, type McpServerOptions } from '../../src/hosts/agents/index.js';
import { executeTool } from '../../src/index.js';
import { startSandbox, type Sandbox } from '../../src/satellites/sandbox/index.js';

let sb: Sandbox;
let settings: McpServerOptions['settings'];
const clients: Client[] = [];

beforeAll(async () => {
  sb = await startSandbox({ loops: { requestsPerSecond: 1000 } });
  settings = {
    tinybird: { base_url: sb.urls.tinybird, token: sb.credentials.tinybird.adminToken },
    loops: { base_url: sb.urls.loops, apiKey: sb.credentials.loops.apiKey },
    workflow: { base_url: sb.urls.workflow, apiKey: sb.credentials.workflow.apiKey },
  };
  const rows = Array.from({ length: 30 }, (_, i) => JSON.stringify({ timestamp: '2026-11-22 10:00:00', event: i % 2 ? 'signup' : 'login', user_id: `u${i}` }));
  const ingest = await executeTool('tinybird_events', { base_url: sb.urls.tinybird, token: sb.credentials.tinybird.adminToken, datasource: 'events', data: rows.join('\n'), wait: true });
  expect(ingest.success).toBe(true);
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await sb?.close();
});

/** An MCP client talking to a fresh server over the SDK's in-memory transport pair. */
async function connect(options: McpServerOptions = {}): Promise<Client> {
  const server = await createMcpServer({ settings, ...options });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

describe('flowblocks MCP server', () => {
  it('lists every tool with its llm schema, scopes and hints', async () => {
    const { tools } = await (await connect()).listTools();
    expect(tools).toHaveLength(40);
    const query = tools.find((tool) => tool.name === 'tinybird_query')!;
    expect(query.annotations).toEqual({ title: 'Run SQL query', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true });
    expect(query.description).toContain('Token scopes: PIPES:READ:<pipe>');
    expect(Object.keys(query.inputSchema.properties!)).toEqual(['query', 'pipeline']);
    const truncate = tools.find((tool) => tool.name === 'tinybird_truncate_datasource')!;
    expect(truncate.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    for (const tool of tools) {
      const names = Object.keys(tool.inputSchema.properties ?? {});
      for (const hidden of ['token', 'apiKey', 'base_url']) expect(names, tool.name).not.toContain(hidden);
    }
    // Nothing the server sends to a client carries a credential.
    const listing = JSON.stringify(tools);
    for (const secret of [sb.credentials.tinybird.adminToken, sb.credentials.loops.apiKey, sb.credentials.workflow.apiKey]) expect(listing).not.toContain(secret);
  });

  it('offers only some services, or only read-only tools', async () => {
    const { tools } = await (await connect({ services: ['tinybird', 'workflow'], readOnly: true })).listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'tinybird_query', 'tinybird_query_pipe', 'tinybird_get_job',
      'tinybird_list_datasources', 'tinybird_get_datasource', 'tinybird_list_pipes', 'tinybird_get_pipe', 'tinybird_list_jobs',
      'workflow_get_job', 'workflow_list_logs', 'workflow_get_log', 'workflow_get_execution',
    ]);
    expect(tools.every((tool) => tool.annotations?.readOnlyHint)).toBe(true);
  });

  it('runs a call against the sandbox and answers with structured content', async () => {
    const client = await connect();
    const result = await client.callTool({ name: 'tinybird_query', arguments: { query: 'SELECT event, count() AS n FROM events GROUP BY event ORDER BY event FORMAT JSON' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ output: { data: [{ event: 'login', n: 15 }, { event: 'signup', n: 15 }], rows: 2 } });
    expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toEqual(result.structuredContent);
  });

  it('drops a model value for a credential or base URL and uses the configured ones', async () => {
    const client = await connect();
    const result = await client.callTool({
      name: 'tinybird_query',
      arguments: { query: 'SELECT count() AS n FROM events FORMAT JSON', token: 'p.model-made-up', base_url: 'http://127.0.0.1:9/evil' },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ output: { data: [{ n: 30 }] } });
  });

  it('answers bad arguments with a readable tool error, not a protocol error', async () => {
    const client = await connect();
    const result = await client.callTool({ name: 'tinybird_query', arguments: { query: '', pipeline: 5 } });
    expect(result.isError).toBe(true);
    const text = (result.content as { text: string }[])[0]!.text;
    expect(text).toMatch(/^invalid_params: query: .*; pipeline: /);
    expect(result.structuredContent).toMatchObject({ error: { code: 'invalid_params', issues: [{ path: 'query' }, { path: 'pipeline' }] } });

    const unknown = await client.callTool({ name: 'tinybird_drop_everything', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect((unknown.content as { text: string }[])[0]!.text).toContain('no tool tinybird_drop_everything here');
  });

  it('says a missing credential is the user\'s to configure, and never echoes a secret', async () => {
    const client = await connect({ settings: { ...settings, loops: { base_url: sb.urls.loops } } });
    const missing = await client.callTool({ name: 'loops_test_api_key', arguments: {} });
    expect(missing.isError).toBe(true);
    expect((missing.content as { text: string }[])[0]!.text).toContain('apiKey: not configured: the user must set loops apiKey');

    const wrong = await connect({ settings: { ...settings, tinybird: { ...settings!.tinybird, token: 'p.wrong-but-secret' } } });
    const refused = await wrong.callTool({ name: 'tinybird_query', arguments: { query: 'SELECT 1 FORMAT JSON' } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused)).not.toContain('p.wrong-but-secret');
  });
});

describe('bounded results', () => {
  it('caps the rows a query hands back and says how many there were', async () => {
    const client = await connect({ maxRows: 5 });
    const result = await client.callTool({ name: 'tinybird_query', arguments: { query: 'SELECT user_id FROM events ORDER BY user_id FORMAT JSON' } });
    const structured = result.structuredContent as { output: { data: unknown[]; rows: number }; truncated: unknown; notes: string[] };
    expect(structured.output.data).toHaveLength(5);
    expect(structured.output.rows).toBe(30);
    expect(structured.truncated).toEqual({ field: 'data', returned: 5, total: 30, unit: 'rows' });
    expect(structured.notes).toContain('returned 5 of 30 rows; aggregate or add a LIMIT to see the rest');

    const csv = await client.callTool({ name: 'tinybird_query', arguments: { query: 'SELECT user_id FROM events ORDER BY user_id FORMAT CSV' } });
    expect((csv.structuredContent as { output: { data: string } }).output.data.split('\n')).toHaveLength(6);
    expect((csv.structuredContent as { truncated: unknown }).truncated).toEqual({ field: 'data', returned: 5, total: 30, unit: 'lines' });
  });

  it('hands back a list page in parts, and the cursor walks every item exactly once', async () => {
    const base = { base_url: sb.urls.workflow, apiKey: sb.credentials.workflow.apiKey };
    for (let i = 0; i < 7; i++) {
      const run = await executeTool('workflow_execute', { ...base, workflowId: 'wf_broken_query' });
      expect(run.meta.status).toBeDefined();
    }
    const direct = await executeTool('workflow_list_logs', { ...base, workspaceId: 'ws_sandbox', limit: 4 });
    expect(direct.success).toBe(true);

    const client = await connect({ maxItems: 3 });
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let calls = 0; calls < 20; calls++) {
      const result = await client.callTool({ name: 'workflow_list_logs', arguments: { workspaceId: 'ws_sandbox', limit: 4, ...(cursor ? { cursor } : {}) } });
      expect(result.isError).toBeFalsy();
      const output = (result.structuredContent as { output: { data: { id: string }[]; nextCursor: string | null } }).output;
      expect(output.data.length).toBeLessThanOrEqual(3);
      seen.push(...output.data.map((entry) => entry.id));
      cursor = output.nextCursor;
      if (!cursor) break;
    }
    expect(cursor).toBeNull();
    expect(seen.length).toBeGreaterThanOrEqual(7);
    expect(new Set(seen).size).toBe(seen.length);
    // The first service page of 4 came back as 3 + 1, in the service's order.
    expect(seen.slice(0, 4)).toEqual(direct.success ? direct.output.data.map((entry) => entry.id) : []);
  });

  it('bounds a nested list (Loops templates) the same way', async () => {
    const client = await connect({ maxItems: 1 });
    const first = await client.callTool({ name: 'loops_list_transactional_emails', arguments: {} });
    const page = (first.structuredContent as { output: { transactionalEmails: { id: string }[]; pagination: { nextCursor: string } } }).output;
    // The service lists the newest first: the execution alert, the draft, then the two older published ones.
    expect(page.transactionalEmails.map((t) => t.id)).toEqual(['tx_execution_alert']);
    expect(page.pagination.nextCursor).toMatch(/^fbp1\./);
    const draft = await client.callTool({ name: 'loops_list_transactional_emails', arguments: { cursor: page.pagination.nextCursor } });
    const drafts = (draft.structuredContent as { output: { transactionalEmails: { id: string }[]; pagination: { nextCursor: string } } }).output;
    expect(drafts.transactionalEmails.map((t) => t.id)).toEqual(['tx_draft_invoice']);
    const second = await client.callTool({ name: 'loops_list_transactional_emails', arguments: { cursor: drafts.pagination.nextCursor } });
    const rest = (second.structuredContent as { output: { transactionalEmails: { id: string }[]; pagination: { nextCursor: string } } }).output;
    expect(rest.transactionalEmails.map((t) => t.id)).toEqual(['tx_daily_report']);
    const third = await client.callTool({ name: 'loops_list_transactional_emails', arguments: { cursor: rest.pagination.nextCursor } });
    const last = (third.structuredContent as { output: { transactionalEmails: { id: string }[]; pagination: { nextCursor: string | null } } }).output;
    expect(last.transactionalEmails.map((t) => t.id)).toEqual(['tx_welcome']);
    expect(last.pagination.nextCursor).toBeNull();
  });
});
