import { z } from 'zod';
import { defineTool } from '../../src/harness/define-tool.js';
import { pathIdParam, pathSegment } from '../../src/harness/path-segment.js';
import { logDetailSchema } from './schemas.js';
import { apiKeyHeaders, apiKeyParam, baseUrlParam, bodyRecord, SERVICE, workflowUrl } from './shared.js';

export default defineTool({
  id: 'workflow_get_log',
  name: 'Get log',
  description:
    'Read one execution log by its id: the run (workflow, level, trigger, times, duration), its execution data (trace spans, final output), its cost (total, tokens, per model) and the current limits.',
  scopes: [],
  annotations: { readOnly: true, destructive: false, idempotent: true },
  service: SERVICE,
  params: z.object({
    base_url: baseUrlParam,
    apiKey: apiKeyParam,
    id: pathIdParam('Log id, from List logs or a completion notification'),
  }),
  output: z.object({ data: logDetailSchema.describe('The log detail, with the limits object inside') }),
  request: (p) => ({
    method: 'GET',
    url: workflowUrl(p.base_url, `/api/v1/logs/${pathSegment(p.id)}`),
    headers: apiKeyHeaders(p.apiKey),
  }),
  response: (res) => {
    const body = bodyRecord(res.body);
    const data = bodyRecord(body.data);
    // The spec puts limits inside data; deployments put them beside it.
    const limits = data.limits ?? body.limits;
    return { data: (limits === undefined ? data : { ...data, limits }) as z.input<typeof logDetailSchema> };
  },
});
