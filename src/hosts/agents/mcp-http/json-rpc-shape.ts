import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** What JSON gives for an object: a record, not an array or null. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A JSON-RPC id or an MCP progress token: a string or a safe integer, as the SDK's schemas say. */
export const isIdOrToken = (value: unknown): value is string | number => typeof value === 'string' || Number.isSafeInteger(value);

/** `_meta` the SDK's request schemas take: absent, or a record whose only key is a well-formed progress token. */
function isPlainMeta(meta: unknown): boolean {
  if (meta === undefined) return true;
  if (!isRecord(meta)) return false;
  for (const key in meta) if (key !== 'progressToken') return false;
  return meta.progressToken === undefined || isIdOrToken(meta.progressToken);
}

/** A request's or a notification's own keys and values, as the SDK's strict JSON-RPC schemas take them. */
function isPlainCall(message: Record<string, unknown>, withId: boolean): boolean {
  for (const key in message) {
    if (key !== 'jsonrpc' && key !== 'method' && key !== 'params' && (!withId || key !== 'id')) return false;
  }
  if (message.jsonrpc !== '2.0' || typeof message.method !== 'string') return false;
  if (withId && !isIdOrToken(message.id)) return false;
  const params = message.params;
  return params === undefined || (isRecord(params) && isPlainMeta(params._meta));
}

/**
 * The message when the SDK's `JSONRPCMessageSchema` accepts it, else undefined. The usual
 * request or notification is recognised by hand (a plain structural check that accepts only what
 * the schema accepts); anything else (a response, a `_meta` with more in it, a malformed message)
 * is the SDK schema's to decide, so the answer is always the SDK's.
 */
export function asJsonRpcMessage(value: unknown): JSONRPCMessage | undefined {
  if (isRecord(value) && isPlainCall(value, 'id' in value)) return value as JSONRPCMessage;
  const parsed = JSONRPCMessageSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
