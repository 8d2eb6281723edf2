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
/**
 * FORMAT JSON answers of about `bytes` bytes, for the response-size rows: rows of the kind a
 * query returns (ids, names, URLs, times, numbers), built once. A query asks for one with a
 * `size:<bytes>` comment; the rows are the same for flowblocks and the raw client.
 */
function sizedResult(bytes: number): string {
  const row = (i: number) => ({ id: i, user: `user_${i}`, path: `/docs/page/${i % 97}`, country: 'DE', at: '2026-11-22 10:00:00', duration_ms: (i * 7) % 1000, score: i / 3 });
  const data: unknown[] = [];
  let size = 200;
  for (let i = 0; size < bytes; i++) {
    const r = row(i);
    data.push(r);
    size += JSON.stringify(r).length + 1;
  }
  return JSON.stringify({
    meta: Object.keys(row(0)).map((name) => ({ name, type: 'String' })),
    data,
    rows: data.length,
    statistics: { elapsed: 0.001, rows_read: data.length, bytes_read: size },
  });
}
const SIZED = new Map<string, string>();
const SIZE_COMMENT = /size:(\d+)/;

const CONTACT = { id: 'cll6b3i8901a9jx0oyktl2m4u', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', source: 'api', subscribed: true, userGroup: '', userId: null, mailingLists: {}, optInStatus: null };

const FOUND = JSON.stringify([CONTACT]);
const SUCCESS = JSON.stringify({ success: true });

/** Loops reports its limit on every answer; this server has none, and says so with a large one. */
const LOOPS_HEADERS = { ...JSON_HEADERS, 'x-ratelimit-limit': '1000000', 'x-ratelimit-remaining': '999999' };

function answer(method: string, path: string, bytes: number, text?: string): { status: number; body: string } {
  if (path === '/v0/sql' && text !== undefined) {
    const size = SIZE_COMMENT.exec(decodeURIComponent(text))?.[1];
    if (size) {
      let body = SIZED.get(size);
      if (!body) SIZED.set(size, (body = sizedResult(Number(size))));
      return { status: 200, body };
    }
  }
  if (path === '/v0/sql' || path.startsWith('/v0/pipes/')) return { status: 200, body: SQL_RESULT };
  if (path === '/v0/events') return { status: 202, body: JSON.stringify({ successful_rows: 0, quarantined_rows: 0, bytes }) };
  if (path.endsWith('/contacts/create') && method === 'POST') return { status: 200, body: JSON.stringify({ success: true, id: CONTACT.id }) };
  if (path.endsWith('/contacts/find')) return { status: 200, body: FOUND };
  if (path.endsWith('/transactional') && method === 'POST') return { status: 200, body: SUCCESS };
  return { status: 404, body: JSON.stringify({ error: `no route ${method} ${path}` }) };
}

const server = createServer((req, res) => {
  let bytes = 0;
  const path = (req.url ?? '/').split('?')[0]!;
  // Only the Query API's body is read as text: it may ask for a sized answer.
  let text: string | undefined = path === '/v0/sql' ? '' : undefined;
  req.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (text !== undefined) text += chunk.toString('latin1');
  });
  req.on('end', () => {
    const { status, body } = answer(req.method ?? 'GET', path, bytes, text);
    res.writeHead(status, path.startsWith('/api/') ? LOOPS_HEADERS : JSON_HEADERS).end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
process.on('disconnect', () => server.close(() => process.exit(0)));
