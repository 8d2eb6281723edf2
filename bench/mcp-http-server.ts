/**
 * The MCP-over-HTTP bench's server process: `flowblocks/agents`' HTTP server (from dist/, what
 * users run) with Tinybird's settings pointing at the bench's peer. Beside it, for where the time
 * goes, answering a fixed result (no tool runs): the SDK's stateless server on the SDK's own Node
 * transport (`/stock`, what flowblocks used first), and plain `node:http` answering the same
 * JSON-RPC by hand (`/raw`). Sends their URLs over IPC, then answers each `cpu` message with this
 * process's CPU time so far (µs, user + system).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { serveMcpHttp } from '../dist/src/hosts/agents/index.js';

const [peerPort] = process.argv.slice(2);
const served = await serveMcpHttp({
  port: 0,
  services: ['tinybird'],
  settings: { tinybird: { base_url: `http://127.0.0.1:${peerPort}`, token: 'p.bench-token' } },
  // The bench is one client running 64 calls at once: the bounds must not be what it measures.
  maxConcurrentCalls: 1024,
  maxConcurrentCallsPerClient: 1024,
});

/** What `tinybird_query` answers through the server, as a fixed MCP result. */
const output = { output: { data: [{ n: 42, day: '2026-11-22' }, { n: 7, day: '2026-11-21' }], rows: 2 } };
const RESULT = { content: [{ type: 'text' as const, text: JSON.stringify(output) }], structuredContent: output };
const validator = new AjvJsonSchemaValidator();

const readJson = async (req: import('node:http').IncomingMessage): Promise<{ id?: number; method?: string; params?: { protocolVersion?: string } }> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
};

const side = createServer(async (req, res) => {
  if (req.method !== 'POST') return void res.writeHead(405).end();
  const body = await readJson(req);
  if (req.url === '/stock') {
    // The SDK's documented stateless pattern: its server on its Node transport (hono's web Request and Response).
    const server = new Server({ name: 'bench', version: '1' }, { capabilities: { tools: {} }, jsonSchemaValidator: validator });
    server.setRequestHandler(CallToolRequestSchema, async () => RESULT);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    return void (await transport.handleRequest(req, res, body));
  }
  // By hand: the least an HTTP JSON-RPC answer costs in Node.
  if (body.id === undefined) return void res.writeHead(202).end();
  const result = body.method === 'initialize' ? { protocolVersion: body.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'bench', version: '1' } } : RESULT;
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result }));
});
await new Promise<void>((resolve) => side.listen(0, '127.0.0.1', resolve));
const sideUrl = `http://127.0.0.1:${(side.address() as AddressInfo).port}`;

process.on('message', (message) => {
  if (message === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send!({ cpu: user + system });
  }
});
process.on('disconnect', () => {
  side.close();
  void served.close().then(() => process.exit(0));
});
process.send!({ url: served.url, stockUrl: `${sideUrl}/stock`, rawUrl: `${sideUrl}/raw` });
