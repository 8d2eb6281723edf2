import { z } from 'zod';
import { pathSegment } from '../../src/kit.js';
import { baseUrlParam, connection, tokenParam } from './connection.js';
import { datasourceParam } from './params.js';

export default connection.defineTool({
  id: 'tinybird_truncate_datasource',
  resource: 'Data Source',
  name: 'Truncate Data Source',
  description:
    'Delete every row of a Tinybird Data Source (its quarantine table too, when named). Dependent materialized views are not truncated. Destructive and not reversible.',
  scopes: ['DATASOURCES:CREATE'],
  annotations: { readOnly: false, destructive: true, idempotent: true },
  params: z.object({
    base_url: baseUrlParam,
    token: tokenParam,
    datasource: datasourceParam.describe('Data Source to empty'),
  }),
  output: z.object({
    truncated: z.boolean().describe('True once the rows are gone'),
    result: z.unknown().describe('Raw response body if any (the service answers 205 with none)'),
  }),
  request: (p) => ({ method: 'POST', path: `/v0/datasources/${pathSegment(p.datasource)}/truncate` }),
  // Whatever the service sends (it answers 205 with no body) is passed on as `result`.
  response: (res) => ({ truncated: true, result: res.body ?? null }),
});
