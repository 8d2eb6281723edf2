/**
 * The benchmark's local peer, run in a child process so it does not share the client's
 * event loop: fixed answers for each route, request bodies read and discarded.
 * Sends its port over IPC when it listens; exits when the parent disconnects.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const JSON_HEADERS = { 'content-type': 'application/json' };
const SQL_RESULT = JSON.stringify({
  meta: [{ name: 'n', type: 'UInt64' }, { name: 'day', type: 'Date' }],
  data: [{ n: 42, day: '2026-11-22' }, { n: 7, day: '2026-11-21' }],
  rows: 2,
  statistics: { elapsed: 0.000412, rows_read: 1024, bytes_read: 8192 },
});
const CONTACT = { id: 'cll6b3i8901a9jx0oyktl2m4u', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', source: 'api', subscribed: true, userGroup: '', userId: null, mailingLists: {}, optInStatus: null };

/** Loops reports its limit on every answer; this server has none, and says so with a large one. */
const LOOPS_HEADERS = { ...JSON_HEADERS, 'x-ratelimit-limit': '1000000', 'x-ratelimit-remaining': '999999' };

function answer(method: string, path: string, bytes: number): { status: number; body: string } {
  if (path === '/v0/sql' || path.startsWith('/v0/pipes/')) return { status: 200, body: SQL_RESULT };
  if (path === '/v0/events') return { status: 202, body: JSON.stringify({ successful_rows: 0, quarantined_rows: 0, bytes }) };
  if (path.endsWith('/contacts/create') && method === 'POST') return { status: 200, body: JSON.stringify({ success: true, id: CONTACT.id }) };
  if (path.endsWith('/contacts/find')) return { status: 200, body: JSON.stringify([CONTACT]) };
  return { status: 404, body: JSON.stringify({ error: `no route ${method} ${path}` }) };
}

const server = createServer((req, res) => {
  let bytes = 0;
  req.on('data', (chunk: Buffer) => (bytes += chunk.length));
  req.on('end', () => {
    const path = (req.url ?? '/').split('?')[0]!;
    const { status, body } = answer(req.method ?? 'GET', path, bytes);
    res.writeHead(status, path.startsWith('/api/') ? LOOPS_HEADERS : JSON_HEADERS).end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
process.on('disconnect', () => server.close(() => process.exit(0)));
