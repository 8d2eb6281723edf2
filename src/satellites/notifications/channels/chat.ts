import type { Dispatcher } from 'undici';
import { postOnce, safeOrigin } from '../http.js';
import type { CompletedEvent } from '../payload.js';
import type { Target } from '../queue.js';
import { payloadText, summaryLine } from '../summary.js';
import { slackCodeBlock, slackText } from './slack-text.js';

/**
 * A Slack-compatible incoming webhook: `{ text }` as JSON. The text carries the summary,
 * any alert reasons, and the same payload the webhook channel sends, escaped so that nothing a
 * workflow returns is read as a mention, a link or the end of the code block.
 */
export function chatTarget(key: string, url: string, dispatcher: Dispatcher): Target {
  return {
    key,
    label: `chat ${safeOrigin(url)}`,
    send(delivery, timeoutMs) {
      const event = JSON.parse(delivery.body) as CompletedEvent;
      const text = `${slackText(summaryLine(event, delivery.reasons))}\n${slackCodeBlock(payloadText(delivery.body))}`;
      return postOnce(url, JSON.stringify({ text }), { 'content-type': 'application/json' }, { dispatcher, timeoutMs });
    },
  };
}
