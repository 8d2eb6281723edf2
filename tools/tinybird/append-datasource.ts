import { z } from 'zod';
import { defineTool } from '../../src/harness/define-tool.js';
import { authHeaders, baseUrlParam, datasourceParam, datasourceRefSchema, jobSchema, SERVICE, tinybirdUrl, tokenParam } from './shared.js';

interface AppendBody {
  id?: string;
  import_id?: string;
  job_id?: string;
  job_url?: string;
  status?: string;
  job?: { datasource?: unknown };
  datasource?: unknown;
}

export default defineTool({
  id: 'tinybird_append_datasource',
  name: 'Append from URL',
  description:
    'Append rows to an existing Tinybird Data Source from a file at an http(s) URL (CSV, NDJSON or Parquet). The import runs as a job: poll it with tinybird_get_job using job_id. Not retried after server errors, since a repeated request imports the file twice.',
  scopes: ['DATASOURCES:CREATE'],
  annotations: { readOnly: false, destructive: false, idempotent: false },
  service: SERVICE,
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
    url: tinybirdUrl(p.base_url, '/v0/datasources'),
    query: { mode: 'append', name: p.datasource, format: p.format },
    headers: authHeaders(p.token),
    // The file URL goes in the body, where its own query string cannot tangle with ours.
    body: { form: { url: p.url } },
  }),
  response: (res) => {
    const body = res.body as AppendBody;
    return {
      id: body.id as string,
      import_id: (body.import_id ?? body.id) as string,
      job_id: (body.job_id ?? body.id) as string,
      job_url: body.job_url as string,
      status: body.status as string,
      job: body.job as z.input<typeof jobSchema>,
      // The service nests the data source inside the job.
      datasource: (body.datasource ?? body.job?.datasource) as z.input<typeof datasourceRefSchema> | undefined,
    };
  },
});
