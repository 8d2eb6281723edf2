import { z } from 'zod';
import { connection } from './connection.js';
import { removalQuotaSchema } from './schemas.js';
import { contactLookupParams } from './params.js';

const output = z.object({
  success: z.boolean().describe('True when the contact was taken off the suppression list'),
  message: z.string().describe('The service\'s confirmation'),
  removalQuota: removalQuotaSchema,
});

export default connection.defineTool({
  id: 'loops_remove_contact_suppression',
  resource: 'Contact',
  name: 'Remove contact suppression',
  description:
    'Take a suppressed Loops contact (by exactly one of email or userId) off the suppression list so e-mail reaches it again. Uses one of the team\'s limited removals per 30 days; fails with bad_request when the contact is not suppressed or the quota is used up.',
  scopes: [],
  annotations: { readOnly: false, destructive: false, idempotent: false },
  params: contactLookupParams,
  output,
  request: (p) => ({
    method: 'DELETE',
    path: '/contacts/suppression',
    // The identifier goes in the query string, not a body.
    query: { email: p.email, userId: p.userId },
  }),
  // The answer is the spec's record itself.
  wire: output,
  response: ({ body }) => body,
});
