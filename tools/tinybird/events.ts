import { z } from 'zod';
import { defineTool } from '../../src/harness/define-tool.js';
import { uiParam } from '../../src/harness/fields.js';
import { authHeaders, baseUrlParam, datasourceParam, SERVICE, tinybirdUrl, tokenParam } from './shared.js';

function isJsonObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The events as NDJSON lines: a JSON array or object is split into one object per line. */
export function eventsAsNdjson(data: string, format: 'ndjson' | 'json'): string {
  if (format === 'ndjson') return data.endsWith('\n') ? data : `${data}\n`;
  const parsed: unknown = JSON.parse(data);
  const rows = Array.isArray(parsed) ? parsed : [parsed];
  return rows.map((row) => JSON.stringify(row)).join('\n') + '\n';
}

/** Every event must be a JSON object; the first bad one is named by its line (or index). */
function checkEvents(data: string, format: 'ndjson' | 'json', ctx: z.RefinementCtx): void {
  const report = (message: string) => ctx.addIssue({ code: 'custom', path: ['data'], message });
  if (format === 'json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch (error) {
      return report(`data is not valid JSON: ${(error as Error).message}`);
    }
    const rows = Array.isArray(parsed) ? parsed : [parsed];
    const bad = rows.findIndex((row) => !isJsonObject(row));
    if (rows.length === 0) return report('data holds no events');
    if (bad >= 0) return report(`event ${bad} is not a JSON object`);
    return;
  }
  let count = 0;
  let lineNo = 0;
  for (const line of data.split('\n')) {
    lineNo++;
    if (line.trim() === '') continue;
    count++;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      return report(`line ${lineNo} is not valid JSON`);
    }
    if (!isJsonObject(row)) return report(`line ${lineNo} is not a JSON object`);
  }
  if (count === 0) report('data holds no events');
}

export default defineTool({
  id: 'tinybird_events',
  name: 'Send events',
  description:
    'Ingest events into a Tinybird Data Source through the Events API, as NDJSON (one JSON object per line) or JSON (an object or an array of objects), optionally gzip-compressed. Rows that do not fit the schema are counted in quarantined_rows, not ingested. Set wait to true to get a database acknowledgment; only then are server errors retried without risk of duplicate rows.',
  scopes: ['DATASOURCE:APPEND', 'DATASOURCE:CREATE'],
  annotations: { readOnly: false, destructive: false, idempotent: false },
  service: SERVICE,
  params: z
    .object({
      base_url: baseUrlParam,
      token: tokenParam,
      datasource: datasourceParam.describe('Target Data Source name'),
      data: uiParam(z.string().min(1).describe('Events as NDJSON text or JSON text; each event a JSON object'), {
        ui: 'code',
        language: 'ndjson',
        placeholder: '{"timestamp":"2026-01-01 00:00:00","event":"signup"}',
      }),
      wait: z
        .boolean()
        .default(false)
        .describe('Wait for the database acknowledgment before responding: safer retries, more latency'),
      format: z.enum(['ndjson', 'json']).default('ndjson').describe('Format of data'),
      compression: z.enum(['none', 'gzip']).default('none').describe('Gzip the request body'),
    })
    .superRefine((p, ctx) => checkEvents(p.data, p.format, ctx)),
  output: z.object({
    successful_rows: z.number().int().describe('Rows ingested'),
    quarantined_rows: z.number().int().describe('Rows that failed validation and went to <datasource>_quarantine'),
  }),
  request: (p) => ({
    method: 'POST',
    url: tinybirdUrl(p.base_url, '/v0/events'),
    query: { name: p.datasource, wait: p.wait ? 'true' : undefined },
    headers: authHeaders(p.token),
    body: { ndjson: eventsAsNdjson(p.data, p.format) },
    gzip: p.compression === 'gzip',
    // wait=true surfaces database errors, so a retry cannot duplicate rows.
    safeToRetry: p.wait,
    // 503 from the Events API means nothing was ingested.
    nothingDoneStatuses: [503],
  }),
  response: (res) => {
    const body = res.body as { successful_rows?: unknown; quarantined_rows?: unknown };
    return { successful_rows: body?.successful_rows as number, quarantined_rows: body?.quarantined_rows as number };
  },
});
