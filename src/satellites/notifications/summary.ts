import type { CompletedEvent } from './payload.js';

/** Chat messages stay well under Slack's 40,000-character limit. */
const MAX_PAYLOAD_CHARS = 3_000;

/** One human line about an execution (chat text, e-mail variable). */
export function summaryLine(event: CompletedEvent, reasons: readonly string[]): string {
  const { data } = event;
  const outcome = data.status === 'error' ? 'failed' : 'succeeded';
  const cost = typeof data.cost.total === 'number' ? `, cost ${data.cost.total}` : '';
  const head = `Workflow ${data.workflowId} execution ${data.executionId} ${outcome} (${data.trigger}, ${data.totalDurationMs} ms${cost})`;
  return reasons.length ? `Alert: ${reasons.join('; ')}. ${head}` : head;
}

/** The payload as readable text, cut short when very long. */
export function payloadText(body: string): string {
  const pretty = JSON.stringify(JSON.parse(body) as unknown, null, 2);
  return pretty.length <= MAX_PAYLOAD_CHARS ? pretty : `${pretty.slice(0, MAX_PAYLOAD_CHARS)}\n… (cut)`;
}
