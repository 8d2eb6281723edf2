import { describe, expect, it } from 'vitest';
import { tinybird } from './setup.js';

/**
 * The Events API's cap is in bytes. Characters outside ASCII take 2–4 bytes in UTF-8, so data
 * under the cap counted in UTF-16 characters can be far over it in bytes: sent as one
 * request, the service answers 413.
 */
describe('tinybird_events counts the request size in bytes', () => {
  const row = (i: number, char: string, count: number) => JSON.stringify({ i, text: char.repeat(count) });

  it.each([
    ['2-byte ø', 'ø', 300],
    ['3-byte €', '€', 200],
    ['4-byte 🙂 (two UTF-16 units)', '🙂', 150],
  ])('splits multi-byte data that is under the cap in characters but over it in bytes (%s)', async (_, char, count) => {
    const rows = [0, 1, 2].map((i) => row(i, char, count));
    const data = rows.join('\n') + '\n';
    const cap = 1024;
    expect(data.length).toBeLessThanOrEqual(cap);
    expect(Buffer.byteLength(data)).toBeGreaterThan(cap);
    const tb = tinybird();
    tb.on('POST', '/v0/events', ...rows.map(() => ({ status: 202, body: { successful_rows: 1, quarantined_rows: 0 } })));
    const result = await tb.run('tinybird_events', { datasource: 'events', data, max_request_bytes: cap });
    expect(tb.requests.length).toBeGreaterThan(1);
    for (const request of tb.requests) expect(Buffer.byteLength(request.body as string)).toBeLessThanOrEqual(cap);
    expect(tb.requests.map((request) => String(request.body)).join('')).toBe(data);
    expect(result).toMatchObject({ success: true, output: { successful_rows: tb.requests.length, quarantined_rows: 0 } });
  });

  it('sends data of exactly the cap in bytes as one request, and one byte more as two', async () => {
    const cap = 1024;
    const fill = (bytes: number) => {
      const head = '{"a":"';
      const tail = '"}\n';
      return head + 'x'.repeat(bytes - head.length - tail.length) + tail;
    };
    const exact = fill(cap);
    expect(Buffer.byteLength(exact)).toBe(cap);
    const tb = tinybird();
    tb.on('POST', '/v0/events', { status: 202, body: { successful_rows: 1, quarantined_rows: 0 } });
    await tb.run('tinybird_events', { datasource: 'events', data: exact, max_request_bytes: cap });
    expect(tb.requests).toHaveLength(1);
    expect(String(tb.requests[0]!.body)).toBe(exact);

    const over = '{"b":1}\n' + fill(cap - 7);
    expect(Buffer.byteLength(over)).toBe(cap + 1);
    const split = tinybird();
    split.on('POST', '/v0/events', ...[1, 2].map(() => ({ status: 202, body: { successful_rows: 1, quarantined_rows: 0 } })));
    await split.run('tinybird_events', { datasource: 'events', data: over, max_request_bytes: cap });
    expect(split.requests.map((request) => String(request.body))).toEqual(['{"b":1}\n', fill(cap - 7)]);
  });
});
