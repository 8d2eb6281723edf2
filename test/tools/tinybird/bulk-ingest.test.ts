import { createReadStream, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { forEachConcurrent } from '../../../src/harness/run/for-each-concurrent.js';
import { ingestEvents, readNdjsonFile, type IngestProgress } from '../../../tools/tinybird/index.js';
import { BASE, TOKEN, tinybird } from './setup.js';

const rows = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ id: from + i, event: 'view', path: `/p/${from + i}` }));
const ndjson = (items: object[]) => items.map((r) => JSON.stringify(r)).join('\n') + '\n';
const countsOf = (body: unknown) => String(body).split('\n').filter(Boolean).length;

describe('tinybird_events with data over the per-request cap', () => {
  it('splits at line boundaries, gzips each request, and sums the counts', async () => {
    const tb = tinybird();
    const data = ndjson(rows(300));
    for (let i = 0; i < 20; i++) tb.on('POST', '/v0/events', { status: 202, body: { successful_rows: 0, quarantined_rows: 0 } });
    const result = await tb.run('tinybird_events', { datasource: 'events', data, compression: 'gzip', max_request_bytes: 4096, concurrency: 3 });
    const bodies = tb.requests.map((r) => gunzipSync(r.body as Buffer).toString());
    expect(bodies.length).toBeGreaterThan(3);
    for (const body of bodies) {
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(4096);
      expect(body.endsWith('\n')).toBe(true);
    }
    // Requests run concurrently, so they may arrive in any order; put them back by first id.
    const firstId = (body: string) => (JSON.parse(body.slice(0, body.indexOf('\n'))) as { id: number }).id;
    expect(bodies.sort((a, b) => firstId(a) - firstId(b)).join('')).toBe(data);
    for (const req of tb.requests) expect(req).toMatchObject({ method: 'POST', path: '/v0/events', query: { name: 'events' } });
    expect(result).toMatchObject({ success: true, output: { successful_rows: 0, quarantined_rows: 0 } });
    expect(result.meta.notes?.[0]).toMatch(/^sent in \d+ requests of at most 4096 bytes$/);
  });

  it('reports a chunk that finally fails with its row range, and keeps the others', async () => {
    const tb = tinybird();
    const data = ndjson(rows(100));
    // The second request is refused for good (a 400: nothing written); the rest succeed.
    let call = 0;
    tb.pool
      .intercept({ method: 'POST', path: (p: string) => p.startsWith('/v0/events') })
      .reply((opts) => {
        call++;
        const n = countsOf(opts.body);
        return call === 2
          ? { statusCode: 400, data: 'Bad events\n', responseOptions: { headers: { 'content-type': 'text/plain' } } }
          : { statusCode: 202, data: JSON.stringify({ successful_rows: n - 1, quarantined_rows: 1 }), responseOptions: { headers: { 'content-type': 'application/json' } } };
      })
      .persist();
    const result = await tb.run('tinybird_events', { datasource: 'events', data, max_request_bytes: 1500, concurrency: 1 });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.code).toBe('bad_request');
    expect(result.error.issues).toHaveLength(1);
    const [, from, to] = /rows (\d+)-(\d+)/.exec(result.error.issues![0]!.message)!.map(Number) as [number, number, number];
    expect(from).toBeGreaterThan(1);
    expect(result.error.issues![0]!.message).toContain('not ingested: bad_request 400: Bad events');
    const total = Math.ceil(call);
    expect(result.error.message).toMatch(new RegExp(`^1 of ${total} requests failed: rows ${from}-${to} not ingested \\((\\d+) rows ingested, (\\d+) quarantined\\)`));
    const [, ingested, quarantined] = /\((\d+) rows ingested, (\d+) quarantined\)/.exec(result.error.message)!.map(Number);
    expect(ingested! + quarantined! + (to - from + 1)).toBe(100);
    expect(quarantined).toBe(total - 1);
  });

  it('retries a 503 with wait=true, so a fault on the retry is safe to repeat', async () => {
    const tb = tinybird();
    tb.on(
      'POST',
      '/v0/events',
      { status: 503, body: 'Service temporarily unavailable, no data ingested, please retry again\n' },
      { status: 500, body: 'Internal error\n' },
      { status: 200, body: { successful_rows: 2, quarantined_rows: 0 } },
    );
    const result = await tb.run('tinybird_events', { datasource: 'events', data: ndjson(rows(2)) });
    expect(tb.requests.map((r) => r.query)).toEqual([{ name: 'events' }, { name: 'events', wait: 'true' }, { name: 'events', wait: 'true' }]);
    expect(result).toMatchObject({ success: true, output: { successful_rows: 2 }, meta: { attempts: 3 } });
  });

  it('refuses a single event larger than the cap as invalid_params on data', async () => {
    const tb = tinybird();
    const data = ndjson([{ a: 1 }, { big: 'z'.repeat(3000) }, { c: 3 }]);
    tb.on('POST', '/v0/events', { status: 202, body: { successful_rows: 1, quarantined_rows: 0 } });
    const result = await tb.run('tinybird_events', { datasource: 'events', data, max_request_bytes: 1024 });
    expect(result).toMatchObject({
      success: false,
      error: { code: 'invalid_params', issues: [{ path: 'data', message: 'row 2 is larger than the 1024-byte per-request limit; a single event cannot be split' }] },
    });
  });
});

describe('ingestEvents', () => {
  const target = { base_url: BASE, token: TOKEN, datasource: 'events' };

  it('streams objects from an async iterable with bounded concurrency and reports progress', async () => {
    const tb = tinybird();
    let inFlight = 0;
    let peak = 0;
    const auths: string[] = [];
    tb.pool
      .intercept({ method: 'POST', path: (p: string) => p.startsWith('/v0/events') })
      .reply((opts) => {
        auths.push((opts.headers as Record<string, string>).authorization ?? '');
        inFlight++;
        peak = Math.max(peak, inFlight);
        const n = countsOf(opts.body);
        setTimeout(() => inFlight--, 5);
        return { statusCode: 202, data: JSON.stringify({ successful_rows: n, quarantined_rows: 0 }), responseOptions: { headers: { 'content-type': 'application/json' } } };
      })
      .delay(5)
      .persist();
    async function* source() {
      for (const row of rows(1000)) yield row;
    }
    const progress: IngestProgress[] = [];
    const report = await ingestEvents(target, source(), {
      dispatcher: tb.agent,
      maxRequestBytes: 2048,
      concurrency: 2,
      onProgress: (p) => progress.push(p),
    });
    expect(report).toMatchObject({ successful_rows: 1000, quarantined_rows: 0, rows: 1000, failed: [], failed_rows: 0 });
    expect(report.requests).toBe(auths.length);
    expect(report.bytes).toBe(Buffer.byteLength(ndjson(rows(1000))));
    expect(peak).toBeLessThanOrEqual(2);
    expect(progress).toHaveLength(report.requests);
    expect(progress.at(-1)).toMatchObject({ rows: 1000, requests: report.requests, successful_rows: 1000 });
    expect(new Set(auths)).toEqual(new Set([`Bearer ${TOKEN}`]));
  });

  it('reads an NDJSON file stream and gzips when asked', async () => {
    const tb = tinybird();
    const file = join(mkdtempSync(join(tmpdir(), 'flowblocks-ingest-')), 'events.ndjson');
    const data = ndjson(rows(400));
    writeFileSync(file, data);
    for (let i = 0; i < 40; i++) tb.on('POST', '/v0/events', { status: 200, body: { successful_rows: 10, quarantined_rows: 0 } });
    const report = await ingestEvents(target, createReadStream(file, { highWaterMark: 777 }), {
      dispatcher: tb.agent,
      maxRequestBytes: 4000,
      gzip: true,
      wait: true,
    });
    const sent = tb.requests.map((r) => gunzipSync(r.body as Buffer).toString());
    // Two requests are in flight, so they may reach the service in either order: put them back in row order.
    const firstId = (chunk: string) => (JSON.parse(chunk.slice(0, chunk.indexOf('\n'))) as { id: number }).id;
    expect([...sent].sort((a, b) => firstId(a) - firstId(b)).join('')).toBe(data);
    expect(tb.requests.every((r) => r.query.wait === 'true' && r.headers['content-encoding'] === 'gzip')).toBe(true);
    expect(report).toMatchObject({ rows: 400, requests: sent.length, successful_rows: 10 * sent.length });
  });

  it('reads a file given by readNdjsonFile straight into its requests, whole lines each', async () => {
    const tb = tinybird();
    const file = join(mkdtempSync(join(tmpdir(), 'flowblocks-ingest-')), 'events.ndjson');
    const data = ndjson(rows(500));
    // No final newline: the last request gets one, as the service accepts either.
    writeFileSync(file, data.slice(0, -1));
    for (let i = 0; i < 40; i++) tb.on('POST', '/v0/events', { status: 202, body: { successful_rows: 1, quarantined_rows: 0 } });
    const progress: IngestProgress[] = [];
    const report = await ingestEvents(target, readNdjsonFile(file), { dispatcher: tb.agent, maxRequestBytes: 3000, onProgress: (p) => progress.push(p) });
    const sent = tb.requests.map((r) => String(r.body));
    for (const body of sent) {
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(3000);
      expect(body.endsWith('\n')).toBe(true);
    }
    const firstId = (body: string) => (JSON.parse(body.slice(0, body.indexOf('\n'))) as { id: number }).id;
    expect(sent.sort((a, b) => firstId(a) - firstId(b)).join('')).toBe(data);
    expect(report).toMatchObject({ rows: 500, bytes: Buffer.byteLength(data), requests: sent.length, successful_rows: sent.length, failed: [] });
    expect(progress.at(-1)).toMatchObject({ rows: 500, requests: sent.length });
  });

  it('refuses a file line larger than the request cap, naming its row', async () => {
    const tb = tinybird();
    const file = join(mkdtempSync(join(tmpdir(), 'flowblocks-ingest-')), 'events.ndjson');
    writeFileSync(file, `{"a":1}\n{"a":"${'x'.repeat(200)}"}\n{"a":3}\n`);
    tb.on('POST', '/v0/events', { status: 202, body: { successful_rows: 1, quarantined_rows: 0 } });
    await expect(ingestEvents(target, readNdjsonFile(file), { dispatcher: tb.agent, maxRequestBytes: 100 })).rejects.toThrow(
      'row 2 is larger than the 100-byte per-request limit',
    );
  });

  it('iterates a readNdjsonFile as byte pieces for any other consumer', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'flowblocks-ingest-')), 'events.ndjson');
    const data = ndjson(rows(50));
    writeFileSync(file, data);
    const pieces: Buffer[] = [];
    for await (const piece of readNdjsonFile(file, 100)) pieces.push(Buffer.from(piece));
    expect(pieces.length).toBe(Math.ceil(Buffer.byteLength(data) / 100));
    expect(Buffer.concat(pieces).toString()).toBe(data);
  });

  it('records failed requests with their rows and masks the token', async () => {
    const tb = tinybird();
    tb.on('POST', '/v0/events', { status: 403, body: `Invalid token ${TOKEN}\n` });
    const report = await ingestEvents(target, ['{"a":1}\n{"a":2}\n'], { dispatcher: tb.agent });
    expect(report.failed).toEqual([{ first_row: 1, last_row: 2, error: expect.objectContaining({ code: 'forbidden', message: 'Invalid token [redacted]' }) }]);
    expect(report).toMatchObject({ rows: 2, failed_rows: 2, successful_rows: 0, requests: 1 });
  });

  it('throws on an invalid target; an abort is a stop, reported with where to resume', async () => {
    await expect(ingestEvents({ ...target, base_url: 'nope' }, [])).rejects.toMatchObject({
      error: { code: 'invalid_params', issues: [{ path: 'base_url' }] },
    });
    const tb = tinybird();
    const report = await ingestEvents(target, [{ a: 1 }], { dispatcher: tb.agent, signal: AbortSignal.abort() });
    expect(report).toMatchObject({ rows: 0, requests: 0, unknown: [], failed: [], stopped: { error: { code: 'aborted' }, not_sent_from_row: 1, resume_from_row: 1 } });
  });
});

describe('forEachConcurrent', () => {
  it('never has more than the limit in flight and pulls lazily', async () => {
    let inFlight = 0;
    let peak = 0;
    let pulled = 0;
    function* items() {
      for (let i = 0; i < 20; i++) {
        pulled++;
        yield i;
      }
    }
    await forEachConcurrent(items(), 3, async () => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 2));
      inFlight--;
    });
    expect(peak).toBe(3);
    expect(pulled).toBe(20);
  });

  it('stops pulling after an error and rethrows it once the rest settle', async () => {
    let pulled = 0;
    function* items() {
      for (let i = 0; i < 100; i++) {
        pulled++;
        yield i;
      }
    }
    await expect(
      forEachConcurrent(items(), 2, async (i) => {
        if (i === 3) throw new Error('boom');
        await new Promise((r) => setTimeout(r, 1));
      }),
    ).rejects.toThrow('boom');
    expect(pulled).toBeLessThan(10);
    async function* failing() {
      yield 1;
      throw new Error('source broke');
    }
    await expect(forEachConcurrent(failing(), 2, async () => {})).rejects.toThrow('source broke');
  });
});
