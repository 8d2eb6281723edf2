import { z } from 'zod';
import { defineTool } from '../../src/harness/define-tool.js';
import { contactSchema, toContact } from './contact.js';
import { emailParam, identityRule, userIdParam } from './params.js';
import { apiKeyParam, arrayBody, loopsRequest, SERVICE } from './shared.js';

export default defineTool({
  id: 'loops_find_contact',
  name: 'Find contact',
  description:
    'Look up a Loops contact by exactly one of email or userId. Returns contacts: an array with the match, or empty when there is none (not an error).',
  scopes: [],
  annotations: { readOnly: true, destructive: false, idempotent: true },
  service: SERVICE,
  params: z
    .object({
      apiKey: apiKeyParam,
      email: emailParam.optional().describe('Contact e-mail address (for a transactional e-mail: the recipient)'),
      userId: userIdParam.optional(),
    })
    .superRefine(identityRule('exactly-one')),
  output: z.object({
    contacts: z.array(contactSchema).describe('Matching contacts (empty when none)'),
  }),
  request: (p, options) =>
    loopsRequest(p.apiKey, options, {
      method: 'GET',
      path: '/contacts/find',
      // The query encoder turns "+" into %2B, as the service requires.
      query: { email: p.email, userId: p.userId },
    }),
  response: (res) => ({ contacts: arrayBody(res, 'contacts').map(toContact) }),
});
