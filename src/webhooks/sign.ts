import { randomUUID } from 'node:crypto';
import { deliveryHeaders } from './delivery-headers.js';
import { DEFAULT_HEADER_PREFIX, EVENT_TYPE, headerNames } from './names.js';
import type { WebhookBody } from './signature.js';

export interface SignOptions {
  /** Unix time in milliseconds; now by default. */
  timestamp?: number;
  /** Keep it across retries of the same delivery; a new UUID by default. */
  deliveryId?: string;
  event?: string;
  prefix?: string;
}

export interface SignedDelivery {
  /** The signature header's value, `t=<timestamp>,v1=<hex>`. */
  signature: string;
  timestamp: number;
  deliveryId: string;
  /** Every header of the delivery, the signature included. */
  headers: Record<string, string>;
}

/** The object form of `signWebhook`'s arguments, as `signLoopsWebhook` takes its own. */
export interface SignWebhookOptions extends SignOptions {
  body: WebhookBody;
  /** Two secrets while rotating one: the signature then carries a `v1` for each. */
  secret: string | readonly string[];
}

/**
 * Signs a webhook body the way the platform does: `signWebhook({ body, secret, deliveryId? ,
 * timestamp?, event?, prefix? })`, or positionally `signWebhook(body, secret, options?)`. Give
 * two secrets while rotating one: the signature then carries a `v1` for each.
 */
export function signWebhook(options: SignWebhookOptions): SignedDelivery;
export function signWebhook(body: WebhookBody, secret: string | readonly string[], options?: SignOptions): SignedDelivery;
export function signWebhook(
  first: WebhookBody | SignWebhookOptions,
  secret?: string | readonly string[],
  options: SignOptions = {},
): SignedDelivery {
  // A body is text or bytes; anything else is the object form.
  const whole = typeof first === 'string' || first instanceof Uint8Array ? { ...options, body: first, secret: secret! } : first;
  if (whole.secret === undefined) throw new TypeError('signWebhook needs a secret: signWebhook({ body, secret }) or signWebhook(body, secret)');
  const timestamp = whole.timestamp ?? Date.now();
  const deliveryId = whole.deliveryId ?? randomUUID();
  const prefix = whole.prefix ?? DEFAULT_HEADER_PREFIX;
  const headers = deliveryHeaders({ body: whole.body, deliveryId, timestamp, secret: whole.secret, prefix, event: whole.event ?? EVENT_TYPE });
  return { signature: headers[headerNames(prefix).signature]!, timestamp, deliveryId, headers };
}
