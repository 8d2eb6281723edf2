import { z } from 'zod';
import { defineTool, failure, plural, retrySettings, rowRange, ToolFailure, uiParam, userOnlyParam } from '../../src/kit.js';
import { sendChunkWithRetries } from './ingest/chunk-attempts.js';
import { baseUrlParam, connection, tokenParam } from './connection.js';
import { DEFAULT_INGEST_CONCURRENCY, DEFAULT_MAX_REQUEST_BYTES, DEFAULT_ON_AMBIGUOUS, eventsAnswer, eventsRequest } from './ingest/events-request.js';
import { LineTooLargeError, NdjsonChunker, type NdjsonChunk } from './ingest/ndjson-chunker.js';
import { sendChunks, type IngestReport } from './ingest/send-chunks.js';
import { datasourceParam } from './params.js';

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
  const report = (message: string) =>
    ctx.addIssue({
      code: 'custom',
      path: ['data'],
      message,
    });
  if (format === 'json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch (error) {
      return report(`data is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
    const rows = Array.isArray(parsed) ? parsed : [parsed];
    const bad = rows.findIndex((row) => !isJsonObject(row));
    if (rows.length === 0) return report('data holds no events');
    if (bad >= 0) return report(`event ${bad} is not a JSON object`);
    return;
  }
  let anyEvent = false;
  let lineNo = 0;
  for (const line of data.split('\n')) {
    lineNo++;
    if (line.trim() === '') continue;
    anyEvent = true;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      return report(`line ${lineNo} is not valid JSON`);
    }
    if (!isJsonObject(row)) return report(`line ${lineNo} is not a JSON object`);
  }
  if (!anyEvent) report('data holds no events');
}

/**
 * One call's events as rows (JSON text, one object each) for a host that joins calls: `data`
 * as the tool takes it (text in `format`), or already parsed, as a host's item holds it (an
 * object, or an array of objects). Refused as the tool's own check refuses them.
 */
export function eventRows(params: Record<string, unknown>): string[] {
  const { data } = params;
  const format = typeof data === 'string' ? (params.format === 'json' ? 'json' : 'ndjson') : 'json';
  const text = typeof data === 'string' ? data : JSON.stringify(data ?? null);
  const issues: { path: string; message: string }[] = [];
  checkEvents(text, format, { addIssue: (issue: { message?: string }) => issues.push({ path: 'data', message: String(issue.message) }) } as unknown as z.RefinementCtx);
  if (issues.length) throw failure('invalid_params', issues[0]!.message, { issues });
  return eventsAsNdjson(text, format).split('\n').filter((line) => line.trim() !== '');
}

function* chunksOf(ndjson: Buffer, maxBytes: number): Generator<NdjsonChunk> {
  const chunker = new NdjsonChunker(maxBytes);
  yield* chunker.push(ndjson);
  const last = chunker.flush();
  if (last) yield last;
}

const UNKNOWN_OUTCOME = 'outcome unknown: the rows may or may not be in the Data Source (on_ambiguous is stop: not sent again)';

/** A partial ingest is a failure that says exactly which rows did not get in, and which may have. */
function partialFailure(report: IngestReport) {
  const bad = [...report.failed.map((f) => ({ ...f, state: 'not ingested' })), ...report.unknown.map((f) => ({ ...f, state: 'outcome unknown' }))];
  bad.sort((a, b) => a.first_row - b.first_row);
  const ranges = bad.map((f) => `${rowRange(f.first_row, f.last_row)} ${f.state}`);
  const notSent = report.stopped ? `stopped: rows from ${report.stopped.not_sent_from_row} not sent` : undefined;
  if (notSent) ranges.push(notSent);
  const first = report.stopped?.error ?? bad[0]!.error;
  return failure(
    first.code,
    `${bad.length} of ${plural(report.requests, 'request')} failed: ${ranges.join(', ')} (${plural(report.successful_rows, 'row')} ingested, ${report.quarantined_rows} quarantined); first error: ${first.message}`,
    {
      status: first.status,
      // The call as a whole may be sent again only if none of it got in or may have (every request
      // made was refused before any work: an unknown outcome is a request too): a retry resends
      // every row, so rows that got in would be ingested twice; the issues name the rows to resend.
      retryable: !report.stopped && report.failed.length === report.requests && report.failed.every((f) => f.error.retryable),
      issues: [
        ...bad.map((f) => ({
          path: 'data',
          message: `${rowRange(f.first_row, f.last_row)} ${f.state}: ${f.error.code}${f.error.status ? ` ${f.error.status}` : ''}: ${f.error.message}`,
          rows: { first: f.first_row, last: f.last_row },
        })),
        ...(notSent ? [{ path: 'data', message: notSent, rows: { first: report.stopped!.not_sent_from_row } }] : []),
      ],
    },
  );
}

export default defineTool({
  id: 'tinybird_events',
  resource: 'Data Source',
  name: 'Send events',
  description:
    'Ingest events into a Tinybird Data Source through the Events API, as NDJSON (one JSON object per line) or JSON (an object or an array of objects), optionally gzip-compressed. Data of any size is split at line boundaries into requests under the per-request limit. Rows that do not fit the schema are counted in quarantined_rows, not ingested. Set wait to true to get a database acknowledgment; only then are server errors retried without risk of duplicate rows. A cut connection leaves the outcome unknown: by default it is reported, not retried (on_ambiguous).',
  scopes: ['DATASOURCES:APPEND:<datasource>', 'DATASOURCES:CREATE'],
  annotations: { readOnly: false, destructive: false, idempotent: false },
  service: connection.service,
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
      max_request_bytes: userOnlyParam(
        z
          .number()
          .int()
          .min(1024)
          .default(DEFAULT_MAX_REQUEST_BYTES)
          .describe('Largest request body; larger data is split at line boundaries (the Free plan refuses over 10 MB)'),
      ),
      concurrency: userOnlyParam(
        z.number().int().min(1).max(32).default(DEFAULT_INGEST_CONCURRENCY).describe('Requests in flight at once when data is split (the service takes 20 MB/s per Data Source)'),
      ),
      on_ambiguous: userOnlyParam(
        z
          .enum(['stop', 'retry'])
          .default(DEFAULT_ON_AMBIGUOUS)
          .describe('After a fault that leaves the outcome unknown (a cut connection, a time-out): stop and report the rows as unknown, or retry (the rows may then land twice)'),
      ),
    })
    .superRefine((p, ctx) => checkEvents(p.data, p.format, ctx)),
  output: z.object({
    successful_rows: z.number().int().describe('Rows ingested'),
    quarantined_rows: z.number().int().describe('Rows that failed validation and went to <datasource>_quarantine'),
  }),
  request: (p) =>
    eventsRequest(p, eventsAsNdjson(p.data, p.format), { wait: p.wait, gzip: p.compression === 'gzip' }),
  wire: eventsAnswer,
  response: ({ body }) => ({ successful_rows: body.successful_rows, quarantined_rows: body.quarantined_rows }),
  // Many items' events go as one NDJSON body: the Events API takes many rows per request.
  batch: {
    params: ['data', 'format'],
    rows: eventRows,
    join: (p, rows) => ({ ...p, data: `${rows.join('\n')}\n`, format: 'ndjson' }),
  },
  run: async (p, ctx) => {
    const ndjson = eventsAsNdjson(p.data, p.format);
    const policy = { wait: p.wait, onAmbiguous: p.on_ambiguous, retry: retrySettings(ctx.options.retry), sleep: ctx.sleep };
    if (Buffer.byteLength(ndjson) <= p.max_request_bytes) {
      const result = await sendChunkWithRetries((isRetry) => ctx.call(isRetry ? { ...p, wait: true } : p), policy);
      if (result.ok) return result.value;
      const { error } = result;
      throw new ToolFailure(result.verdict === 'unknown' ? { ...error, message: `${error.message} (${UNKNOWN_OUTCOME})` } : error);
    }
    let report: IngestReport;
    try {
      report = await sendChunks(chunksOf(Buffer.from(ndjson), p.max_request_bytes), p, {
        ...policy,
        gzip: p.compression === 'gzip',
        concurrency: p.concurrency,
        send: ctx.send,
      });
    } catch (error) {
      if (!(error instanceof LineTooLargeError)) throw error;
      throw failure('invalid_params', error.message, { issues: [{ path: 'data', message: error.message }] });
    }
    ctx.note(`sent in ${report.requests} requests of at most ${p.max_request_bytes} bytes`);
    if (report.failed.length || report.unknown.length || report.stopped) throw partialFailure(report);
    return { successful_rows: report.successful_rows, quarantined_rows: report.quarantined_rows };
  },
});
