import type { IncomingHttpHeaders } from 'node:http';
import { MAX_BATCH_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import { ErrorCode, isInitializeRequest, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { asJsonRpcMessage } from './json-rpc-shape.js';

/** A POST refused before any message is handled: HTTP status, JSON-RPC code and message, as the SDK's transport words them. */
export interface PostRefusal {
  status: number;
  code: number;
  message: string;
}

/** The code the SDK's transport gives its HTTP-level refusals (JSON-RPC's range for a server's own errors). */
const TRANSPORT_ERROR = -32000;

/** The body that is not JSON at all, as the SDK's transport answers it. */
export const NOT_JSON: PostRefusal = { status: 400, code: ErrorCode.ParseError, message: 'Parse error: Invalid JSON' };

/**
 * The header checks the SDK's `WebStandardStreamableHTTPServerTransport` makes of a POST
 * before it reads the body, in its order and with its answers: what the client accepts, then
 * the content type.
 */
export function checkPostHeaders(headers: IncomingHttpHeaders): PostRefusal | undefined {
  const accept = headers.accept;
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) {
    return { status: 406, code: TRANSPORT_ERROR, message: 'Not Acceptable: Client must accept both application/json and text/event-stream' };
  }
  if (!isJsonContentType(headers['content-type'])) {
    return { status: 415, code: TRANSPORT_ERROR, message: 'Unsupported Media Type: Content-Type must be application/json' };
  }
  return undefined;
}

/**
 * The checks the SDK's transport makes of a stateless POST's parsed body, in its order and with
 * its answers: the batch size, each message a JSON-RPC message (json-rpc-shape.ts), one
 * `initialize` alone, and the protocol version a later request names.
 */
export function checkPostMessages(headers: IncomingHttpHeaders, body: unknown): { messages: JSONRPCMessage[] } | { refusal: PostRefusal } {
  if (Array.isArray(body) && body.length > MAX_BATCH_SIZE) {
    return { refusal: { status: 400, code: ErrorCode.InvalidRequest, message: `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages` } };
  }
  const messages: JSONRPCMessage[] = [];
  let initializing = false;
  for (const value of Array.isArray(body) ? body : [body]) {
    const message = asJsonRpcMessage(value);
    if (!message) return { refusal: { status: 400, code: ErrorCode.ParseError, message: 'Parse error: Invalid JSON-RPC message' } };
    // `method` first: the SDK's guard is a schema parse, worth running only on a candidate.
    if ('method' in message && message.method === 'initialize' && isInitializeRequest(message)) initializing = true;
    messages.push(message);
  }
  if (initializing && messages.length > 1) {
    return { refusal: { status: 400, code: ErrorCode.InvalidRequest, message: 'Invalid Request: Only one initialization request is allowed' } };
  }
  const version = headers['mcp-protocol-version'];
  if (!initializing && typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    const message = `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`;
    return { refusal: { status: 400, code: TRANSPORT_ERROR, message } };
  }
  return { messages };
}
