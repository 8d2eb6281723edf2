/** The one event type the platform emits. */
export const EVENT_TYPE = 'workflow.execution.completed';

/** The spec's header prefix; a deployment may use its own (`sim`), so receivers can choose. */
export const DEFAULT_HEADER_PREFIX = 'svc';

export interface WebhookHeaderNames {
  event: string;
  timestamp: string;
  deliveryId: string;
  signature: string;
  idempotencyKey: string;
}

/** Header names of a delivery, lower-case (as Node and fetch hand them over). */
export function headerNames(prefix: string = DEFAULT_HEADER_PREFIX): WebhookHeaderNames {
  const p = prefix.toLowerCase();
  return {
    event: `${p}-event`,
    timestamp: `${p}-timestamp`,
    deliveryId: `${p}-delivery-id`,
    signature: `${p}-signature`,
    idempotencyKey: 'idempotency-key',
  };
}
