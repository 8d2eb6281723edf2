import { z } from 'zod';
import { pathIdParam, pathSegment } from '../../src/kit.js';
import { baseUrlParam, connection, tokenParam } from './connection.js';
import { jobSchema } from './params.js';

export default connection.defineTool({
  id: 'tinybird_cancel_job',
  resource: 'Job',
  name: 'Cancel job',
  description:
    'Cancel a Tinybird job (an append import, a delete, a populate) that has not finished: it moves to cancelling, then cancelled. A waiting job can always be cancelled; a working one only for some kinds. A finished or already cancelling job is refused (bad_request).',
  scopes: ['DATASOURCES:CREATE'],
  annotations: { readOnly: false, destructive: true, idempotent: false },
  params: z.object({ base_url: baseUrlParam, token: tokenParam, job_id: pathIdParam('Job id from an append, a delete or tinybird_list_jobs') }),
  output: jobSchema,
  request: (p) => ({ method: 'POST', path: `/v0/jobs/${pathSegment(p.job_id)}/cancel` }),
  wire: jobSchema,
  response: ({ body }) => body,
});
