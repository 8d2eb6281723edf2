import { z } from 'zod';
import { connection, defined } from './connection.js';
import { doneOnRetry } from './done-on-retry.js';
import { contactLookupParams } from './params.js';

export default connection.defineTool({
  id: 'loops_delete_contact',
  resource: 'Contact',
  name: 'Delete contact',
  description:
    'Delete a Loops contact by exactly one of email or userId. Not reversible. Fails with not_found when no contact matches.',
  scopes: [],
  annotations: { readOnly: false, destructive: true, idempotent: true },
  params: contactLookupParams,
  output: z.object({
    success: z.boolean().describe('True when the contact is gone'),
    message: z.string().describe('The service\'s confirmation'),
  }),
  request: (p) => ({
    method: 'POST',
    path: '/contacts/delete',
    body: { json: defined({ email: p.email, userId: p.userId }) },
  }),
  wire: z.looseObject({ success: z.boolean(), message: z.string() }),
  response: ({ body }) => ({ success: body.success, message: body.message }),
  // A retry after a lost answer finds the contact already gone.
  run: (p, ctx) =>
    doneOnRetry(ctx, p, {
      status: 404,
      output: { success: true, message: 'Contact deleted.' },
      note: 'A retry found no contact: an earlier attempt of this call most likely deleted it (its answer was lost); either way the contact is gone.',
    }),
});
