/** Append from data in the request: `POST /v0/datasources?mode=append` with a multipart file part, answered at once. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendDatasourceFile } from '../../../tools/tinybird/index.js';
import { BASE, fast, TOKEN, tinybird } from './setup.js';

/** The synchronous answer of an append with the data in the body (reference §4.4). */
const ANSWER = { import_id: '1b3f0c1e-5d9a-4a53-a3f0-6d9c0c3f3b2a', datasource: { id: 't_0123', name: 'events' }, invalid_lines: 0, quarantine_rows: 1, error: false };

/** The file parts of a multipart body, by field name, with their headers. */
function parts(contentType: string, body: string) {
  const boundary = /boundary=(\S+)/.exec(contentType)![1]!;
  expect(body.endsWith(`--${boundary}--\r\n`)).toBe(true);
  return body
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((chunk) => {
      const [head, ...rest] = chunk.split('\r\n\r\n');
      return { head: head!.trim(), data: rest.join('\r\n\r\n').replace(/\r\n$/, '') };
    });
}

describe('tinybird_append_data', () => {
  it('POSTs a csv file part with mode, name, format and the dialect in the query', async () => {
    const tb = tinybird();
    tb.on('POST', '/v0/datasources', { status: 200, body: ANSWER });
    const data = 'timestamp;event\n2026-11-22 10:00:00;"sign;up"\n';
    const result = await tb.run('tinybird_append_data', { datasource: 'events', data, dialect_delimiter: ';', dialect_escapechar: '\\' });
    const [req] = tb.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/v0/datasources', query: { mode: 'append', name: 'events', format: 'csv', dialect_delimiter: ';', dialect_escapechar: '\\' } });
    expect(req!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(req!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=flowblocks-/);
    expect(parts(req!.headers['content-type']!, String(req!.body))).toEqual([
      { head: 'Content-Disposition: form-data; name="csv"; filename="data.csv"\r\nContent-Type: text/csv', data },
    ]);
    expect(result).toMatchObject({ success: true, output: { import_id: ANSWER.import_id, datasource: { name: 'events' }, invalid_lines: 0, quarantine_rows: 1, error: false } });
  });

  it('sends NDJSON as an ndjson part with format=ndjson', async () => {
    const tb = tinybird();
    tb.on('POST', '/v0/datasources', { status: 200, body: ANSWER });
    await tb.run('tinybird_append_data', { datasource: 'events', data: '{"event":"a"}\n{"event":"b"}', format: 'ndjson' });
    const [req] = tb.requests;
    expect(req!.query).toEqual({ mode: 'append', name: 'events', format: 'ndjson' });
    expect(parts(req!.headers['content-type']!, String(req!.body))[0]).toMatchObject({ head: expect.stringContaining('name="ndjson"; filename="data.ndjson"'), data: '{"event":"a"}\n{"event":"b"}' });
  });

  it('never repeats after a 5xx, and refuses dialect options for NDJSON', async () => {
    const tb = tinybird();
    tb.on('POST', '/v0/datasources', { status: 500, body: { error: 'Unexpected error' } }, { status: 200, body: ANSWER });
    expect(await tb.run('tinybird_append_data', { datasource: 'events', data: 'a,b' })).toMatchObject({ success: false, error: { code: 'upstream_error', retryable: false } });
    expect(tb.requests).toHaveLength(1);
    expect(await tb.run('tinybird_append_data', { datasource: 'events', data: '{}', format: 'ndjson', dialect_delimiter: ';' })).toMatchObject({ success: false, error: { code: 'invalid_params', issues: [{ path: 'format' }] } });
    expect(await tb.run('tinybird_append_data', { datasource: 'events', data: 'a', dialect_delimiter: ';;' })).toMatchObject({ success: false, error: { code: 'invalid_params', issues: [{ path: 'dialect_delimiter' }] } });
  });

  it('appendDatasourceFile reads a local file and takes the format from its extension', async () => {
    const tb = tinybird();
    tb.on('POST', '/v0/datasources', { status: 200, body: ANSWER });
    const dir = mkdtempSync(join(tmpdir(), 'flowblocks-append-'));
    const file = join(dir, 'rows.ndjson');
    writeFileSync(file, '{"event":"x"}\n');
    const result = await appendDatasourceFile({ base_url: BASE, token: TOKEN, datasource: 'events' }, file, { dispatcher: tb.agent, ...fast });
    expect(result).toMatchObject({ success: true });
    expect(tb.requests[0]!.query).toMatchObject({ format: 'ndjson' });
    expect(String(tb.requests[0]!.body)).toContain('{"event":"x"}\n');
  });
});
