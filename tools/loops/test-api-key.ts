import { z } from 'zod';
import { defineTool } from '../../src/harness/define-tool.js';
import { apiKeyParam, loopsRequest, SERVICE, successBody } from './shared.js';

export default defineTool({
  id: 'loops_test_api_key',
  name: 'Test API key',
  description: 'Check that a Loops API key is valid and see which team it belongs to. An invalid key fails with unauthorized.',
  scopes: [],
  annotations: { readOnly: true, destructive: false, idempotent: true },
  service: SERVICE,
  params: z.object({ apiKey: apiKeyParam }),
  output: z.object({
    success: z.boolean().describe('True when the key is valid'),
    teamName: z.string().optional().describe('Name of the team the key belongs to'),
  }),
  request: (p, options) => loopsRequest(p.apiKey, options, { method: 'GET', path: '/api-key' }),
  response: (res) => {
    const body = successBody<{ success: boolean; teamName?: string }>(res);
    // Older answers carry no teamName; leave the key out rather than set it to undefined.
    return body.teamName === undefined ? { success: body.success } : { success: body.success, teamName: body.teamName };
  },
});
