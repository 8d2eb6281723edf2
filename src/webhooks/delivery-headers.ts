import { DEFAULT_HEADER_PREFIX, EVENT_TYPE, headerNames } from './names.js';
import { formatSignature, secretList, type WebhookBody } from './signature.js';

export interface DeliveryHeaderOptions {
  /** The exact bytes that will be sent. */
  body: WebhookBody;
  /** Stable across the retries of one delivery: receivers dedupe on it. */
  deliveryId: string;
  /** Unix time in milliseconds of this attempt (sign every attempt afresh). */
  timestamp: number;
  event?: string;
  /** Signs the delivery; several secrets during a rotation. Without one the delivery is unsigned, as the spec allows. */
  secret?: string | readonly string[];
  prefix?: string;
}

/** The full header set of one delivery attempt: event, timestamp, delivery id, signature, Idempotency-Key. */
export function deliveryHeaders(options: DeliveryHeaderOptions): Record<string, string> {
  if (!Number.isSafeInteger(options.timestamp) || options.timestamp < 0) {
    throw new TypeError('timestamp must be a Unix time in whole milliseconds');
  }
  const names = headerNames(options.prefix ?? DEFAULT_HEADER_PREFIX);
  const timestamp = String(options.timestamp);
  const headers: Record<string, string> = {
    [names.event]: options.event ?? EVENT_TYPE,
    [names.timestamp]: timestamp,
    [names.deliveryId]: options.deliveryId,
  };
  if (options.secret !== undefined) {
    headers[names.signature] = formatSignature(timestamp, options.body, secretList(options.secret));
  }
  // The spec spells this one in mixed case; header names are case-insensitive on the wire.
  headers['Idempotency-Key'] = options.deliveryId;
  return headers;
}
