import { z } from 'zod';
import { apiKeyParam, connection } from './connection.js';

export default connection.defineTool({
  id: 'loops_list_contact_properties',
  resource: 'Contact Property',
  name: 'List contact properties',
  description:
    'List the contact properties of the Loops team: all of them (default properties such as firstName included) or only the custom ones, each with its key, label and type.',
  scopes: [],
  annotations: { readOnly: true, destructive: false, idempotent: true },
  params: z.object({
    apiKey: apiKeyParam,
    list: z.enum(['all', 'custom']).default('all').describe('all properties, or only custom ones'),
  }),
  output: z.object({
    properties: z
      .array(
        z.object({
          key: z.string().describe('Property key, as used in customProperties'),
          label: z.string().describe('Name shown in Loops'),
          type: z.string().describe('string, number, boolean or date'),
        }),
      )
      .describe('Contact properties'),
  }),
  request: (p) =>
    ({ method: 'GET', path: '/contacts/properties', query: { list: p.list } }),
  wire: z.array(z.looseObject({ key: z.string(), label: z.string(), type: z.string() }), { error: 'expected an array of contact properties' }),
  response: ({ body }) => ({ properties: body.map((prop) => ({ key: prop.key, label: prop.label, type: prop.type })) }),
});
