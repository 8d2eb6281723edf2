import { z } from 'zod';
import { defineTool } from '../../src/harness/define-tool.js';
import { apiKeyParam, arrayBody, loopsRequest, SERVICE } from './shared.js';

export default defineTool({
  id: 'loops_list_mailing_lists',
  name: 'List mailing lists',
  description: 'List the mailing lists of the Loops team, with their ids (for the mailingLists param of the contact and event tools).',
  scopes: [],
  annotations: { readOnly: true, destructive: false, idempotent: true },
  service: SERVICE,
  params: z.object({ apiKey: apiKeyParam }),
  output: z.object({
    mailingLists: z
      .array(
        z.object({
          id: z.string().describe('Mailing-list id'),
          name: z.string(),
          description: z.string().nullable().describe('null when unset'),
          isPublic: z.boolean().describe('Shown to contacts on the preference page'),
        }),
      )
      .describe('Every mailing list'),
  }),
  request: (p, options) => loopsRequest(p.apiKey, options, { method: 'GET', path: '/lists' }),
  response: (res) => ({
    mailingLists: arrayBody(res, 'mailing lists').map((list) => ({
      id: list.id as string,
      name: list.name as string,
      description: (list.description ?? null) as string | null,
      isPublic: list.isPublic as boolean,
    })),
  }),
});
