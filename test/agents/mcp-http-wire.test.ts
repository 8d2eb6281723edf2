/**
 * The MCP server's Streamable HTTP wire, byte for byte: what a POST gets back (a JSON body, an
 * event stream, 202, each refusal, each JSON-RPC error) matches what the SDK's own `Server` on
 * its own `StreamableHTTPServerTransport` answers, since flowblocks answers the JSON-RPC and
 * writes it to Node's response itself; and a call builds no web `Request` or `Response` on the
 * way (the cost that transport added per call).
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server as HttpServer } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, JSONRPCMessageSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMcpServer } from '../../src/hosts/agents/mcp-server.js';
import { serveMcpHttp, type McpHttpServer } from '../../src/hosts/agents/mcp-http/serve.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

const TOKEN = 'p.wire-test-token';
const SQL_ANSWER = { meta: [{ name: 'n', type: 'UInt64' }], data: [{ n: 42 }], rows: 1, statistics: { elapsed: 0.001, rows_read: 1, bytes_read: 8 } };

/** What the stub Tinybird received, one entry per request. */
interface Received {
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
}
const received: Received[] = [];
let tinybird: HttpServer;
let served: McpHttpServer;
/** The SDK's documented stateless server on its own transport, with the same tools (stdio's SDK server): the reference wire. */
let reference: HttpServer;
let referenceUrl: string;

beforeAll(async () => {
  tinybird = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization, body });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(SQL_ANSWER));
    });
  });
  const { origin: tinybirdUrl } = await listenOnLoopback(tinybird);
  const options = { services: ['tinybird' as const], settings: { tinybird: { base_url: tinybirdUrl, token: TOKEN } } };
  served = await serveMcpHttp({ port: 0, ...options });
  reference = createServer((req, res) => {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    void createMcpServer(options)
      .then((server) => server.connect(transport))
      .then(() => transport.handleRequest(req, res));
  });
  referenceUrl = `${(await listenOnLoopback(reference)).origin}/mcp`;
});
afterAll(async () => {
  await served?.close();
  for (const server of [tinybird, reference]) await new Promise((resolve) => server?.close(resolve));
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: unknown;
}

const JSON_AND_SSE = 'application/json, text/event-stream';

/** A POST by hand with node:http (no fetch, so no web Request or Response in this process either). */
function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: JSON_AND_SSE, ...headers } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode!, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const call = (id: number, meta?: object) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'tinybird_query', arguments: { query: 'SELECT count() AS n FROM events FORMAT JSON' }, ...(meta ? { _meta: meta } : {}) },
});
const structured = { output: { meta: SQL_ANSWER.meta, data: SQL_ANSWER.data, rows: 1, statistics: SQL_ANSWER.statistics } };

describe('the Streamable HTTP wire of a stateless POST', () => {
  it('answers a call as one JSON body, after one request to the service', async () => {
    received.length = 0;
    const answer = await post(served.url, call(7));
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', url: '/v0/sql', authorization: `Bearer ${TOKEN}` });
    expect(new URLSearchParams(received[0]!.body).get('q')).toBe('SELECT count() AS n FROM events FORMAT JSON');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json');
    const result = (answer.json as { result: { content: { text: string }[]; structuredContent: unknown } }).result;
    expect(answer.json).toMatchObject({ jsonrpc: '2.0', id: 7 });
    expect(result.structuredContent).toMatchObject(structured);
    expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent);
    expect(answer.text).not.toContain(TOKEN);
  });

  it('answers a call that asked for progress as an event stream: progress, then the result, then the end', async () => {
    const answer = await post(served.url, call(8, { progressToken: 'p1' }));
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/event-stream');
    expect(answer.headers['cache-control']).toBe('no-cache, no-transform');
    const events = answer.text.split('\n\n').filter(Boolean);
    for (const event of events) expect(event).toMatch(/^event: message\ndata: /);
    const messages = events.map((event) => JSON.parse(event.slice('event: message\ndata: '.length)) as { method?: string; id?: number; params?: { progressToken: string; progress: number; message: string } });
    const progress = messages.filter((message) => message.method === 'notifications/progress');
    expect(progress.map((message) => message.params)).toEqual([
      { progressToken: 'p1', progress: 1, message: 'tinybird_query: request' },
      { progressToken: 'p1', progress: 2, message: expect.stringMatching(/^tinybird_query: answered 200 in \d+ ms$/) },
    ]);
    expect(messages.at(-1)).toMatchObject({ jsonrpc: '2.0', id: 8, result: { structuredContent: structured } });
    expect(messages).toHaveLength(3);
  });

  it('answers a batch with its answers in the batch\'s order, and a notification alone with 202', async () => {
    const batch = [
      { jsonrpc: '2.0', id: 'b', method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'a', method: 'ping' },
    ];
    const ours = await post(served.url, batch);
    expect(ours.status).toBe(200);
    expect(ours.json).toEqual([
      { jsonrpc: '2.0', id: 'b', result: {} },
      { jsonrpc: '2.0', id: 'a', result: {} },
    ]);
    const notification = await post(served.url, { jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(notification.status).toBe(202);
    expect(notification.text).toBe('');
  });

  // Each case is answered the same by the SDK's own server and transport: status, content type
  // and body, byte for byte; `calls` is how many requests to the service each side makes.
  const initialize = (protocolVersion: unknown) => ({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'wire', version: '1' } } });
  const request = (method: string, params?: unknown, id: unknown = 5) => ({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
  const cases: { name: string; body: unknown; headers?: Record<string, string>; calls?: number }[] = [
    { name: 'tools/list', body: request('tools/list') },
    { name: 'tools/list with a cursor', body: request('tools/list', { cursor: 'next' }) },
    { name: 'tools/list with a cursor that is not a string (invalid params)', body: request('tools/list', { cursor: 5 }) },
    { name: 'an initialize', body: initialize('2025-06-18') },
    { name: 'an initialize of the latest version', body: initialize('2025-11-25') },
    { name: 'an initialize of a version the SDK does not know (the latest answers)', body: initialize('2024-01-01') },
    { name: 'an initialize without its params (invalid params)', body: request('initialize', { protocolVersion: 1 }) },
    { name: 'notifications/initialized', body: { jsonrpc: '2.0', method: 'notifications/initialized' } },
    { name: 'a ping', body: request('ping') },
    { name: 'a ping with params and a string id', body: request('ping', { extra: true, _meta: { progressToken: 'p' } }, 'ping-1') },
    { name: 'a ping whose _meta holds more than a progress token', body: request('ping', { _meta: { progressToken: 3, 'io.modelcontextprotocol/related-task': { taskId: 't' }, other: 1 } }) },
    { name: 'a call', body: call(11), calls: 1 },
    { name: 'a call without arguments', body: request('tools/call', { name: 'tinybird_query' }) },
    { name: 'a call of a tool that does not exist', body: request('tools/call', { name: 'no_such_tool', arguments: {} }) },
    { name: 'a call whose arguments the tool refuses', body: request('tools/call', { name: 'tinybird_query', arguments: { query: 42 } }) },
    { name: 'a call without a name (invalid params)', body: request('tools/call', { arguments: {} }) },
    { name: 'a call without params (invalid params)', body: request('tools/call') },
    { name: 'a call whose arguments are an array (invalid params)', body: request('tools/call', { name: 'tinybird_query', arguments: [1] }) },
    { name: 'a call that asks for a task', body: request('tools/call', { name: 'tinybird_query', arguments: {}, task: { ttl: 1000 } }) },
    { name: 'a ping that asks for a task', body: request('ping', { task: {} }) },
    { name: 'notifications/cancelled of a call not running', body: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99, reason: 'no' } } },
    { name: 'a malformed notifications/cancelled', body: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: null } } },
    { name: 'a response from the client', body: { jsonrpc: '2.0', id: 1, result: {} } },
    { name: 'an error from the client', body: { jsonrpc: '2.0', id: 1, error: { code: -1, message: 'no' } } },
    { name: 'an empty batch', body: [] },
    { name: 'a batch of requests and a notification', body: [request('ping', undefined, 'b'), { jsonrpc: '2.0', method: 'notifications/initialized' }, request('tools/list', undefined, 'a'), call(12)], calls: 1 },
    { name: 'a batch whose requests share an id', body: [request('ping', undefined, 1), request('tools/list', undefined, 1)] },
    { name: 'a client that does not accept an event stream', body: call(1), headers: { accept: 'application/json' } },
    { name: 'a body that is not said to be JSON', body: call(1), headers: { 'content-type': 'text/plain' } },
    { name: 'a body that is not JSON', body: '{"jsonrpc":' },
    { name: 'a body that is not JSON from a client that does not accept an event stream', body: '{"jsonrpc":', headers: { accept: 'application/json' } },
    { name: 'a message that is not JSON-RPC', body: { hello: 'world' } },
    { name: 'a message of another JSON-RPC version', body: { jsonrpc: '1.0', id: 1, method: 'ping' } },
    { name: 'a request whose id is not an integer', body: request('ping', undefined, 1.5) },
    { name: 'a request whose id is null', body: request('ping', undefined, null) },
    { name: 'a request whose params are an array', body: request('ping', [1]) },
    { name: 'a request whose progress token is not an integer', body: request('ping', { _meta: { progressToken: 1.5 } }) },
    { name: 'a request with a key JSON-RPC does not have', body: { ...request('ping'), extra: 1 } },
    { name: 'an unknown protocol version', body: call(1), headers: { 'mcp-protocol-version': '1999-01-01' } },
    { name: 'an initialize in a batch', body: [initialize('2025-06-18'), { jsonrpc: '2.0', id: 1, method: 'ping' }] },
    { name: 'a batch of 101 messages', body: Array.from({ length: 101 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'ping' })) },
    { name: 'an unknown method', body: request('resources/list') },
    { name: 'a method the SDK server has only with another capability', body: request('logging/setLevel', { level: 'info' }) },
  ];
  for (const { name, body, headers, calls = 0 } of cases) {
    it(`answers ${name} as the SDK's own server and transport do`, async () => {
      received.length = 0;
      const [ours, sdk] = await Promise.all([post(served.url, body, headers), post(referenceUrl, body, headers)]);
      expect({ status: ours.status, type: ours.headers['content-type'] }).toEqual({ status: sdk.status, type: sdk.headers['content-type'] });
      expect(ours.text).toBe(sdk.text);
      expect(received).toHaveLength(2 * calls);
      expect(new Set(received.map((r) => JSON.stringify(r)))).toHaveProperty('size', Math.min(calls, 1));
    });
  }

  it('answers a call without building a web Request or Response (what the SDK\'s Node transport cost per call)', async () => {
    const built: string[] = [];
    const { Request: WebRequest, Response: WebResponse } = globalThis;
    const counted = <T extends new (...args: never[]) => object>(type: T, name: string): T =>
      new Proxy(type, {
        construct(target, args, newTarget) {
          built.push(name);
          return Reflect.construct(target, args, newTarget) as object;
        },
      });
    globalThis.Request = counted(WebRequest, 'Request');
    globalThis.Response = counted(WebResponse, 'Response');
    try {
      const answer = await post(served.url, call(9));
      expect(answer.json).toMatchObject({ id: 9, result: { structuredContent: structured } });
    } finally {
      globalThis.Request = WebRequest;
      globalThis.Response = WebResponse;
    }
    expect(built).toEqual([]);
  });

  it('answers the usual call, list and ping without an SDK Server or a zod parse of the message (what they cost per call)', async () => {
    const servers = vi.spyOn(Server.prototype, 'connect');
    const parses = [JSONRPCMessageSchema, CallToolRequestSchema, ListToolsRequestSchema].map((schema) => vi.spyOn(schema, 'safeParse'));
    try {
      const answers = await Promise.all([post(served.url, call(21)), post(served.url, { jsonrpc: '2.0', id: 22, method: 'tools/list' }), post(served.url, { jsonrpc: '2.0', id: 23, method: 'ping' })]);
      expect(answers.map((answer) => answer.json)).toMatchObject([{ id: 21, result: { structuredContent: structured } }, { id: 22, result: { tools: expect.arrayContaining([expect.objectContaining({ name: 'tinybird_query' })]) } }, { id: 23, result: {} }]);
      expect(servers).not.toHaveBeenCalled();
      for (const parse of parses) expect(parse).not.toHaveBeenCalled();
      // What the hand check does not cover goes to the SDK's schema: the spy sees it.
      expect((await post(served.url, { jsonrpc: '2.0', id: 1, result: {} })).status).toBe(202);
      expect(parses[0]).toHaveBeenCalledTimes(1);
    } finally {
      servers.mockRestore();
      for (const parse of parses) parse.mockRestore();
    }
  });
});
