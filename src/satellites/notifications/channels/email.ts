import type { DispatcherLike } from '../../../harness/types.js';
import sendTransactionalEmail from '../../../../tools/loops/send-transactional-email.js';
import { VALUE_CAP } from '../../../../tools/loops/params.js';
import { runTool } from '../../../harness/run/execute.js';
import type { CompletedEvent } from '../payload.js';
import type { Target } from '../queue.js';
import { summaryLine } from '../summary.js';

export interface EmailTargetConfig {
  recipient: string;
  transactionalId: string;
  apiKey: string;
  endpoint?: string;
}

/** A text cut to fit Loops' cap on every body value (its JSON form, quotes included), ending in "…" when cut. */
export function fitLoopsValue(text: string): string {
  if (JSON.stringify(text).length <= VALUE_CAP) return text;
  // The quotes and the closing "…" take 3 of the cap; escapes count at their encoded length.
  let room = VALUE_CAP - 3;
  let out = '';
  for (const char of text) {
    room -= JSON.stringify(char).length - 2;
    if (room < 0) break;
    out += char;
  }
  return `${out}…`;
}

/**
 * The template's data variables: the payload's fields, a summary, and the payload as JSON.
 * Loops refuses any value over 500 characters, so each text is cut to fit: the payload most
 * often (the whole of it is the webhook channel's, or at `logLink`).
 */
export function emailVariables(event: CompletedEvent, body: string, reasons: readonly string[]): Record<string, string | number> {
  const { data, links } = event;
  const variables: Record<string, string | number> = {
    summary: summaryLine(event, reasons),
    alertReasons: reasons.join('; '),
    workflowId: data.workflowId,
    executionId: data.executionId,
    status: data.status,
    level: data.level,
    trigger: data.trigger,
    startedAt: data.startedAt,
    endedAt: data.endedAt,
    totalDurationMs: data.totalDurationMs,
    cost: typeof data.cost.total === 'number' ? data.cost.total : 0,
    logLink: links.log,
    executionLink: links.execution,
    payload: body,
  };
  for (const [name, value] of Object.entries(variables)) if (typeof value === 'string') variables[name] = fitLoopsValue(value);
  return variables;
}

/**
 * One recipient of an e-mail channel, sent with `loops_send_transactional_email`. The
 * delivery id is the Idempotency-Key, so Loops itself refuses a second send of the same
 * delivery; the queue's schedule does the retrying, the harness sends each attempt once.
 */
export function emailTarget(key: string, config: EmailTargetConfig, dispatcher: DispatcherLike | undefined, endpoints?: Record<string, string>): Target {
  const domain = config.recipient.slice(config.recipient.lastIndexOf('@'));
  return {
    key,
    label: `email …${domain}`,
    async send(delivery, timeoutMs) {
      const event = JSON.parse(delivery.body) as CompletedEvent;
      const result = await runTool(
        sendTransactionalEmail,
        {
          apiKey: config.apiKey,
          email: config.recipient,
          transactionalId: config.transactionalId,
          dataVariables: emailVariables(event, delivery.body, delivery.reasons),
        },
        {
          dispatcher,
          timeoutMs,
          retry: false,
          idempotencyKey: delivery.id,
          endpoints: config.endpoint ? { ...endpoints, loops: config.endpoint } : endpoints,
        },
      );
      if (result.success) return { kind: 'status', status: result.meta.status ?? 200 };
      const { error } = result;
      // A 409 for our own key after an earlier attempt: that attempt was delivered, its answer lost.
      if (error.code === 'conflict' && delivery.attempts > 1) return { kind: 'status', status: 200 };
      if (error.code === 'timeout') return { kind: 'timeout', afterMs: timeoutMs };
      if (error.code === 'network') return { kind: 'network', message: error.message };
      if (error.status !== undefined) return { kind: 'status', status: error.status };
      return { kind: 'failed', retryable: false, message: `${error.code}: ${error.message}` };
    },
  };
}
