import type { FailureName, FixtureAnswer } from './fixture-file.js';
import type { Outcome } from './answer-dispatcher.js';

/** Faults of the connection rather than answers of the service. */
export const FAULT_NAMES = ['timeout', 'connection_reset', 'reset_after_write'] as const;
export type FaultName = (typeof FAULT_NAMES)[number];

/** What `mock.fail` takes: a documented failure answer of the service, or a connection fault. */
export type MockFailure = FailureName | FaultName;

export function isFault(name: string): name is FaultName {
  return (FAULT_NAMES as readonly string[]).includes(name);
}

/** A cut connection, as undici reports one: the socket closed with no (complete) answer. */
function socketClosed(detail: string): Error {
  return Object.assign(new Error(`other side closed (flowblocks/testing: ${detail})`), { code: 'UND_ERR_SOCKET' });
}

/**
 * A connection fault's outcome, and whether the service acted on the request first:
 * `timeout` never answers (the caller's time limit ends it), `connection_reset` is cut before
 * the service read the request, `reset_after_write` is cut after it did its work (the
 * ambiguous case a retry must be safe against).
 */
export function faultOutcome(name: FaultName): { outcome: Outcome; delivered: boolean } {
  switch (name) {
    case 'timeout':
      return { outcome: { kind: 'hang' }, delivered: false };
    case 'connection_reset':
      return { outcome: { kind: 'error', error: socketClosed('connection reset before the request was read') }, delivered: false };
    case 'reset_after_write':
      return { outcome: { kind: 'error', error: socketClosed('connection reset after the service acted on the request') }, delivered: true };
  }
}

/** A fixture answer as bytes and headers; a JSON body gets its content type unless the fixture names one. */
export function answerOutcome(answer: Pick<FixtureAnswer, 'status' | 'headers' | 'body' | 'text'>): Outcome {
  const headers = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(answer.headers ?? {})) headers[name.toLowerCase()] = value;
  let body = Buffer.alloc(0);
  if (answer.text !== undefined) {
    headers['content-type'] ??= 'text/plain; charset=utf-8';
    body = Buffer.from(answer.text);
  } else if (answer.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = Buffer.from(JSON.stringify(answer.body));
  }
  return { kind: 'reply', status: answer.status, headers, body };
}
