import { timingSafeEqual } from 'node:crypto';
import { WebhookVerificationError } from './errors.js';
import { workflowExecutionCompletedEventSchema, type WorkflowExecutionCompletedEvent } from './event.js';
import { headerValue, type HeaderSource } from './header-source.js';
import { DEFAULT_HEADER_PREFIX, EVENT_TYPE, headerNames } from './names.js';
import { parseSignature, secretList, signatureDigest, type WebhookBody } from './signature.js';
import { recordVerified } from './verified-identity.js';

/** The spec's replay window: five minutes, checked both ways. */
export const DEFAULT_TOLERANCE_MS = 5 * 60_000;

export interface VerifyOptions {
  /** The raw request body, exactly as received: never parsed and re-serialized JSON. */
  body: WebhookBody;
  headers: HeaderSource;
  /** The webhook secret; during a rotation, the old and the new one. */
  secret: string | readonly string[];
  /** How far the signed time may be from `now`, either way. `Infinity` turns the check off. */
  toleranceMs?: number;
  /** Unix time in milliseconds to check against; `Date.now()` by default. */
  now?: number;
  /** Header prefix: `svc` as the spec has it, or a deployment's own (`sim`). */
  prefix?: string;
}

const HEX = /^(?:[0-9a-f]{2})+$/i;
/** Below this a timestamp is in seconds; milliseconds since 1970 passed it in 2001. */
const MS_THRESHOLD = 1e12;

function toMs(timestamp: string): number {
  const n = Number(timestamp);
  return n < MS_THRESHOLD ? n * 1000 : n;
}

/** Constant-time on equal-length byte buffers; the lengths themselves are not secret. */
export function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

function checkSignature(options: VerifyOptions, timestamp: string, candidates: string[]): void {
  const given = candidates.filter((hex) => HEX.test(hex)).map((hex) => Buffer.from(hex, 'hex'));
  if (given.length === 0) throw new WebhookVerificationError('malformed_signature', 'no v1 value is a hex digest');
  const expected = secretList(options.secret).map((secret) => signatureDigest(secret, timestamp, options.body));
  if (!expected.some((digest) => given.some((candidate) => sameBytes(candidate, digest)))) {
    throw new WebhookVerificationError('bad_signature', 'no v1 signature matches this body and secret');
  }
}

export function checkTimestamp(signedMs: number, options: Pick<VerifyOptions, 'toleranceMs' | 'now'>): void {
  const tolerance = options.toleranceMs ?? DEFAULT_TOLERANCE_MS;
  if (!(tolerance >= 0)) throw new TypeError('toleranceMs must be a number of milliseconds, 0 or more');
  const age = (options.now ?? Date.now()) - signedMs;
  if (age > tolerance) {
    throw new WebhookVerificationError('stale_timestamp', `the delivery was signed ${Math.round(age / 1000)} s ago, more than the ${tolerance / 1000} s allowed`);
  }
  if (-age > tolerance) {
    throw new WebhookVerificationError('future_timestamp', `the delivery was signed ${Math.round(-age / 1000)} s in the future, more than the ${tolerance / 1000} s allowed`);
  }
}

function parsePayload(body: WebhookBody): WorkflowExecutionCompletedEvent {
  let json: unknown;
  try {
    const text = typeof body === 'string' ? body : new TextDecoder('utf-8', { fatal: true }).decode(body);
    json = JSON.parse(text);
  } catch {
    throw new WebhookVerificationError('invalid_payload', 'the body is not JSON');
  }
  const parsed = workflowExecutionCompletedEventSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
    throw new WebhookVerificationError('invalid_payload', `the body is not a ${EVENT_TYPE} event: ${issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ')}`, issues);
  }
  return parsed.data;
}

/**
 * Verifies a completion webhook and returns its event: signature first (so a reason about
 * time is only ever given for a genuine delivery), then the replay window, then the payload.
 * Throws `WebhookVerificationError` with a `reason` on any failure. The returned object is the
 * one `WebhookDeduplicator` accepts: it dedupes on the ids this signed body carries.
 */
export function verifyWebhook(options: VerifyOptions): WorkflowExecutionCompletedEvent {
  if (typeof options.body !== 'string' && !(options.body instanceof Uint8Array)) {
    throw new TypeError('body must be the raw request body as a string or bytes, not parsed JSON');
  }
  const names = headerNames(options.prefix ?? DEFAULT_HEADER_PREFIX);
  const header = headerValue(options.headers, names.signature);
  if (header === undefined || header.trim() === '') {
    throw new WebhookVerificationError('missing_header', `the ${names.signature} header is missing`);
  }
  const signature = parseSignature(header);
  if (signature.timestamp === undefined || !/^\d{1,16}$/.test(signature.timestamp) || signature.repeatedTimestamp) {
    throw new WebhookVerificationError('malformed_signature', `${names.signature} needs exactly one t=<unix time>`);
  }
  if (signature.v1.length === 0) {
    throw new WebhookVerificationError('malformed_signature', `${names.signature} has no v1 value`);
  }
  checkSignature(options, signature.timestamp, signature.v1);

  const signedMs = toMs(signature.timestamp);
  // The timestamp header is not signed; one that disagrees with the signed time was altered.
  const stated = headerValue(options.headers, names.timestamp);
  if (stated !== undefined && (!/^\d{1,16}$/.test(stated.trim()) || toMs(stated.trim()) !== signedMs)) {
    throw new WebhookVerificationError('bad_signature', `${names.timestamp} does not match the signed timestamp`);
  }
  checkTimestamp(signedMs, options);
  return recordVerified(parsePayload(options.body));
}
