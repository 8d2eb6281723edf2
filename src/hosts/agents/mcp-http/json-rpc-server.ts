import type { ServerResponse } from 'node:http';
import { CancelledNotificationSchema, ErrorCode, type JSONRPCMessage, type JSONRPCNotification, type JSONRPCRequest, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { ToolCallOptions } from '../executor.js';
import type { McpToolHandlers } from '../mcp-tools.js';
import type { CancelRegistry } from './cancel-registry.js';
import { initializeResult } from './initialize.js';
import { errorAnswer, notificationMessage, resultAnswer, thrownAnswer } from './json-rpc-answers.js';
import { PostAnswer } from './post-answer.js';
import { progressReporter } from './progress.js';
import { callToolParams, initializeParams, listToolsRefusal, taskRefusal } from './request-params.js';

export interface JsonRpcServerOptions {
  info: { name: string; version: string };
  tools: McpToolHandlers;
  cancels: CancelRegistry;
  progressIntervalMs: number;
}

/** What one POST's calls run with: the client's key (its ids are its own) and its settings from headers. */
export interface PostContext {
  client: string;
  call: Omit<ToolCallOptions, 'signal' | 'strict'>;
}

/** Aborts a POST's calls still running, when its client has left. */
export type DropPost = () => void;

const NOTHING_TO_DROP: DropPost = () => {};
const EMPTY_RESULT = '{}';

/**
 * The MCP methods of a stateless Streamable HTTP server, answered here instead of by the SDK's
 * `Server` (whose zod parse of every message, params and result, and `Protocol` dispatch cost as
 * much CPU per call as HTTP itself; docs/decisions.md): `initialize`, `ping`, `tools/list`,
 * `tools/call`, `notifications/cancelled`, every other notification ignored, every other
 * method "Method not found". Each answer and error is the SDK's, word for word
 * (test/agents/mcp-http-wire.test.ts compares them); the messages were checked by check-post.ts.
 */
export function createJsonRpcServer({ info, tools, cancels, progressIntervalMs }: JsonRpcServerOptions) {
  // The tool list is this configuration's: serialized once, put into every answer.
  const toolList = JSON.stringify(tools.list());

  function onNotification(notification: JSONRPCNotification, context: PostContext): void {
    if (notification.method !== 'notifications/cancelled') return;
    // A cancel comes in a request of its own: the call is found by this client's key and its id.
    const parsed = CancelledNotificationSchema.safeParse(notification);
    if (!parsed.success) return;
    const { requestId, reason } = parsed.data.params;
    if (requestId !== undefined) cancels.cancel(context.client, requestId, reason ?? 'cancelled by the client');
  }

  async function call(request: JSONRPCRequest, answer: PostAnswer, context: PostContext, running: Set<AbortController>): Promise<void> {
    const id = request.id;
    const checked = callToolParams(request);
    if ('refused' in checked) return answer.answer(id, thrownAnswer(id, checked.refused));
    const { name, arguments: args, _meta } = checked.params;
    // One controller per call: a cancel aborts it, and so does the client leaving (`running`).
    const controller = new AbortController();
    running.add(controller);
    const cancelKey = cancels.add(context.client, id, controller);
    const token = _meta?.progressToken;
    const reporter = token === undefined ? undefined : progressReporter(token, async (n) => answer.notify(notificationMessage(n)), progressIntervalMs);
    try {
      const result = await tools.callJson(name, args, controller.signal, reporter ? { ...context.call, logger: reporter.logger } : context.call);
      answer.answer(id, resultAnswer(id, result));
    } catch (error) {
      answer.answer(id, thrownAnswer(id, error));
    } finally {
      reporter?.stop();
      cancels.remove(cancelKey, controller);
      running.delete(controller);
    }
  }

  /** One request's answer; a call's comes when the call ends. */
  function onRequest(request: JSONRPCRequest, answer: PostAnswer, context: PostContext, running: Set<AbortController>): void {
    const id = request.id;
    const method = request.method;
    if (method !== 'tools/call' && method !== 'tools/list' && method !== 'ping' && method !== 'initialize') {
      return answer.answer(id, errorAnswer(id, ErrorCode.MethodNotFound, 'Method not found'));
    }
    const noTasks = taskRefusal(request);
    if (noTasks) return answer.answer(id, thrownAnswer(id, noTasks));
    if (method === 'tools/call') return void call(request, answer, context, running);
    if (method === 'ping') return answer.answer(id, resultAnswer(id, EMPTY_RESULT));
    if (method === 'tools/list') {
      const refused = listToolsRefusal(request);
      return answer.answer(id, refused ? thrownAnswer(id, refused) : resultAnswer(id, toolList));
    }
    const checked = initializeParams(request);
    answer.answer(id, 'refused' in checked ? thrownAnswer(id, checked.refused) : resultAnswer(id, initializeResult(info, checked.params.protocolVersion)));
  }

  /**
   * Answers one POST's checked messages on its response: 202 and no body when none is a
   * request, else one JSON body or, when `json` is false, an event stream (post-answer.ts).
   * Returns what aborts the POST's calls should its client leave before they end.
   */
  return function answerPost(res: ServerResponse, messages: readonly JSONRPCMessage[], json: boolean, context: PostContext): DropPost {
    const ids: RequestId[] = [];
    for (const message of messages) if ('method' in message && 'id' in message) ids.push(message.id);
    if (ids.length === 0) {
      for (const message of messages) if ('method' in message) onNotification(message, context);
      res.writeHead(202).end();
      return NOTHING_TO_DROP;
    }
    const answer = new PostAnswer(res, json, ids);
    const running = new Set<AbortController>();
    // A response from the client has no request here waiting for it: ignored, as the SDK's server does.
    for (const message of messages) {
      if (!('method' in message)) continue;
      if ('id' in message) onRequest(message, answer, context, running);
      else onNotification(message, context);
    }
    return () => {
      answer.stop();
      for (const controller of running) controller.abort(new Error('the client closed the request'));
    };
  }
}
