import { z } from 'zod';
import { apiKeyParam, connection, defined } from './connection.js';
import { customPropertiesParam, emailParam, mailingListsParam, text, userIdParam } from './params.js';

export default connection.defineTool({
  id: 'loops_create_contact',
  resource: 'Contact',
  name: 'Create contact',
  description:
    'Add a new contact to the Loops audience. Fails with conflict (409) when a contact with this email or userId already exists; use loops_update_contact to update-or-create instead. customProperties are set as contact properties, which must already exist in Loops.',
  scopes: [],
  annotations: { readOnly: false, destructive: false, idempotent: false },
  params: z.object({
    apiKey: apiKeyParam,
    email: emailParam.describe('Contact e-mail address'),
    firstName: text().optional().describe('First name'),
    lastName: text().optional().describe('Last name'),
    source: text().optional().describe('Where the contact came from; replaces the default "API"'),
    subscribed: z.boolean().default(true).describe('Subscribe the contact to campaign and workflow e-mail'),
    userGroup: text().optional().describe('The contact\'s user group (one per contact)'),
    userId: userIdParam.optional(),
    mailingLists: mailingListsParam,
    customProperties: customPropertiesParam(false),
  }),
  output: z.object({
    success: z.boolean().describe('True when the contact was created'),
    id: z.string().describe('Id of the new contact'),
  }),
  request: (p) => ({
    method: 'POST',
    path: '/contacts/create',
    // Custom properties travel as top-level keys; the named fields are spread last so they win.
    body: {
      json: {
        ...p.customProperties,
        ...defined({
          email: p.email,
          firstName: p.firstName,
          lastName: p.lastName,
          source: p.source,
          subscribed: p.subscribed,
          userGroup: p.userGroup,
          userId: p.userId,
          mailingLists: p.mailingLists,
        }),
      },
    },
  }),
  wire: z.looseObject({ success: z.boolean(), id: z.string() }),
  response: ({ body }) => ({ success: body.success, id: body.id }),
});
