import { describe, expect, it } from 'vitest';
import { tinybird } from './setup.js';

/**
 * What tinybird_events answers when data is split over several requests and some of them do
 * not get in: which rows, in which state, and whether a retry of the call is safe.
 */
const CAP = 1024;
/** One event of about 700 bytes: each goes in a request of its own under CAP. */
const row = (i: number) => JSON.stringify({ i, pad: 'x'.repeat(700) });
const data = (n: number) => Array.from({ length: n }, (_, k) => row(k + 1)).join('\n') + '\n';
const rowOf = (body: unknown) => (JSON.parse(String(body).split('\n')[0]!) as { i: number }).i;

const isEvents = (p: string) => p.startsWith('/v0/events');

type Answer = { status: number; body: string };
const ok: Answer = { status: 202, body: JSON.stringify({ successful_rows: 1, quarantined_rows: 0 }) };

/** A Tinybird that answers each request by the row it carries (`answers[i]`, else 202). */
function byRow(answers: Record<number, Answer>) {
  const tb = tinybird();
  const seen: { row: number; wait: boolean }[] = [];
  tb.pool
    .intercept({ method: 'POST', path: isEvents })
    .reply((opts) => {
      const i = rowOf(opts.body);
      seen.push({ row: i, wait: String(opts.path).includes('wait=true') });
      const answer = answers[i] ?? ok;
      const type = answer.status < 300 ? 'application/json' : 'text/plain';
      return { statusCode: answer.status, data: answer.body, responseOptions: { headers: { 'content-type': type } } };
    })
    .persist();
  return { tb, seen };
}

/** What a Tinybird that is not listening gives: the connection refused before any work. */
const connectionRefused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:443'), { code: 'ECONNREFUSED' });

/** Every request to the Events API from here on (after any reply set before) refused at connect. */
function refuseEvents(tb: ReturnType<typeof tinybird>): void {
  tb.pool.intercept({ method: 'POST', path: isEvents }).replyWithError(connectionRefused()).persist();
}

/** The same 202 for the mock service's `on`. */
const accepted = { status: 202, body: { successful_rows: 1, quarantined_rows: 0 } };
const internal: Answer = { status: 500, body: 'Internal error\n' };
const unavailable: Answer = { status: 503, body: 'Service temporarily unavailable, no data ingested\n' };
const refused: Answer = { status: 400, body: 'Bad events\n' };

describe('tinybird_events split over several requests', () => {
  it('stops at an unknown outcome (on_ambiguous stop) and names the rows not sent', async () => {
    const { tb, seen } = byRow({ 2: internal });
    const result = await tb.run('tinybird_events', { datasource: 'events', data: data(4), max_request_bytes: CAP, concurrency: 1 });
    expect(seen.map((s) => s.row)).toEqual([1, 2]);
    expect(result).toMatchObject({
      success: false,
      error: {
        code: 'upstream_error',
        status: 500,
        retryable: false,
        message:
          '1 of 2 requests failed: row 2 outcome unknown, stopped: rows from 3 not sent (1 row ingested, 0 quarantined); first error: Internal error',
        // Each issue names its rows, so a host that joined many items' rows maps them back.
        issues: [
          { path: 'data', message: 'row 2 outcome unknown: upstream_error 500: Internal error', rows: { first: 2, last: 2 } },
          { path: 'data', message: 'stopped: rows from 3 not sent', rows: { first: 3 } },
        ],
      },
    });
  });

  it('lists failed and unknown rows in row order, and a call with an unknown outcome is not retryable', async () => {
    // Row 2's outcome is unknown (a 500, retried with wait=true, then a 500 again); row 3 was refused before any work (503s).
    const { tb } = byRow({ 2: internal, 3: unavailable });
    const result = await tb.run('tinybird_events', {
      datasource: 'events',
      data: data(4),
      max_request_bytes: CAP,
      concurrency: 1,
      on_ambiguous: 'retry',
    });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.message).toMatch(/^2 of \d+ requests failed: row 2 outcome unknown, row 3 not ingested \(2 rows ingested, 0 quarantined\); first error: /);
    expect(result.error.issues!.map((i) => i.message.split(':')[0])).toEqual(['row 2 outcome unknown', 'row 3 not ingested']);
    expect(result.error.retryable).toBe(false);
  });

  it('says a retry of the call is not safe once some rows got in, though every failed request may be sent again', async () => {
    // A retry resends every row: rows 1 and 3 would be ingested twice. The issues name the rows to resend.
    const { tb } = byRow({ 2: unavailable, 4: unavailable });
    const result = await tb.run('tinybird_events', { datasource: 'events', data: data(4), max_request_bytes: CAP, concurrency: 1 });
    expect(result).toMatchObject({ success: false, error: { code: 'upstream_error', status: 503, retryable: false } });
    if (result.success) return;
    expect(result.error.message).toMatch(/^2 of \d+ requests failed: row 2 not ingested, row 4 not ingested \(2 rows ingested/);
    expect(result.error.issues!.map((i) => i.message.split(':')[0])).toEqual(['row 2 not ingested', 'row 4 not ingested']);
  });

  it('says a retry is safe when no row got in and every request was refused before any work and may be retried', async () => {
    const { tb } = byRow({ 1: unavailable, 2: unavailable, 3: unavailable });
    const result = await tb.run('tinybird_events', { datasource: 'events', data: data(3), max_request_bytes: CAP, concurrency: 1 });
    expect(result).toMatchObject({ success: false, error: { code: 'upstream_error', status: 503, retryable: true } });
    if (result.success) return;
    expect(result.error.message).toMatch(/^3 of 3 requests failed: .* \(0 rows ingested/);
  });

  it('says a retry is not safe when no row got in but one request may not be sent again', async () => {
    const { tb } = byRow({ 1: unavailable, 2: refused });
    const result = await tb.run('tinybird_events', { datasource: 'events', data: data(2), max_request_bytes: CAP, concurrency: 1 });
    expect(result).toMatchObject({ success: false, error: { code: 'upstream_error', retryable: false } });
    if (result.success) return;
    expect(result.error.message).toMatch(/^2 of 2 requests failed: row 1 not ingested, row 2 not ingested \(0 rows ingested/);
  });

  it('says a retry is not safe once the run stopped, even when nothing got in', async () => {
    const tb = tinybird();
    refuseEvents(tb);
    const result = await tb.run('tinybird_events', { datasource: 'events', data: data(3), max_request_bytes: CAP, concurrency: 1 });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error).toMatchObject({ code: 'network', retryable: false });
    expect(result.error.message).toContain('stopped: rows from 2 not sent');
  });

  it('says a retry is not safe when one failed request may not be retried', async () => {
    const { tb } = byRow({ 2: unavailable, 3: refused });
    const result = await tb.run('tinybird_events', { datasource: 'events', data: data(4), max_request_bytes: CAP, concurrency: 1 });
    expect(result).toMatchObject({ success: false, error: { code: 'upstream_error', retryable: false } });
  });

  it('says a retry is not safe once the run stopped, even at a connection refused before any work', async () => {
    const tb = tinybird();
    tb.pool.intercept({ method: 'POST', path: isEvents }).reply(202, ok.body, { headers: { 'content-type': 'application/json' } });
    refuseEvents(tb);
    const result = await tb.run('tinybird_events', { datasource: 'events', data: data(3), max_request_bytes: CAP, concurrency: 1 });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error).toMatchObject({ code: 'network', retryable: false });
    // A connection error has no status to name.
    expect(result.error.issues).toEqual([
      { path: 'data', message: expect.stringMatching(/^row 2 not ingested: network: .*ECONNREFUSED/), rows: { first: 2, last: 2 } },
      { path: 'data', message: 'stopped: rows from 3 not sent', rows: { first: 3 } },
    ]);
    expect(result.error.message).toMatch(/^1 of \d+ requests failed: row 2 not ingested, stopped: rows from 3 not sent \(1 row ingested, 0 quarantined\); first error: .*ECONNREFUSED/);
  });

  it('sends data of exactly twice the cap as two full requests', async () => {
    const fill = (c: string) => `{"a":"${c.repeat(CAP - 9)}"}\n`;
    const whole = fill('x') + fill('y');
    expect(Buffer.byteLength(whole)).toBe(2 * CAP);
    const tb = tinybird();
    tb.on('POST', '/v0/events', accepted, accepted);
    const result = await tb.run('tinybird_events', { datasource: 'events', data: whole, max_request_bytes: CAP });
    expect(tb.requests.map((r) => String(r.body))).toEqual([fill('x'), fill('y')]);
    expect(result).toMatchObject({ success: true, output: { successful_rows: 2, quarantined_rows: 0 } });
  });

  it('passes on an abort during a split send as an abort, not as invalid data', async () => {
    const controller = new AbortController();
    const tb = tinybird();
    tb.pool
      .intercept({ method: 'POST', path: isEvents })
      .reply(() => {
        controller.abort();
        return { statusCode: 202, data: ok.body, responseOptions: { headers: { 'content-type': 'application/json' } } };
      })
      .persist();
    const result = await tb.run('tinybird_events', { datasource: 'events', data: data(3), max_request_bytes: CAP, concurrency: 1 }, { signal: controller.signal });
    expect(result).toMatchObject({ success: false, error: { code: 'aborted' } });
  });
});

describe('tinybird_events in one request', () => {
  it('sends data of exactly the cap as one plain request, without a split note', async () => {
    const body = `{"a":"${'x'.repeat(CAP - 9)}"}\n`;
    expect(Buffer.byteLength(body)).toBe(CAP);
    const tb = tinybird();
    tb.on('POST', '/v0/events', accepted);
    const result = await tb.run('tinybird_events', { datasource: 'events', data: body, max_request_bytes: CAP });
    expect(tb.requests).toHaveLength(1);
    expect(result).toMatchObject({ success: true, meta: { status: 202 } });
    expect(result.meta.notes ?? []).toEqual([]);
  });

  it('retries an unknown outcome with wait=true when on_ambiguous is retry', async () => {
    const fresh = tinybird();
    fresh.on('POST', '/v0/events', internal, accepted);
    const result = await fresh.run('tinybird_events', { datasource: 'events', data: row(1), on_ambiguous: 'retry' });
    expect(fresh.requests.map((r) => r.query)).toEqual([{ name: 'events' }, { name: 'events', wait: 'true' }]);
    expect(fresh.requests[1]!.body).toBe(`${row(1)}\n`);
    expect(result).toMatchObject({ success: true, output: { successful_rows: 1 } });
  });

  it('adds no "outcome unknown" to an answer that wrote nothing for certain', async () => {
    const tb = tinybird();
    tb.on('POST', '/v0/events', { status: 403, body: 'Invalid token\n' });
    const result = await tb.run('tinybird_events', { datasource: 'events', data: row(1) });
    expect(result).toMatchObject({ success: false, error: { code: 'forbidden', status: 403, message: 'Invalid token' } });
  });
});

describe('tinybird_events checks every event before sending', () => {
  it.each([
    [{ data: '{"a":1}\nnull' }, 'line 2 is not a JSON object'],
    [{ data: '[null]', format: 'json' }, 'event 0 is not a JSON object'],
    [{ data: '[5, {"a":1}]', format: 'json' }, 'event 0 is not a JSON object'],
  ])('refuses %j', async (params, message) => {
    const tb = tinybird();
    const result = await tb.run('tinybird_events', { datasource: 'events', ...params });
    expect(tb.requests).toHaveLength(0);
    expect(result).toMatchObject({ success: false, error: { code: 'invalid_params', issues: [{ path: 'data', message }] } });
  });

  it('skips lines holding only spaces', async () => {
    const tb = tinybird();
    tb.on('POST', '/v0/events', { status: 202, body: { successful_rows: 2, quarantined_rows: 0 } });
    const result = await tb.run('tinybird_events', { datasource: 'events', data: '{"a":1}\n   \n{"b":2}' });
    expect(result).toMatchObject({ success: true, output: { successful_rows: 2 } });
    expect(tb.requests).toHaveLength(1);
  });
});
