import { z } from 'zod';
import { pathSegment, uiParam } from '../../src/kit.js';
import { baseUrlParam, connection, tokenParam } from './connection.js';
import { datasourceParam, jobEnvelope, jobSchema } from './params.js';

/**
 * The delete's answer: a job envelope, or for a dry run only `rows_to_be_deleted`. Every
 * field is optional, so it must at least be a JSON object: anything else would read as an empty success.
 */
const wire = z.looseObject({
  id: z.string().optional(),
  job_id: z.string().optional(),
  delete_id: z.string().optional(),
  job_url: z.string().optional(),
  status: z.string().optional(),
  job: jobSchema.optional(),
  rows_to_be_deleted: z.number().optional(),
});

export default connection.defineTool({
  id: 'tinybird_delete_datasource_rows',
  resource: 'Data Source',
  name: 'Delete rows by condition',
  description:
    'Delete the rows of a Tinybird Data Source that match a SQL WHERE condition. The delete runs as a job: poll it with tinybird_get_job (the finished job has rows_affected). With dry_run: true nothing is deleted (read-only) and rows_to_be_deleted says how many rows match; try that first.',
  scopes: ['DATASOURCES:CREATE'],
  annotations: { readOnly: false, destructive: true, idempotent: false },
  params: z.object({
    base_url: baseUrlParam,
    token: tokenParam,
    datasource: datasourceParam,
    delete_condition: uiParam(z.string().trim().min(1).describe('SQL WHERE-clause condition selecting the rows'), {
      ui: 'code',
      language: 'sql',
      placeholder: "event = 'test'",
    }),
    dry_run: z.boolean().default(false).describe('Only count the rows that would be deleted'),
  }),
  output: z.object({
    id: z.string().optional().describe('Job id'),
    job_id: z.string().optional().describe('Job id, for tinybird_get_job'),
    delete_id: z.string().optional().describe('Delete id (equal to the job id)'),
    job_url: z.string().optional().describe('Job status URL'),
    status: z.string().optional().describe('Job status, e.g. waiting or done'),
    job: jobSchema.optional(),
    rows_to_be_deleted: z.number().int().optional().describe('Dry run only: rows that match the condition'),
  }),
  request: (p) => ({
    method: 'POST',
    path: `/v0/datasources/${pathSegment(p.datasource)}/delete`,
    // The service compares dry_run to the exact string "true".
    body: { form: { delete_condition: p.delete_condition, dry_run: p.dry_run ? 'true' : 'false' } },
    // A dry run only counts rows, so it is safe to repeat.
    safeToRetry: p.dry_run,
  }),
  wire,
  response: ({ body }, p) => {
    if (p.dry_run) return { rows_to_be_deleted: body.rows_to_be_deleted };
    return { ...jobEnvelope(body), delete_id: body.delete_id ?? body.id };
  },
});
