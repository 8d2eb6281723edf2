/**
 * What an HTTP attempt ends in, however it was sent (undici or a host's transport): the
 * faults that got no answer, and an answer's body decoded and checked for a held secret.
 */
import { decodeBody, isWebPage } from './decode-body.js';
import { failure, type ToolFailure } from '../errors.js';
import type { Redactor } from '../mask/redact.js';
import { RAW_SCAN_MIN_BYTES } from '../mask/redact-bytes.js';
import type { HttpResponse } from '../types.js';

/** Why an attempt got no response: the retry rule decides what each one means. */
export type Fault = { kind: 'timeout' | 'network' | 'aborted'; message: string };

export function isFault(value: unknown): value is Fault {
  return typeof value === 'object' && value !== null && 'kind' in value && 'message' in value;
}

/** The attempt's time limit passed before its answer was whole. */
export function timedOut(timeoutMs: number): Fault {
  return { kind: 'timeout', message: `no complete response within ${timeoutMs} ms` };
}

/** The caller's signal aborted the attempt. */
export function aborted(): Fault {
  return { kind: 'aborted', message: 'the call was aborted' };
}

/** No answer came (refused, cut, reset): the client's error code and message, as the retry rule reads them. */
export function noAnswer(error: unknown): Fault {
  const err = (error ?? {}) as { code?: unknown; message?: unknown };
  const detail = [err.code, err.message].filter((part) => typeof part === 'string' && part !== '').join(': ');
  return { kind: 'network', message: `network error: ${detail || 'connection failed'}` };
}

/** Default cap on one response body: past it the body is dropped, not buffered without end. */
export const DEFAULT_MAX_RESPONSE_BYTES = 100 * 1024 * 1024;

export function bodyTooLarge(maxBytes: number): ToolFailure {
  return failure('invalid_response', `the response body is larger than the ${maxBytes}-byte limit`);
}

function binaryHoldsSecret(status: number): ToolFailure {
  return failure('invalid_response', 'the service answered binary data that holds a configured secret; a binary answer cannot be masked, so it is withheld', { status });
}

function binaryWithheld(status: number): ToolFailure {
  return failure('invalid_response', 'the service answered binary data; bytes cannot be masked (a compressed format can hide a secret), so none are handed on while a secret is configured: ask for a text format (FORMAT JSON, CSV or JSONEachRow)', { status });
}

/**
 * A 2xx web page at the API's address is another app answering (the n8n editor, a login page): it
 * is refused whole, so no tool hands the page on as data and no message carries it.
 */
function webPageAnswered(status: number): ToolFailure {
  return failure('invalid_response', "the answer is a web page (text/html), not the service's API: check the base URL", { status });
}

/**
 * A whole answer as the harness hands it on: its body decoded, and refused when it is a 2xx web
 * page, or binary and holding a secret (or any binary, when the redactor says so).
 */
export function responseOf(method: string, status: number, headers: Record<string, string>, bytes: Buffer, redactor: Redactor | undefined): HttpResponse | ToolFailure {
  if (status >= 200 && status < 300 && isWebPage(headers['content-type'])) return webPageAnswered(status);
  const { body, bodyKind } = decodeBody(status, headers, bytes, method);
  // A speed rule: a small body is walked instead of searched, which finds the same secrets (trustIfClean refuses a non-object itself).
  if (bodyKind === 'json' && bytes.length >= RAW_SCAN_MIN_BYTES) redactor?.trustIfClean(bytes, body);
  // Bytes handed on as base64 are never walked by the mask: a secret in them is refused here.
  if (bodyKind === 'binary' && redactor?.active) {
    if (redactor.refusesBinary) return binaryWithheld(status);
    if (redactor.heldIn(bytes)) return binaryHoldsSecret(status);
  }
  return { status, headers, body, bodyKind };
}
