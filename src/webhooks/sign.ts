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

/**
 * Signs a webhook body the way the platform does. Give two secrets while rotating one: the
 * signature then carries a `v1` for each.
 */
export function signWebhook(body: WebhookBody, secret: string | readonly string[], options: SignOptions = {}): SignedDelivery {
  const timestamp = options.timestamp ?? Date.now();
  const deliveryId = options.deliveryId ?? randomUUID();
  const prefix = options.prefix ?? DEFAULT_HEADER_PREFIX;
  const headers = deliveryHeaders({ body, deliveryId, timestamp, secret, prefix, event: options.event ?? EVENT_TYPE });
  return { signature: headers[headerNames(prefix).signature]!, timestamp, deliveryId, headers };
}
