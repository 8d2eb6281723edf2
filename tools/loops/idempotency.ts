import { failure, type ExecuteOptions } from '../../src/kit.js';

/** Loops' limit on the Idempotency-Key header. */
export const MAX_IDEMPOTENCY_KEY = 100;

/**
 * The key for a send: the caller's, or the one the harness made for this logical call
 * (kept across its retries, so a retry cannot send the e-mail twice).
 */
export function idempotencyKey(options: ExecuteOptions): string | undefined {
  const key = options.idempotencyKey;
  if (key !== undefined && (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY)) {
    const message = `the idempotency key must have 1 to ${MAX_IDEMPOTENCY_KEY} characters (it has ${key.length})`;
    throw failure('invalid_params', `invalid params: idempotencyKey: ${message}`, { issues: [{ path: 'idempotencyKey', message }] });
  }
  return key;
}

/** What a send reports when a retry meets 409 for its own key. */
export const SENT_ON_EARLIER_ATTEMPT =
  'A retry got 409 for this call\'s own Idempotency-Key: an earlier attempt was delivered (its answer was lost), so nothing was sent twice.';
