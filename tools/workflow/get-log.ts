import { z } from 'zod';
import { pathIdParam, pathSegment } from '../../src/kit.js';
import { apiKeyParam, baseUrlParam, connection } from './connection.js';
import { limitsSchema, logDetailSchema } from './schemas.js';

export default connection.defineTool({
  id: 'workflow_get_log',
  resource: 'Log',
  name: 'Get log',
  description:
    'Read one execution log by its id: the run (workflow, level, trigger, times, duration), its execution data (trace spans, final output), its cost (total, tokens, per model) and the current limits.',
  scopes: [],
  annotations: { readOnly: true, destructive: false, idempotent: true },
  params: z.object({
    base_url: baseUrlParam,
    apiKey: apiKeyParam,
    id: pathIdParam('Log id, from List logs or a completion notification'),
  }),
  output: z.object({ data: logDetailSchema.describe('The log detail, with the limits object inside') }),
  request: (p) => ({ method: 'GET', path: `/api/v1/logs/${pathSegment(p.id)}` }),
  // The spec puts limits inside data; deployments put them beside it.
  wire: z.looseObject({ data: logDetailSchema, limits: limitsSchema.optional() }),
  response: ({ body: { data, limits } }) => {
    const inside = data.limits ?? limits;
    return { data: inside === undefined ? data : { ...data, limits: inside } };
  },
});
