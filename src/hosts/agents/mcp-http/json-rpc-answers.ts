import { ErrorCode, type RequestId } from '@modelcontextprotocol/sdk/types.js';

/**
 * JSON-RPC answers as text, with the keys in the order the SDK's `Protocol` writes them, so the
 * wire is the SDK's byte for byte. A result comes serialized already (a tool list made once,
 * a call's result serialized once): it is put in, not serialized again.
 */
export const resultAnswer = (id: RequestId, result: string): string => `{"result":${result},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;

export const errorAnswer = (id: RequestId, code: number, message: string): string => JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });

/** A notification about a request (progress), as the SDK's `Protocol` sends one. */
export const notificationMessage = (notification: { method: string; params: object }): string => JSON.stringify({ ...notification, jsonrpc: '2.0' });

/**
 * The error the SDK's `Protocol` answers when a handler throws: the error's own safe-integer
 * code or internal error, and its message. A request whose params its schema refuses is one:
 * the schema's `ZodError`, so -32603 with zod's message, as the SDK answers it.
 */
export function thrownAnswer(id: RequestId, error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return errorAnswer(id, Number.isSafeInteger(code) ? (code as number) : ErrorCode.InternalError, typeof message === 'string' ? message : 'Internal error');
}
