import { z } from 'zod';
import { pathIdParam, pathSegment } from '../../src/kit.js';
import { apiKeyParam, baseUrlParam, connection } from './connection.js';
import { executionDetailSchema } from './schemas.js';

export default connection.defineTool({
  id: 'workflow_get_execution',
  resource: 'Execution',
  name: 'Get execution',
  description:
    'Read the workflow state snapshot of one execution (its blocks, edges, loops and parallels) with its metadata: trigger, start and end times, duration and cost.',
  scopes: [],
  annotations: { readOnly: true, destructive: false, idempotent: true },
  params: z.object({
    base_url: baseUrlParam,
    apiKey: apiKeyParam,
    executionId: pathIdParam('Execution id'),
  }),
  output: executionDetailSchema,
  request: (p) => ({ method: 'GET', path: `/api/v1/logs/executions/${pathSegment(p.executionId)}` }),
  // The answer is the spec's record itself.
  wire: executionDetailSchema,
  response: (res) => res.body,
});
