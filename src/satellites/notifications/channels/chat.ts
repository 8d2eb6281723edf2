import type { Dispatcher } from 'undici';
import { postOnce, safeOrigin } from '../http.js';
import type { CompletedEvent } from '../payload.js';
import type { Target } from '../queue.js';
import { payloadText, summaryLine } from '../summary.js';
import { slackCodeBlock, slackEscape } from './slack-text.js';

/**
 * A Slack-compatible incoming webhook: `{ text }` as JSON. The text carries the summary,
 * any alert reasons, and the same payload the webhook channel sends, escaped for mrkdwn.
 */
export function chatTarget(key: string, url: string, dispatcher: Dispatcher): Target {
  return {
    key,
    label: `chat ${safeOrigin(url)}`,
    send(delivery, timeoutMs) {
      const event = JSON.parse(delivery.body) as CompletedEvent;
      // Workflow output is text from outside: escaped for Slack's mrkdwn, the payload kept inside its code block.
      const text = `${slackEscape(summaryLine(event, delivery.reasons))}\n${slackCodeBlock(payloadText(delivery.body))}`;
      return postOnce(url, JSON.stringify({ text }), { 'content-type': 'application/json' }, { dispatcher, timeoutMs });
    },
  };
}
