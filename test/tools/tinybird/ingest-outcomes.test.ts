import { describe, expect, it } from 'vitest';
import type { HarnessEvent } from '../../../src/harness/types.js';
import { ingestEvents, type IngestOptions } from '../../../tools/tinybird/index.js';
import { BASE, TOKEN, fast, tinybird } from './setup.js';

const target = { base_url: BASE, token: TOKEN, datasource: 'fresh' };
/** Rows of 32 bytes each, so 128-byte chunks hold 4 rows. */
const line = (i: number) => `${JSON.stringify({ i, event: 'view' }).padEnd(31)}\n`;
const rows = (n = 20) => Array.from({ length: n }, (_, k) => line(k + 1));
const idsOf = (body: unknown) => String(body).split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { i: number }).i);
const ok = (body: unknown) => ({ status: 202, body: { successful_rows: idsOf(body).length, quarantined_rows: 0 } });

function run(tb: ReturnType<typeof tinybird>, source: Iterable<unknown> | AsyncIterable<unknown>, options: IngestOptions = {}) {
  const requests: number[] = [];
  const report = ingestEvents(target, source, {
    dispatcher: tb.agent,
    ...fast,
    maxRequestBytes: 128,
    concurrency: 1,
    logger: (e: HarnessEvent) => void (e.type === 'request' && requests.push(e.attempt)),
    ...options,
  });
  return { report, requests };
}

describe('ingestEvents: outcomes per chunk', () => {
  it('retries a 409 "being created" (nothing written) with the same body and wait=true', async () => {
    const tb = tinybird();
    tb.on('POST', '/v0/events', { status: 409, body: "Data Source 'fresh' is being created, retry the request\n" }, { status: 202, body: { successful_rows: 4, quarantined_rows: 0 } });
    const report = await run(tb, rows(4)).report;
    expect(report).toMatchObject({ successful_rows: 4, failed: [], unknown: [], maybe_duplicated: [] });
    expect(report.stopped).toBeUndefined();
    const body = Buffer.from(rows(4).join(''));
    const sent = { method: 'POST', path: '/v0/events', headers: expect.objectContaining({ authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-ndjson' }), body };
    expect(tb.requests).toEqual([
      { ...sent, query: { name: 'fresh' } },
      { ...sent, query: { name: 'fresh', wait: 'true' } },
    ]);
  });

  it('keeps retrying a 409 "being created" past maxAttempts, within retry.maxRetryAfterMs, since nothing was written', async () => {
    const tb = tinybird();
    const creating = { status: 409, body: "Data Source 'fresh' is being created, retry the request\n" };
    tb.on('POST', '/v0/events', ...Array.from({ length: 8 }, () => creating), { status: 202, body: { successful_rows: 4, quarantined_rows: 0 } });
    const report = await run(tb, rows(4), { retry: { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 5_000 } }).report;
    expect(report).toMatchObject({ successful_rows: 4, failed: [], unknown: [] });
    expect(tb.requests).toHaveLength(9);
  });

  it('gives up on a 409 "being created" once retry.maxRetryAfterMs has passed, reporting the rows as not ingested', async () => {
    const tb = tinybird();
    const creating = { status: 409, body: "Data Source 'fresh' is being created, retry the request\n" };
    tb.on('POST', '/v0/events', ...Array.from({ length: 100 }, () => creating));
    const report = await run(tb, rows(4), { retry: { maxAttempts: 4, baseDelayMs: 5, maxDelayMs: 10, maxRetryAfterMs: 60 } }).report;
    expect(report.failed).toEqual([{ first_row: 1, last_row: 4, error: expect.objectContaining({ code: 'conflict', status: 409 }) }]);
    expect(tb.requests.length).toBeGreaterThan(4);
    expect(tb.requests.length).toBeLessThan(100);
  });

  it('sends its first request alone (it may create the Data Source), then the rest at the concurrency asked', async () => {
    const tb = tinybird();
    // Answers take a while, so requests sent together would be seen together.
    tb.pool
      .intercept({ method: 'POST', path: (p: string) => p.startsWith('/v0/events') })
      .reply((o) => ({ statusCode: 202, data: JSON.stringify(ok(o.body).body), responseOptions: { headers: { 'content-type': 'application/json' } } }))
      .delay(30)
      .times(5);
    const events: string[] = [];
    const report = await ingestEvents(target, rows(20), {
      dispatcher: tb.agent,
      ...fast,
      maxRequestBytes: 128,
      concurrency: 3,
      logger: (e: HarnessEvent) => void ((e.type === 'request' || e.type === 'response') && events.push(e.type)),
    });
    expect(report).toMatchObject({ successful_rows: 20, requests: 5, failed: [], unknown: [] });
    // The first answer comes before any second request.
    expect(events.slice(0, 3)).toEqual(['request', 'response', 'request']);
    expect(events.filter((e) => e === 'request')).toHaveLength(5);
  });

  it('does not retry any other 409: a conflict is reported as not ingested', async () => {
    const tb = tinybird();
    tb.on('POST', '/v0/events', { status: 409, body: 'Conflict with the current state of the target\n' }, { status: 202, body: { successful_rows: 4, quarantined_rows: 0 } });
    const report = await run(tb, rows(4)).report;
    expect(tb.requests).toHaveLength(1);
    expect(report.failed).toEqual([{ first_row: 1, last_row: 4, error: expect.objectContaining({ code: 'conflict', status: 409 }) }]);
  });

  it.each([401, 403, 404])('stops reading at a %i: the rest is not sent, and resumes from row 1', async (status) => {
    const tb = tinybird();
    tb.on('POST', '/v0/events', ...Array.from({ length: 25 }, () => ({ status, body: 'Invalid token\n' })));
    let pulled = 0;
    async function* source() {
      for (const row of rows(100)) {
        pulled++;
        yield row;
      }
    }
    const report = await run(tb, source(), { concurrency: 2 }).report;
    // 25 chunks in the input; the two in flight are answered, nothing more is read.
    expect(tb.requests.length).toBeLessThanOrEqual(2);
    expect(pulled).toBeLessThan(16);
    expect(report.stopped).toEqual({ error: expect.objectContaining({ status }), not_sent_from_row: 4 * tb.requests.length + 1, resume_from_row: 1 });
    expect(report.failed.map((f) => [f.first_row, f.last_row])).toEqual(tb.requests.map((_, k) => [4 * k + 1, 4 * k + 4]));
    expect(report.successful_rows).toBe(0);
  });

  it('masks the token that was sent when the target\'s getter answers something else after the first read', async () => {
    const tb = tinybird();
    tb.on('POST', '/v0/events', { status: 401, body: `Invalid token ${TOKEN}\n` });
    let reads = 0;
    // The check reads the token first (that copy is sent); the redactor's read then got a decoy.
    const decoyAfter = Object.defineProperty({ base_url: BASE, datasource: 'fresh' }, 'token', {
      get: () => (reads++ === 0 ? TOKEN : 'decoy-token'),
      enumerable: true,
    });
    const report = await ingestEvents(decoyAfter as typeof target, rows(4), { dispatcher: tb.agent, ...fast, maxRequestBytes: 128 });
    expect(tb.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(report.stopped?.error.message).toBe('Invalid token [redacted]');
    expect(JSON.stringify(report)).not.toContain(TOKEN);
  });

  it('skipRows: the rows before are not sent and counted as skipped; row numbers stay absolute', async () => {
    const tb = tinybird();
    tb.pool.intercept({ method: 'POST', path: (p: string) => p.startsWith('/v0/events') }).reply((o) => {
      const first = idsOf(o.body)[0];
      return first === 11
        ? { statusCode: 400, data: 'Bad events\n' }
        : { statusCode: 202, data: JSON.stringify(ok(o.body).body), responseOptions: { headers: { 'content-type': 'application/json' } } };
    }).persist();
    const report = await ingestEvents(target, rows(20), { dispatcher: tb.agent, ...fast, maxRequestBytes: 128, concurrency: 1, skipRows: 10 });
    // Rows 9–12 share a chunk: it is cut after row 10.
    expect(report).toMatchObject({ skipped_rows: 10, rows: 10, successful_rows: 8, failed_rows: 2 });
    expect(report.skipped_bytes).toBe(rows(10).join('').length);
    expect(report.failed).toEqual([{ first_row: 11, last_row: 12, error: expect.objectContaining({ status: 400 }) }]);
  });

  it.each([
    ['stop', 1, { unknown: [{ first_row: 1, last_row: 4 }], maybe_duplicated: [], successful_rows: 0, unknown_rows: 4 }],
    ['retry', 2, { unknown: [], maybe_duplicated: [{ first_row: 1, last_row: 4 }], successful_rows: 4, unknown_rows: 0 }],
  ] as const)('a cut connection with wait=true, onAmbiguous %s: %i requests', async (onAmbiguous, attempts, expected) => {
    const tb = tinybird();
    tb.failConnection('POST', '/v0/events');
    tb.on('POST', '/v0/events', { status: 200, body: { successful_rows: 4, quarantined_rows: 0 } });
    const { report: pending, requests } = run(tb, rows(4), { wait: true, onAmbiguous });
    const report = await pending;
    expect(requests).toHaveLength(attempts);
    expect({ ...report, unknown: report.unknown.map(({ first_row, last_row }) => ({ first_row, last_row })) }).toMatchObject(expected);
    if (onAmbiguous === 'stop') expect(report.stopped).toMatchObject({ error: { code: 'network' }, resume_from_row: 5 });
    else expect(report.stopped).toBeUndefined();
  });

  it('refuses a bad skipRows or onAmbiguous before sending', async () => {
    const tb = tinybird();
    await expect(run(tb, rows(4), { skipRows: -1 }).report).rejects.toMatchObject({ error: { code: 'invalid_params', message: expect.stringMatching(/^invalid ingest options: skipRows: /) } });
    await expect(run(tb, rows(4), { onAmbiguous: 'maybe' as 'stop' }).report).rejects.toMatchObject({ error: { code: 'invalid_params' } });
    expect(tb.requests).toHaveLength(0);
  });
});
