import { z } from 'zod';
import { apiKeyParam, connection } from './connection.js';

/** A bare array of the lists; an unset description may be missing or null. */
const wire = z.array(
  z.looseObject({ id: z.string(), name: z.string(), description: z.string().nullish(), isPublic: z.boolean() }),
  { error: 'expected an array of mailing lists' },
);

export default connection.defineTool({
  id: 'loops_list_mailing_lists',
  resource: 'Mailing List',
  name: 'List mailing lists',
  description: 'List the mailing lists of the Loops team, with their ids (for the mailingLists param of the contact and event tools).',
  scopes: [],
  annotations: { readOnly: true, destructive: false, idempotent: true },
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
  request: () => ({ method: 'GET', path: '/lists' }),
  wire,
  response: ({ body }) => ({
    mailingLists: body.map((list) => ({ id: list.id, name: list.name, description: list.description ?? null, isPublic: list.isPublic })),
  }),
});
