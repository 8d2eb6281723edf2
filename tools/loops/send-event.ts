import { z } from 'zod';
import { apiKeyParam, connection, defined, successAnswer } from './connection.js';
import { doneOnRetry } from './done-on-retry.js';
import { idempotencyKey, SENT_ON_EARLIER_ATTEMPT } from './idempotency.js';
import { contactIdentityParams, eventPropertiesParam, identityRule, mailingListsParam, text } from './params.js';

export default connection.defineTool({
  id: 'loops_send_event',
  resource: 'Event',
  name: 'Send event',
  description:
    'Send an event for a Loops contact (found by email and/or userId, created when none matches) to trigger the workflows that listen for it. A new eventName creates the event. Each call carries an Idempotency-Key (options.idempotencyKey, or one generated per call and kept across retries), so a retry never triggers twice; reusing a key within 24 h fails with conflict.',
  scopes: [],
  annotations: { readOnly: false, destructive: false, idempotent: false },
  params: z
    .object({
      apiKey: apiKeyParam,
      eventName: text().trim().min(1).describe('Name of the event, e.g. signup'),
      ...contactIdentityParams,
      eventProperties: eventPropertiesParam,
      mailingLists: mailingListsParam,
    })
    .superRefine(identityRule('at-least-one')),
  output: z.object({
    success: z.boolean().describe('True when the event was recorded'),
  }),
  request: (p, options) => ({
    method: 'POST',
    path: '/events/send',
    body: {
      json: defined({
        eventName: p.eventName,
        email: p.email,
        userId: p.userId,
        eventProperties: p.eventProperties,
        mailingLists: p.mailingLists,
      }),
    },
    idempotencyKey: idempotencyKey(options),
  }),
  wire: successAnswer,
  response: ({ body }) => ({ success: body.success }),
  run: (p, ctx) => doneOnRetry(ctx, p, { status: 409, output: { success: true }, note: SENT_ON_EARLIER_ATTEMPT }),
});
