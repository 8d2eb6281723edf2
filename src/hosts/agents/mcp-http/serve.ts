import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { BlockList, isIP } from 'node:net';
import { createMcpHttpHandler, type McpHttpHandler, type McpHttpOptions } from './handler.js';

export interface ServeMcpHttpOptions extends McpHttpOptions {
  /** Address to bind (default `127.0.0.1`); anything but loopback needs `token`. */
  host?: string;
  /** Port (default 8787; 0 picks a free one). */
  port?: number;
}

export interface McpHttpServer {
  /** Where clients connect: `http://host:port/mcp`. */
  url: string;
  server: Server;
  handler: McpHttpHandler;
  /** Stops listening, lets every call in flight answer, then closes the idle connections. */
  close(): Promise<void>;
}

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** Whether an address to bind is reachable from this machine only (an IP, or `localhost`). */
export function isLoopbackAddress(host: string): boolean {
  if (host === 'localhost') return true;
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const family = isIP(bare);
  if (family === 0) return false;
  return loopback.check(bare, family === 6 ? 'ipv6' : 'ipv4');
}

/** The refusal to serve the tools, without a token, to a network beyond this machine. */
export const NEEDS_TOKEN = 'without FLOWBLOCKS_MCP_TOKEN the server binds only a loopback address (127.0.0.1, ::1, localhost): set a token to serve a network';

/** The MCP server over Streamable HTTP in an HTTP server of its own, listening. */
export async function serveMcpHttp(options: ServeMcpHttpOptions = {}): Promise<McpHttpServer> {
  const host = options.host ?? '127.0.0.1';
  if (!options.token && !isLoopbackAddress(host)) throw new Error(NEEDS_TOKEN);
  const handler = await createMcpHttpHandler(options);
  const server = createServer(handler);
  server.listen(options.port ?? 8787, host);
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  const shown = isIP(host) === 6 ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}${options.path ?? '/mcp'}`,
    server,
    handler,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await handler.drain();
      server.closeIdleConnections();
      await closed;
    },
  };
}
