import { z } from 'zod';
import { apiKeyParam, connection, defined } from './connection.js';
import { contactIdentityParams, customPropertiesParam, identityRule, mailingListsParam, text } from './params.js';

export default connection.defineTool({
  id: 'loops_update_contact',
  resource: 'Contact',
  name: 'Update contact',
  description:
    'Update a Loops contact found by email or userId, creating it when none matches (upsert). With both, a contact matching either is updated and the other value set on it; to change an e-mail address, send the contact\'s userId with the new email. Leave subscribed out unless you mean it: true re-subscribes an unsubscribed contact. In customProperties, null resets a property.',
  scopes: [],
  annotations: { readOnly: false, destructive: true, idempotent: true },
  params: z
    .object({
      apiKey: apiKeyParam,
      ...contactIdentityParams,
      firstName: text().optional().describe('First name'),
      lastName: text().optional().describe('Last name'),
      source: text().optional().describe('Where the contact came from; replaces the default "API"'),
      subscribed: z.boolean().optional().describe('Re-subscribe (true) or unsubscribe (false) the contact; leave out to keep as is'),
      userGroup: text().optional().describe('The contact\'s user group (one per contact)'),
      mailingLists: mailingListsParam,
      customProperties: customPropertiesParam(true),
    })
    .superRefine(identityRule('at-least-one')),
  output: z.object({
    success: z.boolean().describe('True when the contact was updated or created'),
    id: z.string().describe('Id of the updated or created contact'),
  }),
  request: (p) => ({
    method: 'PUT',
    path: '/contacts/update',
    body: {
      json: {
        ...p.customProperties,
        ...defined({
          email: p.email,
          userId: p.userId,
          firstName: p.firstName,
          lastName: p.lastName,
          source: p.source,
          subscribed: p.subscribed,
          userGroup: p.userGroup,
          mailingLists: p.mailingLists,
        }),
      },
    },
  }),
  wire: z.looseObject({ success: z.boolean(), id: z.string() }),
  response: ({ body }) => ({ success: body.success, id: body.id }),
});
