import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { MAX_BATCH_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { DEFAULT_SSE_KEEP_ALIVE_MS } from '@modelcontextprotocol/sdk/server/sseKeepAlive.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isInitializeRequest,
  JSONRPCMessageSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/** A POST refused before any message is handled: HTTP status, JSON-RPC code and message, as the SDK's transport words them. */
export interface PostRefusal {
  status: number;
  code: number;
  message: string;
}

/**
 * The checks the SDK's `WebStandardStreamableHTTPServerTransport` makes of a stateless POST,
 * in its order and with its answers, on a body already read and parsed: what the client
 * accepts, the content type, the batch size, each message against the SDK's own JSON-RPC
 * schema, one `initialize` alone, and the protocol version a later request names.
 */
export function checkPost(headers: IncomingHttpHeaders, body: unknown): { messages: JSONRPCMessage[] } | { refusal: PostRefusal } {
  const accept = headers.accept;
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) {
    return { refusal: { status: 406, code: -32000, message: 'Not Acceptable: Client must accept both application/json and text/event-stream' } };
  }
  if (!isJsonContentType(headers['content-type'])) {
    return { refusal: { status: 415, code: -32000, message: 'Unsupported Media Type: Content-Type must be application/json' } };
  }
  if (Array.isArray(body) && body.length > MAX_BATCH_SIZE) {
    return { refusal: { status: 400, code: -32600, message: `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages` } };
  }
  const parsed = (Array.isArray(body) ? body : [body]).map((message) => JSONRPCMessageSchema.safeParse(message));
  if (parsed.some((result) => !result.success)) return { refusal: { status: 400, code: -32700, message: 'Parse error: Invalid JSON-RPC message' } };
  const messages = parsed.map((result) => result.data!);
  // `method` first: the SDK's guard is a schema parse, worth running only on a candidate.
  const initializing = messages.some((message) => 'method' in message && message.method === 'initialize' && isInitializeRequest(message));
  if (initializing && messages.length > 1) {
    return { refusal: { status: 400, code: -32600, message: 'Invalid Request: Only one initialization request is allowed' } };
  }
  const version = headers['mcp-protocol-version'];
  if (!initializing && typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    const message = `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`;
    return { refusal: { status: 400, code: -32000, message } };
  }
  return { messages };
}

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive', 'x-accel-buffering': 'no' };

/** A request's JSON-RPC id, for a message that has one (a request, a result, an error). */
const idOf = (message: JSONRPCMessage): RequestId | undefined => ('id' in message ? message.id : undefined);

/**
 * The SDK `Transport` for one HTTP POST of a stateless server, written straight to Node's
 * response: the SDK's `Server` (its `Protocol`) still validates and dispatches every message
 * and builds every answer; this only carries them. It replaces the SDK's Node transport,
 * which converts each request and answer to web `Request`/`Response` objects through hono
 * (the larger part of the server's CPU per call, docs/benchmarks.md). Answers go as one JSON
 * body (`json`) or as an event stream that also carries the calls' progress, ended once every
 * request of the POST has its answer; without requests, 202 and no body. No session, no
 * stream to resume: the answer ends with the POST.
 */
export class HttpPostTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  /** The answers by request id, in the POST's order; undefined while a request runs. */
  private readonly answers = new Map<RequestId, JSONRPCMessage | undefined>();
  private keepAlive: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly json: boolean,
  ) {}

  async start(): Promise<void> {}

  /** Hands the POST's checked messages to the connected server and answers the POST. */
  receive(messages: JSONRPCMessage[]): void {
    for (const message of messages) if ('method' in message && 'id' in message) this.answers.set(message.id, undefined);
    if (this.answers.size === 0) {
      for (const message of messages) this.onmessage?.(message);
      this.res.writeHead(202).end();
      return;
    }
    if (!this.json) {
      this.res.writeHead(200, SSE_HEADERS).flushHeaders();
      this.keepAlive = setInterval(() => this.write(': keepalive\n\n'), DEFAULT_SSE_KEEP_ALIVE_MS).unref();
    }
    for (const message of messages) this.onmessage?.(message);
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.closed) return;
    const id = idOf(message);
    const answered = id !== undefined && ('result' in message || 'error' in message);
    // A notification belongs to the request it reports on; a stateless POST has no stream for any other.
    const about = answered ? id : options?.relatedRequestId;
    if (about === undefined || !this.answers.has(about)) return;
    if (!this.json) this.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    if (!answered) return;
    this.answers.set(about, message);
    for (const answer of this.answers.values()) if (answer === undefined) return;
    this.finish();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.keepAlive);
    this.onclose?.();
  }

  /** Every request answered: the JSON body (one answer, or the batch's in order), or the stream's end. */
  private finish(): void {
    clearInterval(this.keepAlive);
    if (!this.json) {
      this.res.end();
      return;
    }
    const answers = [...this.answers.values()];
    const body = JSON.stringify(answers.length === 1 ? answers[0] : answers);
    this.res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  }

  private write(chunk: string): void {
    if (!this.res.destroyed && !this.res.writableEnded) this.res.write(chunk);
  }
}
