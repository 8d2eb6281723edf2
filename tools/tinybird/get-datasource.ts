import { z } from 'zod';
import { pathSegment } from '../../src/kit.js';
import { baseUrlParam, connection, tokenParam } from './connection.js';
import { datasourceSchema } from './schemas.js';
import { datasourceParam } from './params.js';

export default connection.defineTool({
  id: 'tinybird_get_datasource',
  resource: 'Data Source',
  name: 'Get Data Source',
  description:
    'Describe one Tinybird Data Source: its columns (name, ClickHouse type, nullable, default), engine and sorting key, and its row count and size.',
  scopes: ['DATASOURCES:READ:<datasource>'],
  annotations: { readOnly: true, destructive: false, idempotent: true },
  params: z.object({ base_url: baseUrlParam, token: tokenParam, datasource: datasourceParam.describe('Data Source to describe') }),
  output: datasourceSchema,
  request: (p) => ({ method: 'GET', path: `/v0/datasources/${pathSegment(p.datasource)}` }),
  wire: datasourceSchema,
  response: ({ body }) => body,
});
