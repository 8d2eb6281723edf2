import { z } from 'zod';
import { baseUrlParam, connection, tokenParam } from './connection.js';
import { datasourceSchema } from './schemas.js';

export default connection.defineTool({
  id: 'tinybird_list_datasources',
  resource: 'Data Source',
  name: 'List Data Sources',
  description:
    'List the Data Sources of the Tinybird workspace with their columns (name and ClickHouse type), engine and row count. Use it to find the table and columns before writing SQL for tinybird_query.',
  scopes: ['DATASOURCES:READ'],
  annotations: { readOnly: true, destructive: false, idempotent: true },
  lists: { param: 'datasource', value: 'name' },
  params: z.object({ base_url: baseUrlParam, token: tokenParam }),
  output: z.object({ datasources: z.array(datasourceSchema).describe('Data Sources the token may read') }),
  request: () => ({ method: 'GET', path: '/v0/datasources' }),
  wire: z.looseObject({ datasources: z.array(datasourceSchema) }),
  response: ({ body }) => ({ datasources: body.datasources }),
});
