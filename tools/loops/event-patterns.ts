import { z } from 'zod';
import { pathIdParam, pathSegment } from '../../src/kit.js';
import { apiKeyParam, connection } from './connection.js';
import { cursorParam, paginationSchema, perPageParam } from './pagination.js';

/** `EventPatternSummary` of OpenAPI 1.21.6. */
const summarySchema = z.looseObject({
  id: z.string(),
  eventName: z.string().describe('Event name, as loops_send_event sends it (case-sensitive)'),
  incomingWebhookPlatform: z.string().nullable().optional().describe('The platform of an incoming-webhook event; null for custom events'),
});

/** `EventPattern`: the summary with the event's properties and their types. */
const patternSchema = summarySchema.extend({
  eventProperties: z
    .array(z.looseObject({ name: z.string(), type: z.string().describe('string, number, boolean or date') }))
    .default([])
    .describe('Event properties workflows read, with their types'),
});

export const listEventPatterns = connection.defineTool({
  id: 'loops_list_event_patterns',
  resource: 'Event',
  name: 'List event patterns',
  description:
    'List the event patterns of the Loops team (the event names workflows can be triggered by), one page at a time. Pass pagination.nextCursor back as cursor for the next page; read one pattern\'s properties with loops_get_event_pattern.',
  scopes: [],
  annotations: { readOnly: true, destructive: false, idempotent: true },
  params: z.object({ apiKey: apiKeyParam, perPage: perPageParam('Event patterns'), cursor: cursorParam }),
  output: z.object({ eventPatterns: z.array(summarySchema).describe('Event patterns on this page'), pagination: paginationSchema }),
  pagination: { cursorParam: 'cursor', nextCursor: (page) => page.pagination.nextCursor, items: (page) => page.eventPatterns },
  request: (p) => ({ method: 'GET', path: '/event-patterns', query: { perPage: p.perPage, cursor: p.cursor } }),
  wire: z.looseObject({ data: z.array(summarySchema), pagination: paginationSchema }),
  response: ({ body }) => ({ eventPatterns: body.data, pagination: body.pagination }),
});

export const getEventPattern = connection.defineTool({
  id: 'loops_get_event_pattern',
  resource: 'Event',
  name: 'Get event pattern',
  description:
    'Read one Loops event pattern, by its event name (case-sensitive) or its id, with the event properties workflows read and their types, so loops_send_event can be called with the right eventProperties.',
  scopes: [],
  annotations: { readOnly: true, destructive: false, idempotent: true },
  params: z
    .object({
      apiKey: apiKeyParam,
      eventName: pathIdParam('Event name (case-sensitive)').optional(),
      eventPatternId: pathIdParam('Event pattern id, from loops_list_event_patterns').optional(),
    })
    .refine((p) => (p.eventName === undefined) !== (p.eventPatternId === undefined), { message: 'give exactly one of eventName or eventPatternId', path: ['eventName'] }),
  output: patternSchema,
  request: (p) => ({
    method: 'GET',
    path: p.eventPatternId !== undefined ? `/event-patterns/${pathSegment(p.eventPatternId)}` : `/event-patterns/by-name/${pathSegment(p.eventName!)}`,
  }),
  wire: patternSchema,
  response: ({ body }) => body,
});

export const listDedicatedSendingIps = connection.defineTool({
  id: 'loops_list_dedicated_sending_ips',
  resource: 'Account',
  name: 'List dedicated sending IPs',
  description:
    'List Loops\' dedicated sending IP addresses, for the rare allow-list that needs them. The list changes over time and leaves out the shared IPs Loops also sends from.',
  scopes: [],
  annotations: { readOnly: true, destructive: false, idempotent: true },
  params: z.object({ apiKey: apiKeyParam }),
  output: z.object({ ips: z.array(z.string()).describe('IP addresses') }),
  request: () => ({ method: 'GET', path: '/dedicated-sending-ips' }),
  wire: z.array(z.string()),
  response: ({ body }) => ({ ips: body }),
});
