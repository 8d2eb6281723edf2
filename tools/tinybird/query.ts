import { z } from 'zod';
import { uiParam } from '../../src/kit.js';
import { baseUrlParam, connection, tokenParam } from './connection.js';
import { jsonResultFields, jsonResultWire, metaSchema, rowsCheck, rowsSchema, statisticsSchema } from './query-result.js';

/** The FORMAT names the Query API serves; any other is refused by the service with a 403. */
export const QUERY_FORMATS = [
  'JSON',
  'CSV',
  'CSVWithNames',
  'TSV',
  'TSVWithNames',
  'PrettyCompact',
  'JSONEachRow',
  'Parquet',
  'JSONStrings',
  'Prometheus',
] as const;

const FORMAT_CLAUSE = /\bFORMAT\s+([A-Za-z]\w*)\s*;?\s*$/i;

const outputSchema = z.object({
  data: z
    .union([rowsSchema, z.string()])
    .describe('FORMAT JSON: an array of row objects; other formats: the raw text (Parquet: base64)'),
  rows: z.number().int().optional().describe('Row count (FORMAT JSON only)'),
  statistics: statisticsSchema.optional().describe('Elapsed seconds, rows and bytes read (FORMAT JSON only)'),
  meta: metaSchema.optional(),
  rows_before_limit_at_least: z.number().int().optional().describe('Rows without the LIMIT clause, when it has one'),
});

export default connection.defineTool({
  id: 'tinybird_query',
  resource: 'Query',
  name: 'Run SQL query',
  description:
    'Run a read-only SQL query against Tinybird Data Sources and pipes. The output format is chosen by a trailing FORMAT clause (JSON by default; CSV, TSV, JSONEachRow and others return raw text in data). Set pipeline to a pipe name to query it as `_` (SELECT * FROM _).',
  scopes: ['PIPES:READ:<pipe>', 'DATASOURCES:READ:<datasource>'],
  annotations: { readOnly: true, destructive: false, idempotent: true },
  rowsField: 'data',
  params: z.object({
    base_url: baseUrlParam,
    token: tokenParam,
    query: uiParam(
      z
        .string()
        .trim()
        .min(1)
        .describe('SQL; a trailing FORMAT clause picks the output format (JSON, CSV, TSV, JSONEachRow, …)')
        .refine((sql) => {
          const format = FORMAT_CLAUSE.exec(sql)?.[1];
          return !format || QUERY_FORMATS.some((name) => name.toLowerCase() === format.toLowerCase());
        }, `FORMAT must be one of ${QUERY_FORMATS.join(', ')}`),
      { ui: 'code', language: 'sql', placeholder: 'SELECT count() FROM events FORMAT JSON' },
    ),
    pipeline: z.string().min(1).optional().describe('Pipe name; lets the SQL say SELECT * FROM _'),
  }),
  output: outputSchema,
  // The same shape, its rows checked in place rather than copied.
  outputCheck: outputSchema.extend({ data: z.union([rowsCheck, z.string()]) }),
  request: (p) =>
    ({ method: 'POST', path: '/v0/sql', body: { form: { q: p.query, pipeline: p.pipeline } } }),
  // FORMAT JSON answers a result object; the text formats a string, Parquet bytes, nothing an empty body.
  // The JSON branch first: it is the common answer, and a union stops at the first match.
  wire: z.union([jsonResultWire, z.string(), z.instanceof(Uint8Array), z.undefined()]),
  // The parser follows the response's content type, never the SQL text.
  response: (res) => {
    const body = res.body;
    if (typeof body === 'object' && !(body instanceof Uint8Array)) return jsonResultFields(body);
    // A JSON content type over a body that is empty or did not parse is a broken answer, not a text format.
    if (res.bodyKind !== 'binary' && /^application\/json\b/i.test(res.headers['content-type'] ?? '')) throw new Error('malformed JSON body');
    if (body instanceof Uint8Array) return { data: Buffer.from(body).toString('base64') };
    return { data: body ?? '' };
  },
});
