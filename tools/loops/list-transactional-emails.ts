import { z } from 'zod';
import { defineTool } from '../../src/kit.js';
import { apiKeyParam, connection } from './connection.js';

const templateSchema = z.object({
  id: z.string().describe('Template id, for loops_send_transactional_email'),
  name: z.string(),
  lastUpdated: z.string().describe('ISO 8601 time of the last change'),
  dataVariables: z.array(z.string()).describe('Names of the template\'s data variables'),
});

const paginationSchema = z
  .object({
    totalResults: z.number(),
    returnedResults: z.number(),
    perPage: z.number(),
    totalPages: z.number(),
    nextCursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page'),
    nextPage: z.string().nullable().describe('URL of the next page; null on the last page'),
  })
  .describe('Paging: totals, and the cursor of the next page');

const output = z.object({
  transactionalEmails: z.array(templateSchema).describe('Published transactional templates on this page'),
  pagination: paginationSchema,
});

export default defineTool({
  id: 'loops_list_transactional_emails',
  name: 'List transactional emails',
  description:
    'List the published transactional e-mail templates of the Loops team, one page at a time (perPage 10 to 50, default 20), with each template\'s id and data-variable names. Pass pagination.nextCursor back as cursor for the next page.',
  scopes: [],
  annotations: { readOnly: true, destructive: false, idempotent: true },
  service: connection.service,
  params: z.object({
    apiKey: apiKeyParam,
    perPage: z.coerce
      .string()
      .regex(/^\d+$/, 'perPage is a whole number from 10 to 50')
      .refine((value) => Number(value) >= 10 && Number(value) <= 50, 'perPage is a whole number from 10 to 50')
      .default('20')
      .describe('Templates per page, 10 to 50'),
    cursor: z.string().min(1).optional().describe('pagination.nextCursor of the previous page'),
  }),
  output,
  pagination: {
    cursorParam: 'cursor',
    nextCursor: (page) => page.pagination.nextCursor,
    items: (page) => page.transactionalEmails,
  },
  request: (p, options) =>
    connection.request(p, options, {
      method: 'GET',
      // The older endpoint: it lists exactly the published templates with lastUpdated, as
      // the spec describes, and works for every team; /transactional-emails also lists
      // drafts and answers 401 unless the team has the content API.
      path: '/transactional',
      query: { perPage: p.perPage, cursor: p.cursor },
    }),
  // The page is `data`; the records are the spec's, so the output's schemas read them.
  wire: z.looseObject({ data: z.array(templateSchema), pagination: paginationSchema }),
  response: ({ body }) => ({ transactionalEmails: body.data, pagination: body.pagination }),
});
