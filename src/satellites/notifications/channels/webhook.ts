import type { DispatcherLike } from '../../../harness/types.js';
import { postOnce, safeOrigin } from '../http.js';
import { EVENT_TYPE } from '../payload.js';
import type { Target } from '../queue.js';
import { deliveryHeaders, signWebhook } from '../../../webhooks/index.js';

/**
 * The webhook channel: the payload bytes as queued, the spec's `svc-*` headers, and a
 * signature made afresh for each attempt (a retry with an old timestamp would fail the
 * receiver's five-minute check). The delivery id never changes between attempts.
 */
export function webhookTarget(
  key: string,
  channel: { url: string; secret?: string },
  dispatcher: DispatcherLike | undefined,
  now: () => number,
): Target {
  return {
    key,
    label: `webhook ${safeOrigin(channel.url)}`,
    send(delivery, timeoutMs) {
      const timestamp = now();
      const headers = channel.secret
        ? signWebhook(delivery.body, channel.secret, { timestamp, deliveryId: delivery.id, event: EVENT_TYPE }).headers
        : deliveryHeaders({ body: delivery.body, deliveryId: delivery.id, event: EVENT_TYPE, timestamp });
      return postOnce(channel.url, delivery.body, { 'content-type': 'application/json', ...headers }, { dispatcher, timeoutMs });
    },
  };
}
