import { z } from 'zod';
import { baseUrlParam, connection, tokenParam } from './connection.js';
import { datasourceParam, datasourceRefSchema, jobEnvelope, jobSchema } from './params.js';

/** The import's answer: the job, its ids (`import_id` and `job_id` are only sometimes there) and its URL. */
const wire = z.looseObject({
  id: z.string(),
  import_id: z.string().optional(),
  job_id: z.string().optional(),
  job_url: z.string(),
  status: z.string(),
  job: jobSchema,
  datasource: datasourceRefSchema.optional(),
});

export default connection.defineTool({
  id: 'tinybird_append_datasource',
  resource: 'Data Source',
  name: 'Append from URL',
  description:
    'Append rows to an existing Tinybird Data Source from a file at an http(s) URL (CSV, NDJSON or Parquet). The import runs as a job: poll it with tinybird_get_job using job_id. Not retried after server errors, since a repeated request imports the file twice.',
  scopes: ['DATASOURCES:CREATE'],
  annotations: { readOnly: false, destructive: false, idempotent: false },
  params: z.object({
    base_url: baseUrlParam,
    token: tokenParam,
    datasource: datasourceParam.describe('Existing Data Source to append to'),
    url: z.url({ protocol: /^https?$/ }).describe('Publicly accessible file URL (http or https)'),
    format: z.enum(['csv', 'ndjson', 'parquet']).default('csv').describe('File format'),
  }),
  output: z.object({
    id: z.string().describe('Job id'),
    import_id: z.string().describe('Import id (equal to the job id)'),
    job_id: z.string().describe('Job id, for tinybird_get_job'),
    job_url: z.string().describe('Job status URL'),
    status: z.string().describe('Initial job status, usually waiting'),
    job: jobSchema,
    datasource: datasourceRefSchema.optional(),
  }),
  request: (p) => ({
    method: 'POST',
    path: '/v0/datasources',
    query: { mode: 'append', name: p.datasource, format: p.format },
    // The file URL goes in the body, where its own query string cannot tangle with ours.
    body: { form: { url: p.url } },
  }),
  wire,
  response: ({ body }) => ({
    ...jobEnvelope(body),
    import_id: body.import_id ?? body.id,
    // The service nests the data source inside the job.
    datasource: body.datasource ?? body.job.datasource,
  }),
});
