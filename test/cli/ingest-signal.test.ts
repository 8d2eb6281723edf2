import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../helpers/loopback-server.js';

const root = new URL('../..', import.meta.url).pathname;
const TOKEN = 'p.ingest-signal-token';
/** 30 rows of exactly 100 bytes: with --max-request-bytes 1024, ten rows a request. */
const ROWS = Array.from({ length: 30 }, (_, i) => {
  const head = JSON.stringify({ n: i + 1, pad: '' });
  return `${head.slice(0, -2)}${'x'.repeat(100 - head.length - 1)}"}\n`;
});

let dir: string;
let file: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'flowblocks-ingest-signal-'));
  file = join(dir, 'events.ndjson');
  writeFileSync(file, ROWS.join(''));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A Tinybird Events API that takes the first request and holds the second without an answer,
 * as a slow service would while the user presses Ctrl-C; `held` resolves when it arrives.
 */
function eventsApi() {
  const requests: { method?: string; url?: string; authorization?: string; body: string }[] = [];
  const open: ServerResponse[] = [];
  let arrived!: () => void;
  const held = new Promise<void>((resolve) => (arrived = resolve));
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk));
    req.on('end', () => {
      requests.push({ method: req.method, url: req.url, authorization: req.headers.authorization, body });
      if (requests.length === 1) {
        res.setHeader('content-type', 'application/json');
        return void res.end(JSON.stringify({ successful_rows: body.split('\n').filter(Boolean).length, quarantined_rows: 0 }));
      }
      open.push(res);
      arrived();
    });
  });
  return { server, requests, held, close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))) };
}

describe('flowblocks ingest stopped by a signal (issue 42)', () => {
  it.each([
    ['SIGINT', 130, 'stopped by SIGINT (Ctrl-C)'],
    ['SIGTERM', 143, 'stopped by SIGTERM'],
  ] as const)('%s prints the report every stop prints: rows in, unknown, --from-row; exit %i', { timeout: 60_000 }, async (signal, code, stopLine) => {
    const api = eventsApi();
    const { origin: baseUrl } = await listenOnLoopback(api.server);
    try {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'src/satellites/cli/index.ts', 'ingest', file, '--datasource', 'events', '--base-url', baseUrl, '--max-request-bytes', '1024', '--concurrency', '1'],
        { cwd: root, env: { ...process.env, TINYBIRD_TOKEN: TOKEN, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
      const exited = new Promise<number | null>((resolve) => child.on('close', (status) => resolve(status)));
      await api.held;
      child.kill(signal);
      expect(await exited).toBe(code);

      expect(api.requests.map(({ body: _b, ...r }) => r)).toEqual([
        { method: 'POST', url: '/v0/events?name=events', authorization: `Bearer ${TOKEN}` },
        { method: 'POST', url: '/v0/events?name=events', authorization: `Bearer ${TOKEN}` },
      ]);
      expect(api.requests.map((r) => r.body)).toEqual([ROWS.slice(0, 10).join(''), ROWS.slice(10, 20).join('')]);
      expect(stdout).toBe('10 rows ingested, 0 quarantined, 2 requests\n');
      const report = stderr.slice(stderr.indexOf('rows 11-20'));
      expect(report).toBe(
        [
          'rows 11-20: outcome unknown, they may be in the Data Source (check before sending them again): aborted: the call was aborted',
          stopLine,
          'rows from 21 on were not sent; no row from 21 on is in the Data Source.',
          'resume with the same command and --from-row 21',
          '',
        ].join('\n'),
      );
      expect(stderr).not.toContain(TOKEN);
    } finally {
      await api.close();
    }
  });
});
