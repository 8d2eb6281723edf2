import { describe, expect, it } from 'vitest';
import { executeTool } from '../../../src/index.js';
import { mockService } from '../../helpers/mock-service.js';
import { formOf, tinybird } from './setup.js';

const BASE = 'https://api.tinybird.co';
const TOKEN = 'p.secret-token-value';

describe('tinybird_query', () => {
  it('POSTs the SQL as a form to /v0/sql and maps a FORMAT JSON body', async () => {
    const svc = mockService(BASE);
    svc.on('POST', '/v0/sql', {
      status: 200,
      body: {
        meta: [{ name: 'n', type: 'UInt64' }],
        data: [{ n: 3 }],
        rows: 1,
        statistics: { elapsed: 0.001, rows_read: 3, bytes_read: 24 },
      },
      headers: { 'x-ratelimit-limit': '20', 'x-ratelimit-remaining': '19', 'x-ratelimit-reset': '1' },
    });
    const result = await executeTool(
      'tinybird_query',
      { base_url: `${BASE}/`, token: TOKEN, query: 'SELECT count() AS n FROM _ FORMAT JSON', pipeline: 'top' },
      { dispatcher: svc.agent },
    );
    expect(svc.requests).toHaveLength(1);
    const [req] = svc.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/v0/sql', query: {} });
    expect(req!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(req!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(String(req!.body)))).toEqual({
      q: 'SELECT count() AS n FROM _ FORMAT JSON',
      pipeline: 'top',
    });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.output).toEqual({
      data: [{ n: 3 }],
      meta: [{ name: 'n', type: 'UInt64' }],
      rows: 1,
      statistics: { elapsed: 0.001, rows_read: 3, bytes_read: 24 },
    });
    expect(result.meta).toMatchObject({ status: 200, attempts: 1, rateLimit: { limit: 20, remaining: 19 } });
    expect(result.meta.rateLimit?.resetAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });
});

describe('tinybird_query formats and failures', () => {
  it('returns raw text for FORMAT CSV and JSONEachRow', async () => {
    const tb = tinybird();
    tb.on('POST', '/v0/sql', { status: 200, body: '"a",1\n"b",2\n', headers: { 'content-type': 'text/csv' } });
    tb.on('POST', '/v0/sql', { status: 200, body: '{"n":1}\n', headers: { 'content-type': 'application/x-ndjson' } });
    const csv = await tb.run('tinybird_query', { query: 'SELECT * FROM t FORMAT CSV' });
    const each = await tb.run('tinybird_query', { query: 'SELECT 1 AS n format JSONEachRow;' });
    expect(csv).toMatchObject({ success: true, output: { data: '"a",1\n"b",2\n' } });
    expect(each).toMatchObject({ success: true, output: { data: '{"n":1}\n' } });
    expect(formOf(tb.requests[1]!.body)).toEqual({ q: 'SELECT 1 AS n format JSONEachRow;' });
  });

  it('returns Parquet as base64', async () => {
    const tb = tinybird();
    tb.pool
      .intercept({ method: 'POST', path: '/v0/sql' })
      .reply(200, Buffer.from('PAR1'), { headers: { 'content-type': 'application/octet-stream' } });
    const result = await tb.run('tinybird_query', { query: 'SELECT 1 FORMAT Parquet' });
    expect(result).toMatchObject({ success: true, output: { data: Buffer.from('PAR1').toString('base64') } });
  });

  it('refuses a FORMAT the service does not serve, before sending', async () => {
    const tb = tinybird();
    const result = await tb.run('tinybird_query', { query: 'SELECT 1 FORMAT Vertical' });
    expect(tb.requests).toHaveLength(0);
    expect(result).toMatchObject({ success: false, error: { code: 'invalid_params', issues: [{ path: 'query' }] } });
  });

  it('returns the JSON 403 of a missing scope', async () => {
    const tb = tinybird();
    tb.on('POST', '/v0/sql', { status: 403, body: { error: 'token needs scope PIPES:READ', documentation: 'https://docs' } });
    const result = await tb.run('tinybird_query', { query: 'SELECT 1' });
    expect(result).toMatchObject({ success: false, error: { code: 'forbidden', status: 403, message: 'token needs scope PIPES:READ', retryable: false } });
  });

  it('retries a 500 on a read, and not a 400', async () => {
    const tb = tinybird();
    tb.on('POST', '/v0/sql', { status: 500, body: { error: 'Unexpected error' } }, { status: 400, body: { error: "Missing columns: 'x'" } });
    const result = await tb.run('tinybird_query', { query: 'SELECT x FROM t' });
    expect(tb.requests).toHaveLength(2);
    expect(result).toMatchObject({ success: false, error: { code: 'bad_request', status: 400, message: "Missing columns: 'x'" }, meta: { attempts: 2 } });
  });
});
