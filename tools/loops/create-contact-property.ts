import { z } from 'zod';
import { defineTool } from '../../src/harness/define-tool.js';
import { propertyNameParam, propertyTypeParam } from './params.js';
import { apiKeyParam, loopsRequest, SERVICE, successBody } from './shared.js';

export default defineTool({
  id: 'loops_create_contact_property',
  name: 'Create contact property',
  description:
    'Create a custom contact property in Loops, so contacts and events can carry it. The name is camelCase (e.g. planName) and cannot be a reserved or default name; the type is string, number, boolean or date. Fails when the property already exists.',
  scopes: [],
  annotations: { readOnly: false, destructive: false, idempotent: false },
  service: SERVICE,
  params: z.object({
    apiKey: apiKeyParam,
    name: propertyNameParam,
    type: propertyTypeParam,
  }),
  output: z.object({
    success: z.boolean().describe('True when the property was created'),
  }),
  request: (p, options) =>
    loopsRequest(p.apiKey, options, {
      method: 'POST',
      path: '/contacts/properties',
      body: { json: { name: p.name, type: p.type } },
    }),
  response: (res) => ({ success: successBody<{ success: boolean }>(res).success }),
});
