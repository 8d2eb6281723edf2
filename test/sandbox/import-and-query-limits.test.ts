import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/satellites/sandbox/index.js';
import { call, eventually, fileServer } from './helpers.js';

// Issue 41 items 5, 7, 8: what an import may fetch and decode, and how long a query may run.

let sb: Sandbox;
let base: string;
let admin: string;
let read: string;
const served: Record<string, string | Buffer> = {};
let files: Awaited<ReturnType<typeof fileServer>>;
/** Another local service on [::1] with the file server's port number. */
let otherOnV6: Server;
let port: number;

const MAX_IMPORT = 1024 * 1024;

beforeAll(async () => {
  files = await fileServer(served);
  port = Number(new URL(files.url('')).port);
  otherOnV6 = createServer((_, res) => res.writeHead(200).end(JSON.stringify({ timestamp: '2026-11-22 10:00:00', event: 'v6-secret', user_id: 'other' })));
  await new Promise<void>((resolve) => otherOnV6.listen(port, '::1', resolve));
  sb = await startSandbox({ servicePorts: false, tinybird: { importFrom: [new URL(files.url('')).origin], jobStepMs: 20, queriesPerSecond: 1000, maxImportBytes: MAX_IMPORT, queryTimeoutSeconds: 1 } });
  base = sb.urls.tinybird;
  ({ adminToken: admin, readToken: read } = sb.credentials.tinybird);
}, 60_000);
afterAll(async () => {
  await sb?.close();
  await files?.close();
  await new Promise((resolve) => otherOnV6?.close(resolve));
});

const sql = (q: string, token = admin, headers: Record<string, string> = {}) => call(`${base}/v0/sql?q=${encodeURIComponent(q)}`, { token, headers });
const importUrl = (url: string, format: string) =>
  call(`${base}/v0/datasources?mode=append&name=events&format=${format}`, { method: 'POST', token: admin, body: new URLSearchParams({ url }) });
const settled = (id: unknown) =>
  eventually(async () => {
    const job = (await call(`${base}/v0/jobs/${String(id)}`, { token: admin })).json;
    return job.status === 'done' || job.status === 'error' ? job : undefined;
  }, 30_000);

describe('import from URL', () => {
  it('refuses [::1] on an allowed port number: the allow-list compares host and port', async () => {
    expect((otherOnV6.address() as AddressInfo).port).toBe(port);
    const res = await importUrl(`http://[::1]:${port}/anything.ndjson`, 'ndjson');
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('The sandbox only imports from its own ports and the origins given at start (tinybird.importFrom)');
    expect((await sql("SELECT count() AS c FROM events WHERE event = 'v6-secret'")).json.data).toEqual([{ c: 0 }]);
  });

  it('caps a Parquet file by its decoded size: a bomb of a few hundred bytes fails the job, nothing is imported', async () => {
    const bomb = Buffer.from(
      await (
        await fetch(`${base}/v0/sql?q=${encodeURIComponent("SELECT toDateTime('2026-11-22 12:00:00') AS timestamp, repeat('b', 1000000) AS event, 'bomb' AS user_id FROM numbers(20) FORMAT Parquet")}`, {
          headers: { authorization: `Bearer ${admin}` },
        })
      ).arrayBuffer(),
    );
    expect(bomb.byteLength).toBeLessThan(4096);
    served['bomb.parquet'] = bomb;
    const submitted = await importUrl(files.url('bomb.parquet'), 'parquet');
    expect(submitted.status).toBe(200);
    const job = await settled(submitted.json.id);
    expect([job.status, job.error]).toEqual(['error', `File too large: decoded, the file is more than ${MAX_IMPORT} bytes, the import limit`]);
    expect((await sql("SELECT count() AS c FROM events WHERE user_id = 'bomb'")).json.data).toEqual([{ c: 0 }]);
  }, 60_000);

  it('still imports a small Parquet file', async () => {
    served['small.parquet'] = Buffer.from(
      await (await fetch(`${base}/v0/sql?q=${encodeURIComponent("SELECT toDateTime('2026-11-22 12:00:00') AS timestamp, 'pq-small' AS event, 's1' AS user_id FORMAT Parquet")}`, { headers: { authorization: `Bearer ${admin}` } })).arrayBuffer(),
    );
    const job = await settled((await importUrl(files.url('small.parquet'), 'parquet')).json.id);
    expect(job.status).toBe('done');
    expect((await sql("SELECT user_id FROM events WHERE event = 'pq-small'")).json.data).toEqual([{ user_id: 's1' }]);
  });
});

describe('Query API time limit', () => {
  it('answers 408 once a query passes the time limit, and the next query runs', async () => {
    const started = Date.now();
    const slow = await sql('SELECT count() AS c FROM numbers(100000000000)', read);
    expect(slow.status).toBe(408);
    expect(String(slow.json.error)).toMatch(/^\[Error\] Timeout exceeded/);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await sql('SELECT 1 AS one', read)).json.data).toEqual([{ one: 1 }]);
  });

  it('refuses a cross-site GET without an Origin (an <img> on any web page) before running it', async () => {
    const res = await call(`${base}/v0/sql?q=${encodeURIComponent('SELECT 1 AS one')}&token=${read}`, { headers: { 'sec-fetch-site': 'cross-site' } });
    expect([res.status, res.json.error]).toEqual([403, 'the sandbox answers only pages served from 127.0.0.1, localhost or [::1]']);
    // The same request from the developer's own tools (no Fetch Metadata) or a same-site page is answered.
    expect((await call(`${base}/v0/sql?q=${encodeURIComponent('SELECT 1 AS one')}&token=${read}`, { headers: { 'sec-fetch-site': 'same-site' } })).status).toBe(200);
  });
});
