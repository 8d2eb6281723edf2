import type { ServerResponse } from 'node:http';
import { DEFAULT_SSE_KEEP_ALIVE_MS } from '@modelcontextprotocol/sdk/server/sseKeepAlive.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive', 'x-accel-buffering': 'no' };

/**
 * The answer to one POST of a stateless server, written straight to Node's response, as the
 * SDK's Streamable HTTP transport writes it: one JSON body (one answer, or the batch's in the
 * POST's order), or, when a call asked for progress, an event stream that carries the calls'
 * notifications and each answer as it comes, ended once every request has its answer. Messages
 * come already serialized, so none is serialized twice. No session, no stream to resume.
 */
export class PostAnswer {
  /** The answers by request id, in the POST's order; undefined while a request runs. */
  private readonly answers = new Map<RequestId, string | undefined>();
  private waiting = 0;
  private readonly keepAlive: NodeJS.Timeout | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly json: boolean,
    ids: readonly RequestId[],
  ) {
    for (const id of ids) {
      if (this.answers.has(id)) continue;
      this.answers.set(id, undefined);
      this.waiting += 1;
    }
    if (!json) {
      res.writeHead(200, SSE_HEADERS).flushHeaders();
      this.keepAlive = setInterval(() => this.write(': keepalive\n\n'), DEFAULT_SSE_KEEP_ALIVE_MS).unref();
    }
  }

  /** A notification about a request of this POST: on the event stream; a JSON answer has no room for one. */
  notify(message: string): void {
    if (!this.json && this.waiting > 0) this.write(`event: message\ndata: ${message}\n\n`);
  }

  /** A request's answer (its JSON-RPC result or error); the first for an id is the one kept. */
  answer(id: RequestId, message: string): void {
    if (this.answers.get(id) !== undefined || !this.answers.has(id)) return;
    this.answers.set(id, message);
    if (!this.json) this.write(`event: message\ndata: ${message}\n\n`);
    if (--this.waiting === 0) this.finish();
  }

  /** Stops the keep-alive when the POST ends early (the client left). */
  stop(): void {
    clearInterval(this.keepAlive);
  }

  private finish(): void {
    this.stop();
    if (!this.json) {
      this.res.end();
      return;
    }
    if (this.res.destroyed) return;
    const answers = [...this.answers.values()];
    const body = answers.length === 1 ? answers[0]! : `[${answers.join(',')}]`;
    this.res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  }

  private write(chunk: string): void {
    if (!this.res.destroyed && !this.res.writableEnded) this.res.write(chunk);
  }
}
