import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  isTaskAugmentedRequestParams,
  ListToolsRequestSchema,
  type CallToolRequest,
  type InitializeRequest,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { isRecord } from './json-rpc-shape.js';

/** A request's params, or what its method's SDK schema says of them (a `ZodError`, answered as the SDK answers it). */
export type Checked<T> = { params: T } | { refused: Error };

/** The SDK schema's verdict: its parsed params, or its error. */
function bySchema<T>(schema: { safeParse(value: unknown): { success: boolean; data?: { params: T }; error?: Error } }, request: JSONRPCRequest): Checked<T> {
  const parsed = schema.safeParse(request);
  return parsed.success ? { params: parsed.data!.params } : { refused: parsed.error! };
}

/**
 * `tools/call`'s params. The usual ones (a name, arguments as an object) are recognised by
 * hand, accepting only what `CallToolRequestSchema` accepts (the message's `_meta` was checked
 * with the message); anything else is the SDK schema's to decide. The tool's own arguments are
 * checked by the executor, against the tool's schema.
 */
export function callToolParams(request: JSONRPCRequest): Checked<CallToolRequest['params']> {
  const params = request.params;
  if (isRecord(params) && typeof params.name === 'string' && params.task === undefined) {
    const args = params.arguments;
    if (args === undefined || (isRecord(args) && Object.getPrototypeOf(args) === Object.prototype)) return { params: params as CallToolRequest['params'] };
  }
  return bySchema(CallToolRequestSchema, request);
}

/** Whether `tools/list`'s params are what `ListToolsRequestSchema` accepts: none, or a string cursor (this server has one page). */
export function listToolsRefusal(request: JSONRPCRequest): Error | undefined {
  const params = request.params;
  if (params === undefined || (isRecord(params) && (params.cursor === undefined || typeof params.cursor === 'string'))) return undefined;
  const parsed = ListToolsRequestSchema.safeParse(request);
  return parsed.success ? undefined : parsed.error;
}

/** `initialize`'s params, by the SDK's schema: once per client, so no shortcut. */
export const initializeParams = (request: JSONRPCRequest): Checked<InitializeRequest['params']> => bySchema(InitializeRequestSchema, request);

/**
 * The refusal of a request that asks for a task (`params.task`), as the SDK's server words it:
 * this server offers no tasks, and the SDK checks this before a method's own params.
 */
export function taskRefusal(request: JSONRPCRequest): Error | undefined {
  const params = request.params;
  if (params?.task === undefined || !isTaskAugmentedRequestParams(params)) return undefined;
  return new Error(`Server does not support task creation (required for ${request.method})`);
}
