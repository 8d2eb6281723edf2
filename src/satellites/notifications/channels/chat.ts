import type { DispatcherLike } from '../../../harness/types.js';
import { postOnce, safeOrigin } from '../http.js';
import type { CompletedEvent } from '../payload.js';
import type { Target } from '../queue.js';
import { payloadText, summaryLine } from '../summary.js';

/**
 * A Slack-compatible incoming webhook: `{ text }` as JSON. The text carries the summary,
 * any alert reasons, and the same payload the webhook channel sends.
 */
export function chatTarget(key: string, url: string, dispatcher: DispatcherLike | undefined): Target {
  return {
    key,
    label: `chat ${safeOrigin(url)}`,
    send(delivery, timeoutMs) {
      const event = JSON.parse(delivery.body) as CompletedEvent;
      const text = `${summaryLine(event, delivery.reasons)}\n\`\`\`\n${payloadText(delivery.body)}\n\`\`\``;
      return postOnce(url, JSON.stringify({ text }), { 'content-type': 'application/json' }, { dispatcher, timeoutMs });
    },
  };
}
