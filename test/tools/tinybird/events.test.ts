import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { TOKEN, tinybird } from './setup.js';

const NDJSON = '{"ts":"2026-11-22 10:00:00","event":"signup"}\n{"ts":"2026-11-22 10:00:01","event":"login"}';

describe('tinybird_events', () => {
  it('POSTs NDJSON to /v0/events?name= and answers 202 rows', async () => {
    const tb = tinybird();
    tb.on('POST', '/v0/events', { status: 202, body: { successful_rows: 2, quarantined_rows: 0 } });
    const result = await tb.run('tinybird_events', { datasource: 'events', data: NDJSON });
    const [req] = tb.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/v0/events', query: { name: 'events' } });
    expect(req!.headers).toMatchObject({ authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-ndjson' });
    expect(req!.headers['content-encoding']).toBeUndefined();
    expect(req!.body).toBe(`${NDJSON}\n`);
    expect(result).toMatchObject({ success: true, output: { successful_rows: 2, quarantined_rows: 0 }, meta: { status: 202, attempts: 1 } });
  });

  it('sends real gzip with wait=true and reads the 200', async () => {
    const tb = tinybird();
    tb.on('POST', '/v0/events', { status: 200, body: { successful_rows: 1, quarantined_rows: 1 } });
    const result = await tb.run('tinybird_events', { datasource: 'events', data: NDJSON, wait: true, compression: 'gzip' });
    const [req] = tb.requests;
    expect(req!.query).toEqual({ name: 'events', wait: 'true' });
    expect(req!.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(req!.body as Buffer).toString()).toBe(`${NDJSON}\n`);
    expect(result).toMatchObject({ success: true, output: { successful_rows: 1, quarantined_rows: 1 } });
  });

  it('splits a JSON array into NDJSON lines', async () => {
    const tb = tinybird();
    tb.on('POST', '/v0/events', { status: 202, body: { successful_rows: 2, quarantined_rows: 0 } });
    await tb.run('tinybird_events', { datasource: 'events', data: '[{"a":1},{"a":2}]', format: 'json' });
    expect(tb.requests[0]!.body).toBe('{"a":1}\n{"a":2}\n');
    tb.on('POST', '/v0/events', { status: 202, body: { successful_rows: 1, quarantined_rows: 0 } });
    await tb.run('tinybird_events', { datasource: 'events', data: '{"a":3}', format: 'json' });
    expect(tb.requests[1]!.body).toBe('{"a":3}\n');
  });

  it('waits out a plain-text 429 with Retry-After, then succeeds', async () => {
    const tb = tinybird();
    tb.on(
      'POST',
      '/v0/events',
      { status: 429, body: 'Too many requests\n', headers: { 'retry-after': '0', 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1' } },
      { status: 202, body: { successful_rows: 2, quarantined_rows: 0 }, headers: { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '99' } },
    );
    const result = await tb.run('tinybird_events', { datasource: 'events', data: NDJSON });
    expect(tb.requests).toHaveLength(2);
    expect(tb.requests[1]!.body).toBe(tb.requests[0]!.body);
    expect(result).toMatchObject({ success: true, meta: { attempts: 2, status: 202, rateLimit: { limit: 100, remaining: 99 } } });
  });

  it('retries a 503 (nothing ingested) even without wait', async () => {
    const tb = tinybird();
    tb.on(
      'POST',
      '/v0/events',
      { status: 503, body: 'Service temporarily unavailable, no data ingested, please retry again\n' },
      { status: 202, body: { successful_rows: 2, quarantined_rows: 0 } },
    );
    const result = await tb.run('tinybird_events', { datasource: 'events', data: NDJSON });
    expect(result).toMatchObject({ success: true, meta: { attempts: 2 } });
  });

  it('does not repeat a 500 without wait, since rows may have been written', async () => {
    const tb = tinybird();
    tb.on('POST', '/v0/events', { status: 500, body: 'Internal error\n' }, { status: 202, body: { successful_rows: 2, quarantined_rows: 0 } });
    const result = await tb.run('tinybird_events', { datasource: 'events', data: NDJSON });
    expect(tb.requests).toHaveLength(1);
    // The rows may be in: the answer says so instead of "not ingested".
    const message = expect.stringMatching(/^Internal error \(outcome unknown: the rows may or may not be in the Data Source/);
    expect(result).toMatchObject({ success: false, error: { code: 'upstream_error', status: 500, message, retryable: false } });
  });

  it('repeats a 500 with wait=true', async () => {
    const tb = tinybird();
    tb.on('POST', '/v0/events', { status: 500, body: 'Internal error\n' }, { status: 200, body: { successful_rows: 2, quarantined_rows: 0 } });
    const result = await tb.run('tinybird_events', { datasource: 'events', data: NDJSON, wait: true });
    expect(tb.requests).toHaveLength(2);
    expect(result).toMatchObject({ success: true, meta: { attempts: 2, status: 200 } });
  });

  it.each([
    [403, 'Invalid token\n', 'forbidden', 'Invalid token'],
    [413, 'Request entity too large\n', 'payload_too_large', 'Request entity too large'],
    // A 422 wrote part of the rows: its outcome is unknown.
    [422, 'Partial ingestion: materialized view failed\n', 'bad_request', 'Partial ingestion: materialized view failed (outcome unknown'],
  ])('reads a plain-text %i as %s, once', async (status, body, code, text) => {
    const message = expect.stringContaining(text);
    const tb = tinybird();
    tb.on('POST', '/v0/events', { status, body });
    const result = await tb.run('tinybird_events', { datasource: 'events', data: NDJSON, wait: true });
    expect(tb.requests).toHaveLength(1);
    expect(result).toMatchObject({ success: false, error: { code, status, message, retryable: false } });
  });

  it.each([
    [{ data: '{"a":1}\nnot json' }, 'data', 'line 2 is not valid JSON'],
    [{ data: '{"a":1}\n[1,2]' }, 'data', 'line 2 is not a JSON object'],
    [{ data: '\n\n' }, 'data', 'data holds no events'],
    [{ data: '[{"a":1}, 5]', format: 'json' }, 'data', 'event 1 is not a JSON object'],
    [{ data: '[]', format: 'json' }, 'data', 'data holds no events'],
    [{ data: '{nope', format: 'json' }, 'data', 'data is not valid JSON'],
    [{ data: '{"a":1}', datasource: '1bad name' }, 'datasource', 'Data Source name'],
    [{ data: '{"a":1}', compression: 'zip' }, 'compression', ''],
  ])('refuses bad input before sending: %j', async (params, path, message) => {
    const tb = tinybird();
    const result = await tb.run('tinybird_events', { datasource: 'events', ...params });
    expect(tb.requests).toHaveLength(0);
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.code).toBe('invalid_params');
    expect(result.error.issues).toContainEqual({ path, message: expect.stringContaining(message) });
  });

  it('answers invalid_response when the 202 has no row counts', async () => {
    const tb = tinybird();
    tb.on('POST', '/v0/events', { status: 202, body: '' });
    const result = await tb.run('tinybird_events', { datasource: 'events', data: NDJSON });
    expect(result).toMatchObject({ success: false, error: { code: 'invalid_response', status: 202 } });
  });
});
