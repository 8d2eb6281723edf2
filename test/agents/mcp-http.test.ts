import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveMcpHttp, type McpHttpServer, type ServeMcpHttpOptions } from '../../src/hosts/agents/mcp-http/serve.js';
import { executeTool } from '../../src/index.js';
import { startSandbox, type Sandbox } from '../../src/satellites/sandbox/index.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

/** One sandbox (chdb takes one per process); its two workflow keys are two tenants' workspaces. */
let sb: Sandbox;
const servers: McpHttpServer[] = [];
const clients: Client[] = [];

async function ingest(sb: Sandbox, rows: number): Promise<void> {
  const data = Array.from({ length: rows }, (_, i) => JSON.stringify({ timestamp: '2026-11-22 10:00:00', event: 'signup', user_id: `u${i}` })).join('\n');
  const result = await executeTool('tinybird_events', { base_url: sb.urls.tinybird, token: sb.credentials.tinybird.adminToken, datasource: 'events', data, wait: true });
  expect(result.success).toBe(true);
}

beforeAll(async () => {
  sb = await startSandbox({ servicePorts: false });
  await ingest(sb, 30);
});
afterAll(async () => {
  for (const client of clients) await client.close();
  for (const server of servers) await server.close();
  await sb?.close();
});

async function serve(options: ServeMcpHttpOptions = {}): Promise<McpHttpServer> {
  const server = await serveMcpHttp({ port: 0, ...options });
  servers.push(server);
  return server;
}

/** The official SDK client over Streamable HTTP, with these headers on every request. */
async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'http-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

/** expect.poll's wait: a loaded machine (CI, the bench beside it) takes longer than its default second. */
const poll = { timeout: 10_000 };
const text = (result: object) => ((result as { content: { text: string }[] }).content)[0]!.text;
const count = 'SELECT count() AS n FROM events FORMAT JSON';

/** A service that takes every request and answers none until told: for cancellation and progress. */
async function holdingService(): Promise<{ url: string; requests: IncomingMessage[]; aborted: Promise<IncomingMessage>; refuseAll(): void; close(): Promise<void> }> {
  const requests: IncomingMessage[] = [];
  const held: ServerResponse[] = [];
  let onAbort!: (req: IncomingMessage) => void;
  const aborted = new Promise<IncomingMessage>((resolve) => (onAbort = resolve));
  // A 400 is final: the harness does not retry it, so the call answers at once.
  const refuse = (res: ServerResponse) => res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"held, then refused"}');
  let refusing = false;
  const server: Server = createServer((req, res) => {
    requests.push(req);
    if (refusing) return refuse(res);
    held.push(res);
    res.once('close', () => {
      if (!res.writableFinished) onAbort(req);
    });
  });
  const serverAddress = await listenOnLoopback(server);
  return {
    url: serverAddress.origin,
    requests,
    aborted,
    refuseAll: () => {
      refusing = true;
      for (const res of held.splice(0)) refuse(res);
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe('flowblocks mcp over Streamable HTTP', { timeout: 30_000 }, () => {
  it('lists the same tools as stdio and runs a call against the sandbox', async () => {
    const server = await serve({ settings: { tinybird: { base_url: sb.urls.tinybird, token: sb.credentials.tinybird.adminToken } }, services: ['tinybird'], readOnly: true });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await connect(server.url);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'tinybird_query', 'tinybird_query_pipe', 'tinybird_get_job',
      'tinybird_list_datasources', 'tinybird_get_datasource', 'tinybird_list_pipes', 'tinybird_get_pipe', 'tinybird_list_jobs',
    ]);
    expect(JSON.stringify(tools)).not.toContain(sb.credentials.tinybird.adminToken);
    const result = await client.callTool({ name: 'tinybird_query', arguments: { query: count } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ output: { data: [{ n: 30 }] } });
  });

  it('answers bad params and an unknown tool with readable tool errors', async () => {
    const server = await serve({ settings: { tinybird: { base_url: sb.urls.tinybird, token: sb.credentials.tinybird.adminToken } } });
    const client = await connect(server.url);
    const bad = await client.callTool({ name: 'tinybird_query', arguments: { query: '', pipeline: 5 } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/^invalid_params: query: .*; pipeline: /);
    const unknown = await client.callTool({ name: 'tinybird_drop_everything', arguments: {} });
    expect(text(unknown)).toContain('no tool tinybird_drop_everything here');
  });

  it('answers 401 without the bearer token, before any tool runs', async () => {
    const service = await holdingService();
    try {
      const server = await serve({ token: 'mcp-server-token-1234', settings: { tinybird: { base_url: service.url, token: 'p.held' } }, allowBaseUrls: [service.url] });
      // A raw call that would reach the service if it ran: refused at the door.
      const raw = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer wrong-token-of-any-length' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'tinybird_query', arguments: { query: count } } }),
      });
      expect(raw.status).toBe(401);
      expect(raw.headers.get('www-authenticate')).toBe('Bearer');
      expect(await raw.text()).not.toContain('mcp-server-token-1234');
      await expect(connect(server.url)).rejects.toMatchObject({ code: 401 });
      await expect(connect(server.url, { Authorization: 'Bearer mcp-server-token-123' })).rejects.toMatchObject({ code: 401 });
      expect(service.requests).toHaveLength(0);
      const client = await connect(server.url, { Authorization: 'Bearer mcp-server-token-1234' });
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await service.close();
    }
  });

  it('refuses a page from an Origin it does not allow, and lets in one it was told to', async () => {
    const server = await serve({ allowOrigins: ['https://sim.example.com'] });
    await expect(connect(server.url, { Origin: 'http://rebound.attacker.example:8787' })).rejects.toMatchObject({ code: 403 });
    expect((await (await connect(server.url, { Origin: 'https://sim.example.com' })).listTools()).tools.length).toBeGreaterThan(0);
    expect((await (await connect(server.url, { Origin: 'http://localhost:6274' })).listTools()).tools.length).toBeGreaterThan(0);
  });

  it('takes credentials per request from headers, a base URL only for an allowed host, and masks them', async () => {
    const server = await serve({ services: ['tinybird', 'loops'], allowBaseUrls: [sb.urls.tinybird] });
    const token = sb.credentials.tinybird.adminToken;
    const loopsKey = 'loops-key-of-this-request';
    const client = await connect(server.url, { 'X-Tinybird-Token': token, 'X-Tinybird-Base-Url': sb.urls.tinybird, 'X-Loops-Api-Key': loopsKey });
    const result = await client.callTool({ name: 'tinybird_query', arguments: { query: count } });
    expect(result.structuredContent).toMatchObject({ output: { data: [{ n: 30 }] } });
    // The header's token, echoed by the service, comes back masked.
    const echo = await client.callTool({ name: 'tinybird_query', arguments: { query: `SELECT '${token}' AS t FORMAT JSON` } });
    expect(JSON.stringify(echo)).not.toContain(token);
    expect(echo.structuredContent).toMatchObject({ output: { data: [{ t: '[redacted]' }] } });
    // So does another service's key the request carried, in a Tinybird answer.
    const other = await client.callTool({ name: 'tinybird_query', arguments: { query: `SELECT '${loopsKey}' AS k, '${encodeURIComponent(`${loopsKey}/x`)}' AS u FORMAT JSON` } });
    expect(JSON.stringify(other)).not.toContain(loopsKey);

    // Another host is not allowed: refused before anything runs, the URL not repeated.
    const elsewhere = 'http://10.0.0.7:7181';
    const refused = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-tinybird-token': token, 'x-tinybird-base-url': elsewhere },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(refused.status).toBe(400);
    const body = await refused.text();
    expect(body).toContain('X-Tinybird-Base-Url names a base URL this server does not allow');
    expect(body).not.toContain(elsewhere);
    expect(body).not.toContain(token);
  });

  it('serves two tenants at once, each seeing only its own data', async () => {
    const server = await serve({ services: ['workflow'], allowBaseUrls: [sb.urls.workflow] });
    const { apiKey, workspaceId, freeApiKey, freeWorkspaceId } = sb.credentials.workflow;
    const [a, b] = await Promise.all([
      connect(server.url, { 'X-Workflow-Api-Key': apiKey, 'X-Workflow-Base-Url': sb.urls.workflow }),
      connect(server.url, { 'X-Workflow-Api-Key': freeApiKey, 'X-Workflow-Base-Url': sb.urls.workflow }),
    ]);
    await Promise.all([
      ...Array.from({ length: 3 }, () => a.callTool({ name: 'workflow_execute', arguments: { workflowId: 'wf_broken_query' } })),
      ...Array.from({ length: 2 }, () => b.callTool({ name: 'workflow_execute', arguments: { workflowId: 'wf_free_lists' } })),
    ]);
    const [logsA, logsB] = await Promise.all([
      a.callTool({ name: 'workflow_list_logs', arguments: { workspaceId, limit: 50 } }),
      b.callTool({ name: 'workflow_list_logs', arguments: { workspaceId: freeWorkspaceId, limit: 50 } }),
    ]);
    const ids = (result: object) => new Set(((result as { structuredContent: unknown }).structuredContent as { output: { data: { workflowId: string }[] } }).output.data.map((log) => log.workflowId));
    expect(ids(logsA)).toEqual(new Set(['wf_broken_query']));
    expect(ids(logsB)).toEqual(new Set(['wf_free_lists']));
    // Neither reaches the other's workspace.
    const crossed = await Promise.all([
      a.callTool({ name: 'workflow_list_logs', arguments: { workspaceId: freeWorkspaceId } }),
      b.callTool({ name: 'workflow_list_logs', arguments: { workspaceId } }),
    ]);
    for (const result of crossed) expect(result.isError).toBe(true);
    // A client without headers gets no one's credentials: this server has none of its own.
    const nobody = await connect(server.url);
    const missing = await nobody.callTool({ name: 'workflow_list_logs', arguments: { workspaceId } });
    expect(text(missing)).toContain('apiKey: not configured');
  });
});

describe('a hostile service behind a client\'s own base URL', { timeout: 30_000 }, () => {
  it('gets back none of the credentials the request sent, in any form the mask knows', async () => {
    const tb = 'p.header-token-"with/quote';
    const loops = 'loops/header"key';
    const wf = 'wf/header"key-40';
    const listing = `Bearer ${loops} | x-api-key: ${wf} | tb: ${tb}`;
    const octet = (body: string) => Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from(body), Buffer.from([255])]);
    // It echoes every credential of the request, whichever header carried it, as JSON, as an error and as bytes.
    const hostile = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/error') return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `bad key: ${listing}` }));
      if (url.pathname === '/binary') return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(octet(`key=${encodeURIComponent(wf)}`));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ echoed: listing, encoded: encodeURIComponent(listing), headers: req.headers }));
    });
    const { origin: base } = await listenOnLoopback(hostile);
    try {
      const server = await serve({ allowBaseUrls: [base, sb.urls.tinybird] });
      const client = await connect(server.url, {
        'X-Tinybird-Token': tb,
        'X-Tinybird-Base-Url': sb.urls.tinybird,
        'X-Loops-Api-Key': loops,
        'X-Workflow-Api-Key': wf,
        'X-Workflow-Base-Url': base,
      });
      const forms = (secret: string) => {
        const escaped = JSON.stringify(secret).slice(1, -1);
        return [secret, encodeURIComponent(secret), escaped, escaped.split('/').join('\\/')];
      };
      for (const path of ['/echo', '/error', '/binary']) {
        const result = await client.callTool({ name: 'workflow_api_call', arguments: { path } });
        const seen = JSON.stringify(result);
        const decoded = [...seen.matchAll(/"([A-Za-z0-9+/]{16,}={0,2})"/g)].map((m) => Buffer.from(m[1]!, 'base64').toString('latin1'));
        for (const secret of [tb, loops, wf]) for (const form of forms(secret)) expect([seen, ...decoded].join('\n'), `${path}: ${form}`).not.toContain(form);
        if (path === '/echo') expect(seen).toContain('[redacted]');
        else expect(result.isError, path).toBe(true);
      }
    } finally {
      hostile.closeAllConnections();
      await new Promise((resolve) => hostile.close(resolve));
    }
  });
});

describe('long calls: cancellation and progress', { timeout: 30_000 }, () => {
  it('aborts the request to the service when the client cancels the call', async () => {
    const service = await holdingService();
    try {
      const server = await serve({ services: ['tinybird'], settings: { tinybird: { base_url: service.url, token: 'p.held-token' } } });
      const client = await connect(server.url);
      const stop = new AbortController();
      const call = client.callTool({ name: 'tinybird_query', arguments: { query: count } }, undefined, { signal: stop.signal });
      await expect.poll(() => service.requests.length, poll).toBe(1);
      expect(service.requests[0]!.url).toBe('/v0/sql');
      stop.abort('the user pressed stop');
      await expect(call).rejects.toThrow();
      // The SDK client sent notifications/cancelled in a request of its own; the call's request to the service ends.
      const aborted = await service.aborted;
      expect(aborted).toBe(service.requests[0]);
      await expect.poll(() => server.handler.inFlight, poll).toBe(0);
    } finally {
      await service.close();
    }
  });

  it('aborts the request to the service when the client drops the HTTP request', async () => {
    const service = await holdingService();
    try {
      const server = await serve({ services: ['tinybird'], settings: { tinybird: { base_url: service.url, token: 'p.held-token' } } });
      const dropped = new AbortController();
      const pending = fetch(server.url, {
        method: 'POST',
        signal: dropped.signal,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'tinybird_query', arguments: { query: count } } }),
      });
      await expect.poll(() => service.requests.length, poll).toBe(1);
      dropped.abort();
      await expect(pending).rejects.toThrow();
      expect(await service.aborted).toBe(service.requests[0]);
    } finally {
      await service.close();
    }
  });

  it('sends progress notifications while a call runs, when the client asks for them', async () => {
    const service = await holdingService();
    try {
      const server = await serve({ services: ['tinybird'], progressIntervalMs: 40, settings: { tinybird: { base_url: service.url, token: 'p.held-token' } } });
      const client = await connect(server.url);
      const seen: { progress: number; message?: string }[] = [];
      const call = client.callTool({ name: 'tinybird_query', arguments: { query: count } }, undefined, { onprogress: (p) => void seen.push(p) });
      await expect.poll(() => seen.length, poll).toBeGreaterThanOrEqual(3);
      service.refuseAll();
      const result = await call;
      expect(result.isError).toBe(true);
      expect(seen[0]).toEqual({ progress: 1, message: 'tinybird_query: request' });
      expect(seen[1]!.message).toMatch(/^running for \d+ s$/);
      expect(seen.map((p) => p.progress)).toEqual(seen.map((_, i) => i + 1));
      expect(JSON.stringify(seen)).not.toContain('p.held-token');
    } finally {
      await service.close();
    }
  });
});

describe('bounds', { timeout: 30_000 }, () => {
  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });
  const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'tinybird_query', arguments: { query: count } } });

  it('refuses a request body over the limit with 413', async () => {
    const server = await serve({ maxRequestBytes: 2048 });
    const big = await post(server.url, { ...call(1), params: { name: 'tinybird_query', arguments: { query: `SELECT '${'x'.repeat(4096)}'` } } });
    expect(big.status).toBe(413);
    expect(await big.text()).toContain('a request body must be at most 2048 bytes');
    expect((await post(server.url, call(2))).status).toBe(200);
  });

  it('refuses calls past the per-client and per-server limits with 429, and takes them again once answered', async () => {
    const service = await holdingService();
    try {
      const server = await serve({ services: ['tinybird'], maxConcurrentCallsPerClient: 2, maxConcurrentCalls: 3, allowBaseUrls: [service.url] });
      const as = (tenant: string) => ({ 'x-tinybird-token': `p.${tenant}-token`, 'x-tinybird-base-url': service.url });
      const held = [post(server.url, call(1), as('a')), post(server.url, call(2), as('a'))];
      await expect.poll(() => service.requests.length, poll).toBe(2);
      const third = await post(server.url, call(3), as('a'));
      expect(third.status).toBe(429);
      expect(third.headers.get('retry-after')).toBe('1');
      expect(await third.text()).toContain('at most 2 per client');
      held.push(post(server.url, call(4), as('b')));
      await expect.poll(() => service.requests.length, poll).toBe(3);
      const fourth = await post(server.url, call(5), as('c'));
      expect(fourth.status).toBe(429);
      expect(await fourth.text()).toContain('at most 3 on this server');
      // Listing tools is no call: it is never refused for the bound.
      expect((await post(server.url, { jsonrpc: '2.0', id: 6, method: 'tools/list' }, as('a'))).status).toBe(200);
      service.refuseAll();
      await Promise.all(held.map(async (answer) => expect((await answer).status).toBe(200)));
      expect((await post(server.url, call(7), as('a'))).status).toBe(200);
    } finally {
      await service.close();
    }
  });

  it('cuts a result over maxResultBytes, both copies together, and says how to ask for less', async () => {
    const server = await serve({ maxResultBytes: 20_000, settings: { tinybird: { base_url: sb.urls.tinybird, token: sb.credentials.tinybird.adminToken } } });
    const client = await connect(server.url);
    const small = await client.callTool({ name: 'tinybird_query', arguments: { query: count } });
    expect(small.isError).toBeFalsy();
    expect(small.structuredContent).not.toHaveProperty('truncated');
    const large = await client.callTool({ name: 'tinybird_query', arguments: { query: "SELECT repeat('x', 3000) AS pad, user_id FROM events FORMAT JSON" } });
    expect(large.isError).toBeFalsy();
    expect(large.structuredContent).toMatchObject({ truncated: { unit: 'bytes' }, notes: [expect.stringContaining('ask for less')] });
    expect(Buffer.byteLength(text(large)) + Buffer.byteLength(JSON.stringify(large.structuredContent))).toBeLessThanOrEqual(20_000);
  });
});

describe('deployment', { timeout: 30_000 }, () => {
  it('paces every tenant through the pacer it is given (the fleet\'s Redis one with --redis), per credential, by digest', async () => {
    const keys: string[] = [];
    const pacer = { acquire: async (spec: { key: string }) => (keys.push(spec.key), { done: () => {} }) };
    const server = await serve({ services: ['loops'], allowBaseUrls: [sb.urls.loops], execute: { pacer } });
    for (const apiKey of [sb.credentials.loops.apiKey, 'loops-other-tenant-key']) {
      const client = await connect(server.url, { 'X-Loops-Api-Key': apiKey, 'X-Loops-Base-Url': sb.urls.loops });
      await client.callTool({ name: 'loops_test_api_key', arguments: {} });
    }
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(2);
    for (const key of keys) expect(key).toMatch(/^loops:[0-9a-f]{16}$/);
  });

  it('refuses to bind a non-loopback address without a token', async () => {
    await expect(serveMcpHttp({ host: '0.0.0.0', port: 0 })).rejects.toThrow('without FLOWBLOCKS_MCP_TOKEN the server binds only a loopback address');
    const withToken = await serve({ host: '0.0.0.0', token: 'deploy-token-1234' });
    expect(withToken.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/mcp$/);
  });

  it('answers its health check, and drains: in-flight calls finish, new ones get 503', async () => {
    const service = await holdingService();
    try {
      const server = await serve({ services: ['tinybird'], settings: { tinybird: { base_url: service.url, token: 'p.held-token' } } });
      const health = new URL('/health', server.url);
      expect(await (await fetch(health)).json()).toEqual({ status: 'ok', inFlight: 0 });
      const client = await connect(server.url);
      const call = client.callTool({ name: 'tinybird_query', arguments: { query: count } });
      await expect.poll(() => service.requests.length, poll).toBe(1);
      const drained = server.handler.drain();
      const late = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
      expect(late.status).toBe(503);
      expect((await fetch(health)).status).toBe(503);
      let done = false;
      void drained.then(() => (done = true));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(done).toBe(false);
      // The held call is answered (here: refused), and the drain completes after it.
      service.refuseAll();
      expect((await call).isError).toBe(true);
      await drained;
    } finally {
      await service.close();
    }
  });
});
