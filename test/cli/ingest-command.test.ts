import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';
import { formatBytes, renderProgress } from '../../src/cli/progress-bar.js';

const TOKEN = 'p.ingest-cli-secret';

describe('flowblocks ingest', () => {
  const received: { url?: string; auth?: string; body: string }[] = [];
  let failNext = false;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw).toString() : raw.toString();
      received.push({ url: req.url, auth: req.headers.authorization, body });
      if (failNext) {
        failNext = false;
        res.writeHead(400, { 'content-type': 'text/plain' }).end(`Bad token ${TOKEN}\n`);
        return;
      }
      const rows = body.split('\n').filter(Boolean).length;
      res.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify({ successful_rows: rows, quarantined_rows: 0 }));
    });
  });
  let base = '';
  let file = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    file = join(mkdtempSync(join(tmpdir(), 'flowblocks-cli-ingest-')), 'events.ndjson');
    writeFileSync(file, Array.from({ length: 3000 }, (_, i) => JSON.stringify({ i, event: 'click' })).join('\n') + '\n');
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('streams a file in gzipped requests, shows progress and sums rows', async () => {
    const out = await cli(['ingest', file, '--datasource', 'clicks', '--base-url', base, '--token', TOKEN, '--gzip', '--max-request-bytes', '8192', '--concurrency', '2']);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^3000 rows ingested, 0 quarantined, \d+ requests\n$/);
    expect(out.stderr).toContain('100%');
    expect(out.stderr).toContain('3,000 rows');
    expect(out.stderr).not.toContain(TOKEN);
    expect(received.length).toBeGreaterThan(5);
    expect(received.every((r) => r.url === '/v0/events?name=clicks' && r.auth === `Bearer ${TOKEN}`)).toBe(true);
    expect(received.map((r) => r.body).join('').split('\n').filter(Boolean)).toHaveLength(3000);
  });

  it('exits 1 and names the rows that failed, with the token masked', async () => {
    failNext = true;
    process.env.TINYBIRD_TOKEN = TOKEN;
    const out = await cli(['ingest', file, '--datasource', 'clicks', '--base-url', base, '--max-request-bytes', '100000']);
    delete process.env.TINYBIRD_TOKEN;
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/rows 1-\d+ not ingested: bad_request: Bad token \[redacted\]/);
    expect(out.stderr).not.toContain(TOKEN);
  });

  it('refuses missing arguments, bad numbers and unreadable files', async () => {
    expect(await cli(['ingest'])).toMatchObject({ code: 2, stderr: expect.stringContaining('missing <file>, --datasource') });
    expect(await cli(['ingest', file, '--datasource', 'd', '--token', 't', '--concurrency', '0'])).toMatchObject({ code: 2 });
    expect(await cli(['ingest', '/nope/x.ndjson', '--datasource', 'd', '--token', 't'])).toMatchObject({ code: 2, stderr: 'cannot read /nope/x.ndjson\n' });
    expect(await cli(['ingest', '--bogus'])).toMatchObject({ code: 2 });
    expect((await cli(['ingest', '--help'])).stdout).toContain('--datasource');
  });

  it('renders progress with and without a known total', () => {
    expect(renderProgress({ bytes: 50_000_000, totalBytes: 200_000_000, rows: 250_000, requests: 5, failedRows: 0, elapsedMs: 2000 }, 8)).toBe(
      '[##------]  25% 50.0 MB/200.0 MB · 250,000 rows, 5 requests, 25.0 MB/s',
    );
    expect(renderProgress({ bytes: 999, rows: 3, requests: 1, failedRows: 2, elapsedMs: 1000 })).toBe('999 B · 3 rows, 1 requests, 999 B/s, 2 rows failed');
    expect(formatBytes(1_234_567_890_123)).toBe('1.23 TB');
  });
});
