import { z } from 'zod';
import { pathIdParam, pathSegment, uiParam } from '../../src/kit.js';
import { baseUrlParam, connection, tokenParam } from './connection.js';
import { jsonResultCheck, jsonResultFields, jsonResultSchema, jsonResultWire } from './query-result.js';

const scalar = z.union([z.string(), z.number(), z.boolean()]);

/** Names the Pipes API reads itself: a parameter by that name would be taken for them. */
const RESERVED_PARAMETERS = ['q', 'token'];

export default connection.defineTool({
  id: 'tinybird_query_pipe',
  resource: 'Pipe',
  name: 'Call a pipe endpoint',
  description:
    'Call a published Tinybird pipe endpoint by name with its dynamic parameters and get JSON rows back. q runs extra SQL on top of the pipe result, which it calls `_` (e.g. SELECT count() FROM _).',
  scopes: ['PIPES:READ:<pipe>'],
  annotations: { readOnly: true, destructive: false, idempotent: true },
  rowsField: 'data',
  params: z.object({
    base_url: baseUrlParam,
    token: tokenParam,
    pipe: pathIdParam('Name of the published pipe endpoint'),
    parameters: uiParam(
      z
        .record(z.string(), z.union([scalar, z.array(scalar)]))
        .optional()
        .describe('Dynamic pipe parameters, sent as query-string arguments (arrays as repeated keys)')
        .refine((params) => !params || !RESERVED_PARAMETERS.some((name) => Object.hasOwn(params, name)), {
          message: 'parameters may not be named q or token: use the q param for SQL on top of the pipe',
        }),
      { ui: 'json', placeholder: '{"start_date":"2026-01-01","limit":10}' },
    ),
    q: uiParam(z.string().min(1).optional().describe('SQL run on top of the pipe result; `_` references the pipe'), {
      ui: 'code',
      language: 'sql',
    }),
  }),
  output: jsonResultSchema,
  outputCheck: jsonResultCheck,
  request: (p) =>
    ({ method: 'GET', path: `/v0/pipes/${pathSegment(p.pipe)}.json`, query: { ...p.parameters, q: p.q } }),
  wire: jsonResultWire,
  response: (res) => jsonResultFields(res.body),
});
