import { z } from 'zod';
import { pathIdParam, pathSegment } from '../../src/kit.js';
import { baseUrlParam, connection, tokenParam } from './connection.js';
import { pipeParamSchema, pipeSchema } from './schemas.js';

export default connection.defineTool({
  id: 'tinybird_get_pipe',
  resource: 'Pipe',
  name: 'Get pipe',
  description:
    'Describe one Tinybird pipe: its nodes and their SQL, which node is the published endpoint, and the endpoint\'s dynamic parameters with their types and defaults (as `parameters`), so tinybird_query_pipe can be called with the right ones.',
  scopes: ['PIPES:READ:<pipe>'],
  annotations: { readOnly: true, destructive: false, idempotent: true },
  params: z.object({ base_url: baseUrlParam, token: tokenParam, pipe: pathIdParam('Pipe name') }),
  output: pipeSchema.extend({
    parameters: z.array(pipeParamSchema).describe('Dynamic parameters of the endpoint node (empty when none or not published)'),
  }),
  // The pipe's description, not its data: no `.json` extension (that would call the endpoint).
  request: (p) => ({ method: 'GET', path: `/v0/pipes/${pathSegment(p.pipe)}` }),
  wire: pipeSchema,
  response: ({ body }) => {
    const nodes = body.nodes ?? [];
    const endpoint = nodes.find((node) => body.endpoint != null && (node.id === body.endpoint || node.name === body.endpoint));
    return { ...body, parameters: endpoint?.params ?? [] };
  },
});
