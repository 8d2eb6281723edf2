import type { IncomingMessage, ServerResponse } from 'node:http';
import { readRequestBody } from '../../shared/read-request-body.js';
import { packageVersion } from '../../../version.js';
import { MCP_SDK_MISSING, type McpServerOptions } from '../mcp-server.js';
import { createMcpToolHandlers } from '../mcp-tools.js';
import { baseUrlAllowList } from './base-url-allow.js';
import { bearerCheck } from './bearer.js';
import { CallGate } from './call-gate.js';
import { CancelRegistry } from './cancel-registry.js';
import { clientKeys } from './client-key.js';
import { credentialHeaders, settingsFromHeaders } from './credential-headers.js';
import { originCheck } from './origin.js';
import { DEFAULT_PROGRESS_INTERVAL_MS } from './progress.js';
import { peekMessages } from './peek-messages.js';

export interface McpHttpOptions extends McpServerOptions {
  /** Every request must carry `Authorization: Bearer <token>` (the CLI's `FLOWBLOCKS_MCP_TOKEN`). */
  token?: string;
  /** Browser origins let in besides loopback pages (`https://sim.example.com`). */
  allowOrigins?: readonly string[];
  /** Base URLs a client may send in a header besides the services' public API hosts, by origin. */
  allowBaseUrls?: readonly string[];
  /** Where MCP is served (default `/mcp`) and where the health check answers (default `/health`). */
  path?: string;
  healthPath?: string;
  /** Largest request body in bytes (default 1 MiB): larger is 413. */
  maxRequestBytes?: number;
  /** Tool calls running at once in this process (default 256) and per client (default 32): more is 429. */
  maxConcurrentCalls?: number;
  maxConcurrentCallsPerClient?: number;
  /** Progress while a call runs and nothing else happens, for clients that asked (default 5000 ms). */
  progressIntervalMs?: number;
}

/** A Node `(req, res)` listener serving MCP's Streamable HTTP transport, stateless. */
export interface McpHttpHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  /** Stops taking requests (503, and the health check says so) and resolves when every request in flight has answered. */
  drain(): Promise<void>;
  /** Requests being answered now. */
  readonly inFlight: number;
}

export const DEFAULT_MAX_REQUEST_BYTES = 1024 * 1024;
export const DEFAULT_MAX_CONCURRENT_CALLS = 256;
export const DEFAULT_MAX_CONCURRENT_CALLS_PER_CLIENT = 32;

/** A call's options when its request sent no settings of its own: one object for all of them. */
const NO_SETTINGS = {};

/** An answer before the MCP SDK is involved: a JSON-RPC error, as the SDK's transport writes its own. */
function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}, code = -32000): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
}

async function loadJsonRpc() {
  try {
    // These modules import the optional SDK (its schemas and constants): loaded only here.
    const [check, server] = await Promise.all([import('./check-post.js'), import('./json-rpc-server.js')]);
    return { ...check, createJsonRpcServer: server.createJsonRpcServer };
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND') throw new Error(MCP_SDK_MISSING, { cause: error });
    throw error;
  }
}

/**
 * The MCP server over Streamable HTTP as a listener to mount in any Node HTTP server (its
 * path and its health check; every other path is 404). Stateless: each POST is answered on its
 * own (json-rpc-server.ts answers its JSON-RPC, as the SDK's server would), so any process
 * behind a load balancer answers any request.
 * Before anything runs: the bearer token, the Origin, the credential headers, the body size
 * and the concurrency bounds. Credentials come from `settings` or, per request, from headers.
 */
export async function createMcpHttpHandler(options: McpHttpOptions = {}): Promise<McpHttpHandler> {
  const { checkPostHeaders, checkPostMessages, NOT_JSON, createJsonRpcServer } = await loadJsonRpc();
  const path = options.path ?? '/mcp';
  const healthPath = options.healthPath ?? '/health';
  const maxRequestBytes = options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
  const authorized = options.token ? bearerCheck(options.token) : undefined;
  const originAllowed = originCheck(options.allowOrigins);
  const headers = credentialHeaders(options.services);
  const allowBaseUrls = baseUrlAllowList(options.allowBaseUrls);
  const gate = new CallGate(options.maxConcurrentCalls ?? DEFAULT_MAX_CONCURRENT_CALLS, options.maxConcurrentCallsPerClient ?? DEFAULT_MAX_CONCURRENT_CALLS_PER_CLIENT);
  const cancels = new CancelRegistry();
  const answerPost = createJsonRpcServer({
    info: { name: options.name ?? 'flowblocks', version: options.version ?? packageVersion() },
    // The tool list and its schemas are made once; each request only carries them.
    tools: createMcpToolHandlers(options),
    cancels,
    progressIntervalMs: options.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS,
  });
  const clientKey = clientKeys(headers);

  let draining = false;
  let inFlight = 0;
  let drained: (() => void) | undefined;
  const whenDrained = new Promise<void>((resolve) => {
    drained = resolve;
  });

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (authorized && !authorized(req.headers.authorization)) {
      return refuse(res, 401, 'unauthorized: send Authorization: Bearer <the server token>', { 'www-authenticate': 'Bearer' });
    }
    if (!originAllowed(req.headers.origin)) return refuse(res, 403, 'forbidden: this server does not answer pages from that Origin');
    // Stateless: no stream to resume or session to end, so POST is all there is.
    if (req.method !== 'POST') return refuse(res, 405, 'method not allowed: this stateless server takes POST only', { allow: 'POST' });
    const fromHeaders = settingsFromHeaders(req.headers, headers, allowBaseUrls);
    if (fromHeaders.refusal) return refuse(res, 400, `bad request: ${fromHeaders.refusal}`);
    if (Number(req.headers['content-length']) > maxRequestBytes) {
      return refuse(res, 413, `payload too large: a request body must be at most ${maxRequestBytes} bytes`, { connection: 'close' });
    }
    const notAccepted = checkPostHeaders(req.headers);
    if (notAccepted) return refuse(res, notAccepted.status, notAccepted.message, {}, notAccepted.code);
    let bytes: Buffer;
    try {
      bytes = await readRequestBody(req, maxRequestBytes, 'too large');
    } catch {
      // Too large (the request was destroyed) or the client left: there is no one to answer.
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(bytes.toString('utf8'));
    } catch {
      return refuse(res, NOT_JSON.status, NOT_JSON.message, {}, NOT_JSON.code);
    }
    const post = checkPostMessages(req.headers, body);
    if ('refusal' in post) return refuse(res, post.refusal.status, post.refusal.message, {}, post.refusal.code);
    const { calls, progress } = peekMessages(post.messages);
    const client = clientKey(req.headers);
    let leave: (() => void) | undefined;
    if (calls > 0) {
      const entered = gate.enter(client, calls);
      if (typeof entered === 'string') {
        const limit = entered === 'client' ? `${gate.maxPerClient} per client` : `${gate.maxPerServer} on this server`;
        return refuse(res, 429, `too many calls at once: at most ${limit}; retry when one has answered`, { 'retry-after': '1' });
      }
      leave = entered;
    }
    // One JSON body unless a call asked for progress, which needs an event stream.
    const drop = answerPost(res, post.messages, !progress, { client, call: fromHeaders.settings ? { settings: fromHeaders.settings } : NO_SETTINGS });
    // A dropped request aborts its calls; one answered whole leaves nothing behind.
    if (calls > 0) {
      res.once('close', () => {
        leave?.();
        if (!res.writableFinished) drop();
      });
    }
  }

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    // A client names the path as served; anything else (a query, a path to normalise) is parsed as a URL.
    const pathname = req.url === path ? path : new URL(req.url ?? '/', 'http://localhost').pathname;
    if (pathname === healthPath && (req.method === 'GET' || req.method === 'HEAD')) {
      res.writeHead(draining ? 503 : 200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : JSON.stringify({ status: draining ? 'draining' : 'ok', inFlight }));
      return;
    }
    if (pathname !== path) return refuse(res, 404, `not found: MCP is served at ${path}`);
    if (draining) return refuse(res, 503, 'shutting down: retry on another instance', { connection: 'close', 'retry-after': '1' });
    inFlight += 1;
    res.once('close', () => {
      inFlight -= 1;
      if (draining && inFlight === 0) drained?.();
    });
    serve(req, res).catch(() => {
      if (!res.headersSent) refuse(res, 500, 'internal error');
      else res.destroy();
    });
  };

  return Object.defineProperties(handler, {
    drain: {
      value: (): Promise<void> => {
        draining = true;
        if (inFlight === 0) drained?.();
        return whenDrained;
      },
    },
    inFlight: { get: () => inFlight },
  }) as McpHttpHandler;
}
