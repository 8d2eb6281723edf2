import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FaultInjector } from './faults.js';
import { readRequestBody } from './read-request-body.js';
import { foreignRequestRefusal } from './same-site.js';
import type { SandboxRequest, SandboxResponse, ServiceApp } from './types.js';

export interface Mount {
  /** Path prefix without a trailing slash, e.g. `/tinybird`; `''` serves the app at the root of the port. */
  prefix: string;
  /** Fault-injection key of the service (`tinybird`, `loops`, `workflow`), if faults apply. */
  service?: string;
  app: ServiceApp;
}

/** Largest body the sandbox reads; the real services cap lower, per endpoint. */
const MAX_BODY_BYTES = 110 * 1024 * 1024;

export function writeResponse(res: ServerResponse, reply: SandboxResponse): void {
  const headers: Record<string, string> = { ...reply.headers };
  const has = (name: string) => Object.keys(headers).some((key) => key.toLowerCase() === name);
  let payload: Buffer | string | undefined;
  if (reply.body === undefined || reply.body === null) payload = undefined;
  else if (typeof reply.body === 'string') {
    payload = reply.body;
    if (!has('content-type')) headers['content-type'] = 'text/plain; charset=utf-8';
  } else if (reply.body instanceof Uint8Array) {
    payload = Buffer.from(reply.body);
    if (!has('content-type')) headers['content-type'] = 'application/octet-stream';
  } else {
    payload = JSON.stringify(reply.body);
    if (!has('content-type')) headers['content-type'] = 'application/json';
  }
  res.writeHead(reply.status, headers);
  res.end(payload);
}

/**
 * One HTTP server on 127.0.0.1: routes each request to the service mounted at its prefix.
 * The sandbox runs one with every service under a prefix and one per service at the root
 * of its own port; each checks Host and Origin against its own port.
 */
export function startServer(
  mounts: readonly Mount[],
  options: { port: number; faults?: FaultInjector; onError: (error: unknown) => void; index?: () => unknown },
): Promise<{ server: Server; origin: string; close(): Promise<void> }> {
  let origin = '';
  let port = 0;
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', origin);
      const mount = mounts.find((m) => url.pathname === m.prefix || url.pathname.startsWith(`${m.prefix}/`));
      // Before the body is read: a foreign page gets nothing buffered and nothing run.
      const refused = foreignRequestRefusal(req, mount ? url.pathname.slice(mount.prefix.length) : url.pathname, port);
      if (refused) return writeResponse(res, { status: 403, body: { error: refused } });
      const body = await readRequestBody(req, MAX_BODY_BYTES, 'body too large');
      if (!mount && url.pathname === '/' && options.index) return writeResponse(res, { status: 200, body: options.index() });
      if (!mount) return writeResponse(res, { status: 404, body: { error: `nothing is served at ${url.pathname}` } });
      const request: SandboxRequest = {
        method: req.method ?? 'GET',
        path: url.pathname.slice(mount.prefix.length) || '/',
        query: url.searchParams,
        headers: req.headers,
        body,
        params: {},
        origin,
        base: `${origin}${mount.prefix}`,
      };
      if (mount.service && options.faults) {
        const fault = await options.faults.decide(mount.service);
        if (fault === 'drop') return void req.socket.destroy();
        if (fault) return writeResponse(res, mount.app.faultReply(fault.status, request));
      }
      writeResponse(res, await mount.app.handle(request));
    } catch (error) {
      options.onError(error);
      if (!res.headersSent) writeResponse(res, { status: 500, body: { error: 'sandbox internal error' } });
      else res.destroy();
    }
  });
  // Keep-alive sockets from clients must not hold close() open.
  server.keepAliveTimeout = 5_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      ({ port } = server.address() as AddressInfo);
      origin = `http://127.0.0.1:${port}`;
      resolve({
        server,
        origin,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
