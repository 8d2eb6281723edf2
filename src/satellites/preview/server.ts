import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Block } from '../../blocks/define-block.js';
import { isLoopbackHost } from '../sandbox/http/loopback-host.js';
import { readRequestBody } from '../sandbox/http/read-request-body.js';
import { listBlocks } from '../../registry.js';
import { blocksResponse, runBlock } from './api.js';
import type { PreviewConnection } from './connection.js';
import { pageHtml } from './page/html.js';
import { pageScript } from './page/script.js';
import { pageStyles } from './page/styles.js';

export interface PreviewServerOptions {
  /** Port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number;
  connection: PreviewConnection;
  /** The blocks to show; every registered block by default. */
  blocks?: Block[];
}

export interface PreviewServer {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  close(): Promise<void>;
}

/** Enough for an ingest body typed or pasted into the page. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;

const STATIC: Record<string, { type: string; body: string }> = {
  '/': { type: 'text/html; charset=utf-8', body: pageHtml },
  '/app.js': { type: 'text/javascript; charset=utf-8', body: pageScript },
  '/app.css': { type: 'text/css; charset=utf-8', body: pageStyles },
};

const HEADERS = {
  'cache-control': 'no-store',
  // Only the page's own script and styles run; the icons are inline SVG markup.
  'content-security-policy': "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
};

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { ...HEADERS, 'content-type': type });
  res.end(body);
}

const sendJson = (res: ServerResponse, status: number, body: unknown) => send(res, status, 'application/json; charset=utf-8', JSON.stringify(body));

async function readJson(req: IncomingMessage): Promise<unknown> {
  const body = await readRequestBody(req, MAX_BODY_BYTES, 'the request body is over 10 MB');
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    throw new Error('the request body is not JSON');
  }
}

/**
 * The page runs tools with the credentials in it, so only the page may call the API: the
 * Host must be this server (no DNS rebinding) and a run must be sent as JSON (another
 * site's form cannot send that without a CORS preflight, which is never granted).
 */
function allowed(req: IncomingMessage, port: number): boolean {
  if (!isLoopbackHost(req.headers.host, port)) return false;
  if (req.method !== 'POST') return true;
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim() === 'application/json';
}

/** Serves the preview page and its JSON API on 127.0.0.1. */
export function startPreviewServer(options: PreviewServerOptions): Promise<PreviewServer> {
  const blocks = options.blocks ?? listBlocks();
  let port = 0;
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (!allowed(req, port)) return sendJson(res, 403, { error: 'the preview answers only its own page on 127.0.0.1' });
    try {
      if (req.method === 'GET' && STATIC[path]) return send(res, 200, STATIC[path].type, STATIC[path].body);
      if (req.method === 'GET' && path === '/api/blocks') return sendJson(res, 200, blocksResponse(blocks, options.connection));
      if (req.method === 'POST' && path === '/api/run') {
        const { status, body } = await runBlock(blocks, options.connection, await readJson(req));
        return sendJson(res, status, body);
      }
      sendJson(res, 404, { error: `nothing is served at ${req.method} ${path}` });
    } catch (error) {
      if (!res.headersSent) sendJson(res, 400, { error: (error as Error).message });
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      port = (server.address() as AddressInfo).port;
      resolve({
        url: `http://127.0.0.1:${port}/`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
