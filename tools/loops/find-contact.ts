import { z } from 'zod';
import { connection } from './connection.js';
import { contactSchema, contactWire, toContact } from './schemas.js';
import { contactLookupParams } from './params.js';

export default connection.defineTool({
  id: 'loops_find_contact',
  resource: 'Contact',
  name: 'Find contact',
  description:
    'Look up a Loops contact by exactly one of email or userId. Returns contacts: an array with the match, or empty when there is none (not an error).',
  scopes: [],
  annotations: { readOnly: true, destructive: false, idempotent: true },
  params: contactLookupParams,
  output: z.object({
    contacts: z.array(contactSchema).describe('Matching contacts (empty when none)'),
  }),
  request: (p) => ({
    method: 'GET',
    path: '/contacts/find',
    // The query encoder turns "+" into %2B, as the service requires.
    query: { email: p.email, userId: p.userId },
  }),
  // A bare array: one contact, or none.
  wire: z.array(contactWire, { error: 'expected an array of contacts' }),
  response: ({ body }) => ({ contacts: body.map(toContact) }),
});
