import { z } from 'zod';
import { apiKeyParam, connection, defined, successAnswer } from './connection.js';
import { doneOnRetry } from './done-on-retry.js';
import { idempotencyKey, SENT_ON_EARLIER_ATTEMPT } from './idempotency.js';
import { attachmentsParam, dataVariablesParam, emailParam, text } from './params.js';

/** The whole request must stay under 4 MB, attachments included. */
export const MAX_TRANSACTIONAL_BYTES = 4 * 1024 * 1024;

interface TransactionalParams {
  email: string;
  transactionalId: string;
  addToAudience: boolean;
  dataVariables?: Record<string, unknown>;
  attachments?: { filename: string; contentType: string; data: string }[];
}

function wireBody(p: TransactionalParams) {
  return defined({
    transactionalId: p.transactionalId,
    email: p.email,
    addToAudience: p.addToAudience,
    dataVariables: p.dataVariables,
    attachments: p.attachments,
  });
}

/**
 * The JSON the size check measured, kept on the params object it was made from under a
 * symbol (invisible to JSON and to key listings): zod hands the refined object on as the
 * parsed params, so the request sends the same text instead of building and encoding the
 * body a second time. A property, not a WeakMap: no table that grows with each call.
 */
const MEASURED = Symbol('flowblocks.loops.transactionalJson');

function wireJson(p: TransactionalParams & { [MEASURED]?: string }): string {
  return (p[MEASURED] ??= JSON.stringify(wireBody(p)));
}

export default connection.defineTool({
  id: 'loops_send_transactional_email',
  resource: 'Transactional Email',
  name: 'Send transactional email',
  description:
    'Send a published Loops transactional e-mail template to one recipient, filling its data variables (every required one must be given). Each call carries an Idempotency-Key (options.idempotencyKey, or one generated per call and kept across retries), so a retry never sends twice; reusing a key within 24 h fails with conflict. The request, attachments included, must stay under 4 MB.',
  scopes: [],
  annotations: { readOnly: false, destructive: false, idempotent: false },
  params: z
    .object({
      apiKey: apiKeyParam,
      email: emailParam.describe('Recipient e-mail address'),
      transactionalId: text().min(1).describe('Id of the transactional e-mail template (from loops_list_transactional_emails)'),
      dataVariables: dataVariablesParam,
      addToAudience: z.boolean().default(false).describe('Also create the recipient as a contact if absent'),
      attachments: attachmentsParam,
    })
    .superRefine((p, ctx) => {
      const bytes = Buffer.byteLength(wireJson(p));
      if (bytes >= MAX_TRANSACTIONAL_BYTES) {
        ctx.addIssue({
          code: 'custom',
          path: [p.attachments ? 'attachments' : 'dataVariables'],
          message: `the request would be ${bytes} bytes; Loops takes under 4 MB (${MAX_TRANSACTIONAL_BYTES} bytes), attachments included`,
        });
      }
    }),
  output: z.object({
    success: z.boolean().describe('True when the e-mail was accepted for sending'),
  }),
  request: (p, options) => ({
    method: 'POST',
    path: '/transactional',
    body: { text: wireJson(p), contentType: 'application/json' },
    idempotencyKey: idempotencyKey(options),
  }),
  wire: successAnswer,
  response: ({ body }) => ({ success: body.success }),
  run: (p, ctx) => doneOnRetry(ctx, p, { status: 409, output: { success: true }, note: SENT_ON_EARLIER_ATTEMPT }),
});
