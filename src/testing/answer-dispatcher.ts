import type { IncomingHttpHeaders } from 'node:http';
import { Dispatcher } from 'undici';

/** One request as it reached the mock: the bytes and headers the harness sent. */
export interface SentRequest {
  origin: string;
  method: string;
  /** Path with its query string. */
  path: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body?: Buffer;
}

/** What the mock does with one request. */
export type Outcome =
  | { kind: 'reply'; status: number; headers: Record<string, string>; body: Buffer }
  /** The connection fails with this error (a cut, a refused connection). */
  | { kind: 'error'; error: Error }
  /** No answer ever: the caller's time limit or signal ends the call. */
  | { kind: 'hang' };

export type Responder = (request: SentRequest, signal: AbortSignal) => Promise<Outcome>;

type AnyHandler = Dispatcher.DispatchHandler & {
  onConnect?(abort: (err?: Error) => void): void;
  onHeaders?(status: number, headers: Buffer[], resume: () => void, statusText: string): boolean;
  onData?(chunk: Buffer): boolean;
  onComplete?(trailers: string[] | null): void;
  onError?(err: Error): void;
};

function headersOf(raw: Dispatcher.DispatchOptions['headers']): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  if (!raw) return out;
  const pairs: [string, unknown][] = [];
  if (Array.isArray(raw)) for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([String(raw[i]), raw[i + 1]]);
  else if (typeof (raw as Partial<Iterable<unknown>>)[Symbol.iterator] === 'function') {
    for (const pair of raw as Iterable<[string, unknown]>) pairs.push([String(pair[0]), pair[1]]);
  } else pairs.push(...Object.entries(raw));
  for (const [name, value] of pairs) if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  return out;
}

async function bodyOf(raw: Dispatcher.DispatchOptions['body']): Promise<Buffer | undefined> {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'string') return Buffer.from(raw);
  if (raw instanceof Uint8Array) return Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  const chunks: Buffer[] = [];
  for await (const chunk of raw as AsyncIterable<string | Uint8Array>) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/**
 * A dispatcher that answers every request itself, with what `respond` decides: undici's
 * handler protocol (both its current and its older form), no socket. The base of the mock
 * and of the recorder's replay of what it fetched.
 */
export class AnswerDispatcher extends Dispatcher {
  private closed = false;

  constructor(private readonly respond: Responder) {
    super();
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    if (this.closed) throw new Error('the mock dispatcher is closed');
    const h = handler as AnyHandler;
    const abortController = new AbortController();
    let done = false;
    const fail = (error: Error) => {
      if (done) return;
      done = true;
      if (h.onResponseError) h.onResponseError(controller, error);
      else h.onError?.(error);
    };
    const controller: Dispatcher.DispatchController = {
      abort(reason: Error) {
        if (abortController.signal.aborted) return;
        abortController.abort(reason);
        fail(reason);
      },
      pause() {},
      resume() {},
      get aborted() {
        return abortController.signal.aborted;
      },
      get paused() {
        return false;
      },
      get reason() {
        return (abortController.signal.reason as Error | undefined) ?? null;
      },
    };
    if (h.onRequestStart) h.onRequestStart(controller, {});
    else h.onConnect?.((err) => controller.abort(err ?? new Error('aborted')));
    if (abortController.signal.aborted) return true;

    void (async () => {
      const request: SentRequest = {
        origin: String(options.origin ?? ''),
        method: options.method,
        path: options.path,
        headers: headersOf(options.headers),
        body: await bodyOf(options.body),
      };
      const outcome = await this.respond(request, abortController.signal);
      if (done || abortController.signal.aborted) return;
      if (outcome.kind === 'hang') return;
      if (outcome.kind === 'error') return fail(outcome.error);
      done = true;
      const headers: IncomingHttpHeaders = { ...outcome.headers, 'content-length': String(outcome.body.length) };
      if (h.onResponseStart) {
        h.onResponseStart(controller, outcome.status, headers, '');
        if (outcome.body.length) h.onResponseData?.(controller, outcome.body);
        h.onResponseEnd?.(controller, {});
      } else {
        const raw = Object.entries(headers).flatMap(([name, value]) => [Buffer.from(name), Buffer.from(String(value))]);
        h.onHeaders?.(outcome.status, raw, () => {}, '');
        if (outcome.body.length) h.onData?.(outcome.body);
        h.onComplete?.([]);
      }
    })().catch((error: unknown) => fail(error instanceof Error ? error : new Error(String(error))));
    return true;
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    this.closed = true;
    if (callback) return void queueMicrotask(callback);
    return Promise.resolve();
  }

  override destroy(): Promise<void>;
  override destroy(err: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(err: Error | null, callback: () => void): void;
  override destroy(a?: unknown, b?: unknown): Promise<void> | void {
    this.closed = true;
    const callback = typeof a === 'function' ? a : typeof b === 'function' ? b : undefined;
    if (callback) return void queueMicrotask(callback as () => void);
    return Promise.resolve();
  }
}
