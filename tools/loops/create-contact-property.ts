import { z } from 'zod';
import { apiKeyParam, connection, successAnswer } from './connection.js';
import { propertyNameParam, propertyTypeParam } from './params.js';

export default connection.defineTool({
  id: 'loops_create_contact_property',
  resource: 'Contact Property',
  name: 'Create contact property',
  description:
    'Create a custom contact property in Loops, so contacts and events can carry it. The name is camelCase (e.g. planName) and cannot be a reserved or default name; the type is string, number, boolean or date. Fails when the property already exists.',
  scopes: [],
  annotations: { readOnly: false, destructive: false, idempotent: false },
  params: z.object({
    apiKey: apiKeyParam,
    name: propertyNameParam,
    type: propertyTypeParam,
  }),
  output: z.object({
    success: z.boolean().describe('True when the property was created'),
  }),
  request: (p) => ({
    method: 'POST',
    path: '/contacts/properties',
    body: { json: { name: p.name, type: p.type } },
  }),
  wire: successAnswer,
  response: ({ body }) => ({ success: body.success }),
});
