import type { Dispatcher } from 'undici';
import sendTransactionalEmail from '../../../tools/loops/send-transactional-email.js';
import { runTool } from '../../harness/execute.js';
import type { CompletedEvent } from '../payload.js';
import type { Target } from '../queue.js';
import { summaryLine } from '../summary.js';

export interface EmailTargetConfig {
  recipient: string;
  transactionalId: string;
  apiKey: string;
  endpoint?: string;
}

/** The template's data variables: the payload's fields, a summary, and the payload itself as JSON. */
export function emailVariables(event: CompletedEvent, body: string, reasons: readonly string[]): Record<string, string | number> {
  const { data, links } = event;
  return {
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
}

/**
 * One recipient of an e-mail channel, sent with `loops_send_transactional_email`. The
 * delivery id is the Idempotency-Key, so Loops itself refuses a second send of the same
 * delivery; the queue's schedule does the retrying, the harness sends each attempt once.
 */
export function emailTarget(key: string, config: EmailTargetConfig, dispatcher: Dispatcher, endpoints?: Record<string, string>): Target {
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
