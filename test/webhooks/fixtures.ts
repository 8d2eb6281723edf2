import { signWebhook, verifyWebhook } from '../../src/webhooks/index.js';

/** A `workflow.execution.completed` payload as spec 000 gives it. */
export const EVENT = {
  id: 'evt_exec_7',
  type: 'workflow.execution.completed',
  timestamp: 1795000000000,
  data: {
    workflowId: 'wf_orders',
    executionId: 'exec_7',
    status: 'success',
    level: 'info',
    trigger: 'api',
    startedAt: '2026-11-22T09:07:00.000Z',
    endedAt: '2026-11-22T09:07:02.500Z',
    totalDurationMs: 2500,
    cost: { total: 0.0042, tokens: { prompt: 900, completion: 120, total: 1020 } },
    files: null,
    finalOutput: { synced: 12, note: '<b>ok</b> ✓' },
  },
  links: { log: '/v1/logs/log_7', execution: '/v1/logs/executions/exec_7' },
};

/** Signed-at time of the fixtures, in milliseconds. */
export const T = 1795000000000;
export const SECRET = 'whsec-local-4f9a2c7e1b';
export const OTHER_SECRET = 'whsec-next-8d3b6a0f5c';

/** The payload as a sender puts it on the wire: compact, with an escape a re-serializer would undo. */
export const BODY = JSON.stringify(EVENT).replace('<b>', '\\u003cb>');

/** A genuine signed delivery of `event`: its body, its headers, and the event as a receiver verifies it at `timestamp`. */
export function signedDelivery(event: object = EVENT, deliveryId = 'dlv_1', timestamp = T) {
  const body = JSON.stringify(event);
  const { headers } = signWebhook(body, SECRET, { timestamp, deliveryId });
  return { body, headers, verified: () => verifyWebhook({ body, headers, secret: SECRET, now: timestamp }) };
}

/** Another execution's event, for a later genuine delivery. */
export const OTHER_EVENT = { ...EVENT, id: 'evt_exec_8', data: { ...EVENT.data, executionId: 'exec_8' } };
