import { z } from 'zod';
import { defineTool } from '../../src/harness/define-tool.js';
import { pathSegment } from '../../src/harness/path-segment.js';
import { authHeaders, baseUrlParam, datasourceParam, SERVICE, tinybirdUrl, tokenParam } from './shared.js';

export default defineTool({
  id: 'tinybird_truncate_datasource',
  name: 'Truncate Data Source',
  description:
    'Delete every row of a Tinybird Data Source (its quarantine table too, when named). Dependent materialized views are not truncated. Destructive and not reversible.',
  scopes: ['DATASOURCES:CREATE'],
  annotations: { readOnly: false, destructive: true, idempotent: true },
  service: SERVICE,
  params: z.object({
    base_url: baseUrlParam,
    token: tokenParam,
    datasource: datasourceParam.describe('Data Source to empty'),
  }),
  output: z.object({
    truncated: z.boolean().describe('True once the rows are gone'),
    result: z.unknown().describe('Raw response body if any (the service answers 205 with none)'),
  }),
  request: (p) => ({
    method: 'POST',
    url: tinybirdUrl(p.base_url, `/v0/datasources/${pathSegment(p.datasource)}/truncate`),
    headers: authHeaders(p.token),
  }),
  response: (res) => ({ truncated: true, result: res.body ?? null }),
});
