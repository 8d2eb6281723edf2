import { z } from 'zod';
import { baseUrlParam, connection, tokenParam } from './connection.js';
import { pipeSchema } from './schemas.js';

export default connection.defineTool({
  id: 'tinybird_list_pipes',
  resource: 'Pipe',
  name: 'List pipes',
  description:
    'List the pipes of the Tinybird workspace with their type (endpoint or not), description and nodes. Use tinybird_get_pipe for an endpoint\'s parameters, then tinybird_query_pipe to call it.',
  scopes: ['PIPES:READ'],
  annotations: { readOnly: true, destructive: false, idempotent: true },
  lists: { param: 'pipe', value: 'name' },
  params: z.object({ base_url: baseUrlParam, token: tokenParam }),
  output: z.object({ pipes: z.array(pipeSchema).describe('Pipes the token may read') }),
  request: () => ({ method: 'GET', path: '/v0/pipes' }),
  wire: z.looseObject({ pipes: z.array(pipeSchema) }),
  response: ({ body }) => ({ pipes: body.pipes }),
});
