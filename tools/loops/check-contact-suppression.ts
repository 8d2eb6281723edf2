import { z } from 'zod';
import { connection } from './connection.js';
import { removalQuotaSchema } from './schemas.js';
import { contactLookupParams } from './params.js';

const output = z.object({
  contact: z
    .object({ id: z.string(), email: z.string(), userId: z.string().nullable() })
    .describe('The contact checked'),
  isSuppressed: z.boolean().describe('True when Loops no longer sends to this contact (hard bounce or spam complaint)'),
  removalQuota: removalQuotaSchema,
});

export default connection.defineTool({
  id: 'loops_check_contact_suppression',
  resource: 'Contact',
  name: 'Check contact suppression',
  description:
    'Check whether a Loops contact (by exactly one of email or userId) is suppressed after a hard bounce or spam complaint, and how many suppression removals the team has left.',
  scopes: [],
  annotations: { readOnly: true, destructive: false, idempotent: true },
  params: contactLookupParams,
  output,
  request: (p) => ({
    method: 'GET',
    path: '/contacts/suppression',
    query: { email: p.email, userId: p.userId },
  }),
  // The answer is the spec's record itself.
  wire: output,
  response: ({ body }) => body,
});
