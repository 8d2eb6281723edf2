/**
 * One attempt through a host's transport (`ExecuteOptions.transport`): the same time limit,
 * abort, size cap, decoding and secret check as an undici attempt, with the host doing the I/O.
 */
import { noAnswer, responseOf } from './answer.js';
import { AttemptGuard, type GuardSettings } from './attempt-guard.js';
import { headerDictionary } from './decode-body.js';
import { failure, ToolFailure } from '../errors.js';
import type { Redactor } from '../mask/redact.js';
import type { BuiltRequest } from './request.js';
import type { HttpResponse, Transport, TransportResponse } from '../types.js';

export interface TransportSettings extends GuardSettings {
  redactor?: Redactor;
}

/** Sends one built request through `transport` and reads its whole body; rejects with a `Fault` or a `ToolFailure`. */
export async function sendThrough(transport: Transport, built: BuiltRequest, settings: TransportSettings): Promise<HttpResponse> {
  const controller = new AbortController();
  let wake!: () => void;
  const stoppedNow = new Promise<void>((resolve) => (wake = resolve));
  const guard = new AttemptGuard(settings, (reason) => {
    controller.abort(new Error(reason.message));
    wake();
  });
  try {
    // A host that ignores the signal still loses the race: the attempt ends on time.
    const answer = await Promise.race([transport({ ...built, signal: controller.signal }), stoppedNow]);
    if (guard.reason) throw guard.reason;
    if (!isAnswer(answer)) throw notAnAnswer();
    const headers = headerDictionary(answer.headers);
    guard.declared(headers['content-length']);
    if (guard.reason) throw guard.reason;
    const bytes = await readBody(answer.body, guard, stoppedNow);
    if (guard.reason) throw guard.reason;
    const response = responseOf(built.method, answer.status, headers, bytes, settings.redactor);
    if (response instanceof ToolFailure) throw response;
    return response;
  } catch (error) {
    if (guard.reason) throw guard.reason;
    if (error instanceof ToolFailure) throw error;
    throw noAnswer(error);
  } finally {
    guard.release();
  }
}

/** The body up to the cap: chunks are read as they come, and reading stops (the host's stream closed) past it. */
async function readBody(body: TransportResponse['body'], guard: AttemptGuard, stoppedNow: Promise<void>): Promise<Buffer> {
  if (body instanceof Uint8Array) {
    guard.received(body.byteLength);
    return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  }
  const chunks: Uint8Array[] = [];
  let done = false;
  const reader = body[Symbol.asyncIterator]();
  try {
    while (!done) {
      const next = await Promise.race([reader.next(), stoppedNow]);
      // Stryker disable next-line ConditionalExpression: without it a stopped read fails on `next.done` and the caller throws the same reason
      if (!next) break;
      if (next.done) done = true;
      else if (guard.received(next.value.byteLength)) chunks.push(next.value);
      else break;
    }
  } finally {
    // Ended early (the cap, the time limit, an abort): the host's stream is closed, not drained.
    if (!done) void reader.return?.()?.catch(() => undefined);
  }
  return Buffer.concat(chunks);
}

/** What a transport must resolve with; anything else is the host's bug, never retried as the network's. */
function isAnswer(answer: unknown): answer is TransportResponse {
  if (typeof answer !== 'object' || answer === null) return false;
  const { status, headers, body } = answer as Partial<TransportResponse>;
  if (!Number.isInteger(status) || status! < 100 || status! > 599) return false;
  if (typeof headers !== 'object' || headers === null) return false;
  return body instanceof Uint8Array || typeof (body as AsyncIterable<Uint8Array> | undefined)?.[Symbol.asyncIterator] === 'function';
}

function notAnAnswer(): ToolFailure {
  return failure('internal', 'the host transport resolved with no HTTP answer (an integer status of 100–599, a headers object and a body of bytes or chunks): the transport is at fault, not the service');
}
