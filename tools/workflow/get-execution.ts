import { z } from 'zod';
import { defineTool } from '../../src/harness/define-tool.js';
import { pathIdParam, pathSegment } from '../../src/harness/path-segment.js';
import { executionDetailSchema } from './schemas.js';
import { apiKeyHeaders, apiKeyParam, baseUrlParam, SERVICE, workflowUrl } from './shared.js';

export default defineTool({
  id: 'workflow_get_execution',
  name: 'Get execution',
  description:
    'Read the workflow state snapshot of one execution (its blocks, edges, loops and parallels) with its metadata: trigger, start and end times, duration and cost.',
  scopes: [],
  annotations: { readOnly: true, destructive: false, idempotent: true },
  service: SERVICE,
  params: z.object({
    base_url: baseUrlParam,
    apiKey: apiKeyParam,
    executionId: pathIdParam('Execution id'),
  }),
  output: executionDetailSchema,
  request: (p) => ({
    method: 'GET',
    url: workflowUrl(p.base_url, `/api/v1/logs/executions/${pathSegment(p.executionId)}`),
    headers: apiKeyHeaders(p.apiKey),
  }),
  response: (res) => res.body as z.input<typeof executionDetailSchema>,
});
