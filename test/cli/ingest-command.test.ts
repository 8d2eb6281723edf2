import { createServer } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';
import { formatBytes, renderProgress } from '../../src/satellites/cli/progress-bar.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

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
      if (req.headers.authorization !== `Bearer ${TOKEN}`) {
        res.writeHead(403, { 'content-type': 'text/plain' }).end('Invalid token\n');
        return;
      }
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
    const serverAddress = await listenOnLoopback(server);
    base = serverAddress.origin;
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

  it('without a terminal prints the final progress line once, for a file without a final newline', async () => {
    const small = join(mkdtempSync(join(tmpdir(), 'flowblocks-cli-ingest-')), 'small.ndjson');
    writeFileSync(small, '{"i":1,"event":"click"}\n{"i":2,"event":"click"}');
    const out = await cli(['ingest', small, '--datasource', 'clicks', '--base-url', base, '--token', TOKEN]);
    expect(out.code).toBe(0);
    const lines = out.stderr.split('\n').filter((line) => line.includes('%'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[#+\] 100% 47 B\/47 B · 2 rows ingested, 1 request, \d+(\.\d+ kB)?( B)?\/s$/);
  });

  it('exits 1 and names the rows that failed, with the token masked', async () => {
    failNext = true;
    process.env.TINYBIRD_TOKEN = TOKEN;
    const out = await cli(['ingest', file, '--datasource', 'clicks', '--base-url', base, '--max-request-bytes', '100000']);
    delete process.env.TINYBIRD_TOKEN;
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/rows 1-\d+ not ingested: bad_request 400: Bad token \[redacted\]/);
    expect(out.stderr).not.toContain(TOKEN);
  });

  const sentIds = () => received.flatMap((r) => r.body.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { i: number }).i));

  it('stops at a refused token after the requests in flight, says what was not sent and how to resume', async () => {
    received.length = 0;
    // About 80 chunks of 1 kB; two in flight.
    const out = await cli(['ingest', file, '--datasource', 'clicks', '--base-url', base, '--token', 'p.wrong-token', '--max-request-bytes', '1024']);
    expect(out.code).toBe(1);
    expect(received.length).toBeGreaterThan(0);
    expect(received.length).toBeLessThanOrEqual(2);
    expect(out.stdout).toMatch(/^0 rows ingested, 0 quarantined, (1 request|2 requests)\n$/);
    expect(out.stderr).toMatch(/rows 1-\d+ not ingested: forbidden 403: Invalid token/);
    expect(out.stderr).toContain('stopped: forbidden 403: Invalid token');
    expect(out.stderr).toMatch(/rows from \d+ on were not sent; no row from 1 on is in the Data Source/);
    expect(out.stderr).toContain('resume with the same command and --from-row 1\n');
    // No throughput for refused bytes.
    expect(out.stderr).not.toContain('B/s');
    expect(out.stderr).not.toContain('p.wrong-token');
  });

  it('a refused token on a file sent whole: no rows "not sent" past its end, an empty bar, and what to fix before resuming', async () => {
    received.length = 0;
    const whole = join(mkdtempSync(join(tmpdir(), 'flowblocks-cli-ingest-')), 'whole.ndjson');
    writeFileSync(whole, Array.from({ length: 1001 }, (_, i) => JSON.stringify({ i, event: 'click' })).join('\n') + '\n');
    const out = await cli(['ingest', whole, '--datasource', 'clicks', '--base-url', base, '--token', 'p.wrong-token']);
    expect(out.code).toBe(1);
    expect(received).toHaveLength(1);
    expect(out.stderr).toMatch(/^\[x{24}\] {3}0% 0 B\/2\d\.\d kB, 2\d\.\d kB not in · 0 rows ingested, 1 request, 1,001 rows failed$/m);
    expect(out.stderr).not.toMatch(/\[#/);
    expect(out.stderr).not.toContain('1002');
    expect(out.stderr).toContain('every row was sent before the stop; no row from 1 on is in the Data Source.\n');
    expect(out.stderr).toContain(
      'fix first: the token was refused (403): give one with DATASOURCES:APPEND on clicks (and DATASOURCES:CREATE if it does not exist yet), with --token or $TINYBIRD_TOKEN; then resume with the same command and --from-row 1\n',
    );
    expect(out.stderr).not.toContain('p.wrong-token');
  });

  it('stops at a dead port after the connection retries', async () => {
    const dead = createServer();
    const { port } = await listenOnLoopback(dead);
    await new Promise((resolve) => dead.close(resolve));
    const out = await cli(['ingest', file, '--datasource', 'clicks', '--base-url', `http://127.0.0.1:${port}`, '--token', TOKEN, '--max-request-bytes', '1024']);
    expect(out.code).toBe(1);
    expect(out.stdout).toMatch(/^0 rows ingested, 0 quarantined, (1 request|2 requests)\n$/);
    expect(out.stderr).toMatch(/stopped: network: network error: ECONNREFUSED/);
    expect(out.stderr).toContain('resume with the same command and --from-row 1\n');
  });

  it('resumes with --from-row: the rows before it are skipped, not sent, and counted', async () => {
    received.length = 0;
    const out = await cli(['ingest', file, '--datasource', 'clicks', '--base-url', base, '--token', TOKEN, '--max-request-bytes', '4096', '--from-row', '1501']);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^1500 rows ingested, 0 quarantined, \d+ requests, 1500 rows skipped\n$/);
    expect(sentIds().sort((a, b) => a - b)).toEqual(Array.from({ length: 1500 }, (_, k) => 1500 + k));
    expect(out.stderr).toContain('1,500 rows skipped');
  });

  it('refuses missing arguments, bad numbers and unreadable files', async () => {
    expect(await cli(['ingest'])).toMatchObject({ code: 2, stderr: expect.stringContaining('missing <file>, --datasource') });
    expect(await cli(['ingest', file, '--datasource', 'd', '--token', 't', '--concurrency', '0'])).toMatchObject({ code: 2 });
    expect(await cli(['ingest', '/nope/x.ndjson', '--datasource', 'd', '--token', 't'])).toMatchObject({ code: 2, stderr: 'cannot read /nope/x.ndjson: no such file\n' });
    expect(await cli(['ingest', '--bogus'])).toMatchObject({ code: 2 });
    expect(await cli(['ingest', file, '--datasource', 'd', '--token', 't', '--from-row', '0'])).toMatchObject({ code: 2 });
    expect(await cli(['ingest', file, '--datasource', 'd', '--token', 't', '--on-ambiguous', 'maybe'])).toMatchObject({ code: 2 });
    expect((await cli(['ingest', '--help'])).stdout).toContain('--datasource');
  });

  it('renders progress with and without a known total', () => {
    const figures = { bytes: 50_000_000, totalBytes: 200_000_000, ingestedBytes: 50_000_000, rows: 250_000, requests: 5, failedRows: 0, elapsedMs: 2000 };
    expect(renderProgress(figures, 8)).toBe('[##------]  25% 50.0 MB/200.0 MB · 250,000 rows ingested, 5 requests, 25.0 MB/s');
    // The rate counts only what the service took, and is rounded.
    expect(renderProgress({ bytes: 999, ingestedBytes: 333, rows: 3, ingestedRows: 1, requests: 1, failedRows: 2, unknownRows: 1, skippedRows: 4, elapsedMs: 1100 })).toBe(
      '999 B · 1 row ingested, 1 request, 303 B/s, 2 rows failed, 1 row unknown, 4 rows skipped',
    );
    // A 176-byte file whose last row has no newline is sent as 177 bytes: the bar shows the file's own.
    expect(renderProgress({ bytes: 177, totalBytes: 176, ingestedBytes: 177, rows: 2, requests: 1, failedRows: 0, elapsedMs: 182 }, 4)).toBe(
      '[####] 100% 176 B/176 B · 2 rows ingested, 1 request, 973 B/s',
    );
    // Nothing taken: no throughput.
    expect(renderProgress({ bytes: 500, totalBytes: 500, ingestedBytes: 0, rows: 5, ingestedRows: 0, requests: 1, failedRows: 5, elapsedMs: 100 }, 4)).toBe(
      '[####] 100% 500 B/500 B · 0 rows ingested, 1 request, 5 rows failed',
    );
    expect(formatBytes(1_234_567_890_123)).toBe('1.23 TB');
  });
});
