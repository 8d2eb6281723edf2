import type { Dispatcher } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import { ToolFailure } from '../errors.js';
import { flattenHeaders } from './decode-body.js';
import { aborted, noAnswer, responseOf, type Fault } from './answer.js';
import { AttemptGuard, type GuardSettings } from './attempt-guard.js';
import type { Redactor } from '../mask/redact.js';
import type { BuiltRequest } from './request.js';
import type { DispatcherLike, HttpResponse, Transport } from '../types.js';
import { installedDispatcher, readySharedDispatcher, sharedDispatcher } from './dispatcher.js';
import { sendThrough } from './transport-attempt.js';

export { DEFAULT_MAX_RESPONSE_BYTES, isFault, type Fault } from './answer.js';

export interface AttemptSettings extends GuardSettings {
  /** Absent: the shared keep-alive Agent. */
  dispatcher?: DispatcherLike;
  /** The host sends instead of undici (see `ExecuteOptions.transport`). */
  transport?: Transport;
  /** The call's redactor: a large JSON body is looked through for secrets as bytes, before any walk. */
  redactor?: Redactor;
}

const URL_PARTS = /^(https?:\/\/[^/?#]+)([^#]*)/i;

/** undici's dispatch takes origin and path apart; a regex is cheaper than `new URL` per call. */
function splitUrl(url: string): { origin: string; path: string } {
  const match = URL_PARTS.exec(url);
  if (!match) throw { kind: 'network', message: `network error: not an http(s) URL: ${url}` } satisfies Fault;
  const rest = match[2]!;
  return { origin: match[1]!, path: rest === '' ? '/' : rest.startsWith('/') ? rest : `/${rest}` };
}

/**
 * One request and its whole body, through undici's dispatch API: the body is collected as
 * it arrives, with no stream and no abort-signal plumbing per call, which is what makes
 * `undici.request` slower on keep-alive connections (docs/benchmarks.md).
 * Settles exactly once: response, fault, or a `ToolFailure` for a body over the cap.
 */
class Attempt implements Dispatcher.DispatchHandler {
  private controller?: Dispatcher.DispatchController;
  private settled = false;
  private status = 0;
  private headers: Record<string, string> = {};
  private chunks: Buffer[] = [];
  private readonly guard: AttemptGuard;

  constructor(
    private readonly method: string,
    private readonly settings: AttemptSettings,
    private readonly resolve: (response: HttpResponse) => void,
    private readonly reject: (reason: Fault | ToolFailure) => void,
  ) {
    this.guard = new AttemptGuard(settings, (reason) => this.stop(reason));
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // Stopped while it waited for a connection: it goes no further.
    if (this.guard.reason) controller.abort(new Error(this.guard.reason.message));
  }

  onResponseStart(_controller: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders): void {
    this.status = status;
    this.headers = flattenHeaders(headers);
    this.chunks = [];
    this.guard.size = 0;
    this.guard.declared(this.headers['content-length']);
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled || !this.guard.received(chunk.length)) return;
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (!this.finish()) return;
    const bytes = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.guard.size);
    const response = responseOf(this.method, this.status, this.headers, bytes, this.settings.redactor);
    if (response instanceof ToolFailure) return this.reject(response);
    this.resolve(response);
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (!this.finish()) return;
    this.reject(noAnswer(error));
  }

  /** The guard stopped it (time-out, the caller's abort, a body over the cap): settle now, then cancel the request. */
  private stop(reason: Fault | ToolFailure): void {
    if (this.settled) return;
    this.settled = true;
    this.chunks = [];
    this.reject(reason);
    this.controller?.abort(new Error(reason.message));
  }

  /** Marks the attempt settled; false when it already was. */
  private finish(): boolean {
    if (this.settled) return false;
    this.settled = true;
    this.guard.release();
    return true;
  }
}

/** Sends one built request and reads its whole body; rejects with a `Fault` or a `ToolFailure`. */
export function attempt(built: BuiltRequest, settings: AttemptSettings): Promise<HttpResponse> {
  const dispatcher = settings.transport ? undefined : (settings.dispatcher ?? installedDispatcher() ?? readySharedDispatcher());
  // The first request without a dispatcher of its own waits once for undici and the shared Agent.
  if (!settings.transport && !dispatcher) return sharedDispatcher().then((made) => attempt(built, { ...settings, dispatcher: made }));
  return new Promise((resolve, reject) => {
    const { origin, path } = splitUrl(built.url);
    // A signal aborted before this attempt began fires no event for it: end here, sending nothing.
    if (settings.signal?.aborted) return reject(aborted());
    if (settings.transport) return sendThrough(settings.transport, built, settings).then(resolve, reject);
    const handler = new Attempt(built.method, settings, resolve, reject);
    try {
      // Any major's dispatch takes these (DispatcherLike); typed here with undici 7's.
      (dispatcher as Dispatcher).dispatch(
        { origin, path, method: built.method as Dispatcher.HttpMethod, headers: built.headers, body: built.body },
        handler,
      );
    } catch (error) {
      // undici refuses some options (a bad header, a closed dispatcher) by throwing.
      handler.onResponseError(undefined as never, error as Error);
    }
  });
}
