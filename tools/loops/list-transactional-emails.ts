import { z } from 'zod';
import { defineTool, parseWire, ToolFailure } from '../../src/kit.js';
import { apiKeyParam, connection } from './connection.js';
import { cursorParam, paginationSchema, perPageParam } from './pagination.js';

const templateSchema = z.object({
  id: z.string().describe('Template id, for loops_send_transactional_email and loops_get_transactional_email'),
  name: z.string(),
  lastUpdated: z.string().describe('ISO 8601 time of the last change'),
  dataVariables: z.array(z.string()).describe('Names of the template\'s data variables (empty for a template never published)'),
  published: z.boolean().describe('False for a draft that was never published: it cannot be sent yet'),
  createdAt: z.string().optional().describe('ISO 8601 creation time (newer endpoint only)'),
});

const output = z.object({
  transactionalEmails: z.array(templateSchema).describe('Transactional templates on this page'),
  pagination: paginationSchema,
  endpoint: z
    .enum(['/transactional-emails', '/transactional'])
    .describe('The endpoint that answered: /transactional (published templates only) when the account has no /transactional-emails'),
});

/** `GET /transactional-emails` (OpenAPI 1.21.6 `listTransactionalEmails`): every template, newest first. */
const newerItem = z.looseObject({
  id: z.string(),
  name: z.string(),
  publishedEmailMessageId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string().optional(),
  dataVariables: z.array(z.string()).default([]),
});

/** `GET /transactional` (deprecated `listPublishedTransactionalEmails`): published templates only. */
const olderWire = z.looseObject({
  data: z.array(z.looseObject({ id: z.string(), name: z.string(), lastUpdated: z.string(), dataVariables: z.array(z.string()) })),
  pagination: paginationSchema,
});

/** Statuses of the newer endpoint after which the older one is asked: 404 (not on this account), 401 (no content API). */
const FALL_BACK_ON = new Set([401, 404]);

export default defineTool({
  id: 'loops_list_transactional_emails',
  resource: 'Transactional Email',
  name: 'List transactional emails',
  description:
    'List the transactional e-mail templates of the Loops team, one page at a time (perPage 10 to 50, default 20), with each template\'s id, whether it is published, and its data-variable names. Pass pagination.nextCursor back as cursor for the next page. Drafts never published are listed with published: false and no data variables.',
  scopes: [],
  annotations: { readOnly: true, destructive: false, idempotent: true },
  lists: { param: 'transactionalId', value: 'id', label: 'name' },
  service: connection.service,
  params: z.object({
    apiKey: apiKeyParam,
    perPage: perPageParam('Templates'),
    cursor: cursorParam,
  }),
  output,
  pagination: {
    cursorParam: 'cursor',
    nextCursor: (page) => page.pagination.nextCursor,
    items: (page) => page.transactionalEmails,
  },
  // The current endpoint; the deprecated /transactional is asked only when this one answers 404 or 401.
  request: (p, options) =>
    connection.request(p, options, { method: 'GET', path: '/transactional-emails', query: { perPage: p.perPage, cursor: p.cursor } }),
  wire: z.looseObject({ data: z.array(newerItem), pagination: paginationSchema }),
  response: ({ body }) => ({
    transactionalEmails: body.data.map((t) => ({
      id: t.id,
      name: t.name,
      lastUpdated: t.updatedAt ?? t.createdAt,
      dataVariables: t.dataVariables,
      published: t.publishedEmailMessageId !== null,
      createdAt: t.createdAt,
    })),
    pagination: body.pagination,
    endpoint: '/transactional-emails' as const,
  }),
  run: async (p, ctx) => {
    try {
      return await ctx.call(p);
    } catch (error) {
      if (!(error instanceof ToolFailure) || !FALL_BACK_ON.has(error.error.status ?? 0)) throw error;
      ctx.note(`/transactional-emails answered ${error.error.status}; listed the published templates from /transactional`);
      const older = connection.request(p, ctx.options, { method: 'GET', path: '/transactional', query: { perPage: p.perPage, cursor: p.cursor } });
      const { body } = parseWire(olderWire, await ctx.send(older));
      return {
        transactionalEmails: body.data.map((t) => ({ id: t.id, name: t.name, lastUpdated: t.lastUpdated, dataVariables: t.dataVariables, published: true })),
        pagination: body.pagination,
        endpoint: '/transactional' as const,
      };
    }
  },
});
