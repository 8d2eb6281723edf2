import { z } from 'zod';
import { baseUrlParam, connection, tokenParam } from './connection.js';
import { jobSchema } from './params.js';

/** ISO 8601 date or time, as the Jobs API's created_after / created_before take them. */
const isoTime = z.iso.datetime({ offset: true, local: true }).or(z.iso.date());

export default connection.defineTool({
  id: 'tinybird_list_jobs',
  resource: 'Job',
  name: 'List jobs',
  description:
    'List the Tinybird workspace\'s jobs of the last 48 hours (the last 100), newest last, filtered by kind (import, delete_data, populateview, copy, …), status (waiting, working, done, error, cancelling, cancelled), pipe and creation time. Check here whether an append or delete already ran before retrying it.',
  scopes: ['DATASOURCES:CREATE'],
  annotations: { readOnly: true, destructive: false, idempotent: true },
  params: z.object({
    base_url: baseUrlParam,
    token: tokenParam,
    kind: z.string().regex(/^[a-z_]+$/, 'a job kind such as import or delete_data').optional().describe('Job kind: import, delete_data, populateview, copy, sink, …'),
    status: z.enum(['waiting', 'working', 'done', 'error', 'cancelling', 'cancelled']).optional().describe('Job status'),
    pipe_id: z.string().min(1).optional().describe('Only jobs of this pipe (by id)'),
    pipe_name: z.string().min(1).optional().describe('Only jobs of this pipe (by name)'),
    created_after: isoTime.optional().describe('Only jobs created after this ISO 8601 time'),
    created_before: isoTime.optional().describe('Only jobs created before this ISO 8601 time'),
  }),
  output: z.object({ jobs: z.array(jobSchema).describe('Jobs, as the Jobs API lists them') }),
  request: (p) => ({
    method: 'GET',
    path: '/v0/jobs',
    query: { kind: p.kind, status: p.status, pipe_id: p.pipe_id, pipe_name: p.pipe_name, created_after: p.created_after, created_before: p.created_before },
  }),
  wire: z.looseObject({ jobs: z.array(jobSchema) }),
  response: ({ body }) => ({ jobs: body.jobs }),
});
