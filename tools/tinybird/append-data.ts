import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { uiParam } from '../../src/kit.js';
import { baseUrlParam, connection, tokenParam } from './connection.js';
import { datasourceParam } from './params.js';

const oneCharacter = (what: string) => z.string().length(1, `${what} is one character`);

/** The multipart field the Data Sources API reads each format from (`-F csv=@file.csv`, `-F ndjson=@file.ndjson`). */
const PART = { csv: { field: 'csv', type: 'text/csv' }, ndjson: { field: 'ndjson', type: 'application/x-ndjson' } } as const;

/** One multipart/form-data body with the data as a file part; the boundary is one the data does not hold. */
export function multipartBody(format: keyof typeof PART, data: string): { text: string; contentType: string } {
  let boundary = `flowblocks-${randomUUID()}`;
  while (data.includes(boundary)) boundary = `flowblocks-${randomUUID()}`;
  const { field, type } = PART[format];
  const text =
    `--${boundary}\r\n` +
    `Content-Disposition: form-data; name="${field}"; filename="data.${format}"\r\n` +
    `Content-Type: ${type}\r\n\r\n` +
    `${data}\r\n` +
    `--${boundary}--\r\n`;
  return { text, contentType: `multipart/form-data; boundary=${boundary}` };
}

const datasourceSummary = z.looseObject({ id: z.string().optional(), name: z.string().optional() });

export default connection.defineTool({
  id: 'tinybird_append_data',
  resource: 'Data Source',
  name: 'Append data',
  description:
    'Append CSV or NDJSON rows sent in the request (multipart, as the Data Sources API takes a file) to an existing Tinybird Data Source, and get the import id, invalid lines and quarantined rows back. CSV takes dialect options (delimiter, new line, escape character); a first row naming the columns is read as the header. Not retried after server errors: a repeat would append twice. For files at a URL use tinybird_append_datasource; for large event streams, ingestEvents.',
  scopes: ['DATASOURCES:APPEND:<datasource>', 'DATASOURCES:CREATE'],
  annotations: { readOnly: false, destructive: false, idempotent: false },
  params: z
    .object({
      base_url: baseUrlParam,
      token: tokenParam,
      datasource: datasourceParam.describe('Existing Data Source to append to'),
      data: uiParam(z.string().min(1).describe('The rows: CSV text, or NDJSON (one JSON object per line)'), { ui: 'code', language: 'ndjson' }),
      format: z.enum(['csv', 'ndjson']).default('csv').describe('Format of data'),
      dialect_delimiter: oneCharacter('dialect_delimiter').optional().describe('CSV field delimiter (one character, default ,)'),
      dialect_new_line: z.string().min(1).max(2).optional().describe('CSV line separator (e.g. \\n or \\r\\n)'),
      dialect_escapechar: oneCharacter('dialect_escapechar').optional().describe('CSV escape character (one character)'),
    })
    .refine((p) => p.format === 'csv' || (p.dialect_delimiter === undefined && p.dialect_new_line === undefined && p.dialect_escapechar === undefined), {
      message: 'the dialect options apply to CSV only',
      path: ['format'],
    }),
  output: z.object({
    import_id: z.string().optional().describe('Id of the import'),
    datasource: datasourceSummary.optional().describe('The Data Source appended to'),
    invalid_lines: z.number().describe('Lines that could not be parsed'),
    quarantine_rows: z.number().describe('Rows sent to the Data Source\'s quarantine table'),
    error: z.union([z.boolean(), z.string(), z.null()]).optional().describe('false, or what went wrong'),
  }),
  request: (p) => ({
    method: 'POST',
    path: '/v0/datasources',
    query: {
      mode: 'append',
      name: p.datasource,
      format: p.format,
      dialect_delimiter: p.dialect_delimiter,
      dialect_new_line: p.dialect_new_line,
      dialect_escapechar: p.dialect_escapechar,
    },
    body: multipartBody(p.format, p.data),
  }),
  wire: z.looseObject({
    import_id: z.string().optional(),
    datasource: datasourceSummary.optional(),
    invalid_lines: z.number().default(0),
    quarantine_rows: z.number().default(0),
    error: z.union([z.boolean(), z.string(), z.null()]).optional(),
  }),
  response: ({ body }) => ({
    import_id: body.import_id,
    datasource: body.datasource,
    invalid_lines: body.invalid_lines,
    quarantine_rows: body.quarantine_rows,
    error: body.error,
  }),
});
