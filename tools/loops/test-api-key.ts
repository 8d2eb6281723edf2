import { z } from 'zod';
import { apiKeyParam, connection } from './connection.js';

export default connection.defineTool({
  id: 'loops_test_api_key',
  resource: 'Account',
  name: 'Test API key',
  description: 'Check that a Loops API key is valid and see which team it belongs to. An invalid key fails with unauthorized.',
  scopes: [],
  annotations: { readOnly: true, destructive: false, idempotent: true },
  params: z.object({ apiKey: apiKeyParam }),
  output: z.object({
    success: z.boolean().describe('True when the key is valid'),
    teamName: z.string().optional().describe('Name of the team the key belongs to'),
  }),
  request: () => ({ method: 'GET', path: '/api-key' }),
  wire: z.looseObject({ success: z.boolean(), teamName: z.string().optional() }),
  // Older answers carry no teamName; leave the key out rather than set it to undefined.
  response: ({ body }) => (body.teamName === undefined ? { success: body.success } : { success: body.success, teamName: body.teamName }),
});
