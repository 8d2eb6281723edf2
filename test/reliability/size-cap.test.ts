/** The response-size cap when the length is declared: refused before reading, for text and binary alike. */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { executeTool } from '../../src/index.js';
import { watchUnhandled } from './canary.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const type = req.url?.includes('binary') ? 'application/octet-stream' : 'application/json';
    const body = Buffer.from(JSON.stringify({ meta: [], data: [{ pad: 'x'.repeat(2048) }], rows: 1, statistics: { elapsed: 0, rows_read: 0, bytes_read: 0 } }));
    res.writeHead(200, { 'content-type': type, 'content-length': String(body.length) }).end(body);
  });
  const serverAddress = await listenOnLoopback(server);
  base = serverAddress.origin;
});
const unhandled = watchUnhandled();
afterAll(async () => {
  unhandled.stop();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

it.each([
  ['JSON', '/json', 1024, false],
  ['binary', '/binary', 1024, false],
  ['JSON under the cap', '/json', 1024 * 1024, true],
  ['binary under the cap', '/binary', 1024 * 1024, true],
] as const)('%s', async (_, path, cap, ok) => {
  const params = { base_url: `${base}${path}`, token: 'p.cap-token', query: 'SELECT 1 FORMAT JSON' };
  const result = await executeTool('tinybird_query', params, { maxResponseBytes: cap });
  expect(result.meta.attempts).toBe(1);
  if (ok) return void expect(result.success).toBe(true);
  expect(result).toMatchObject({ success: false, error: { code: 'invalid_response', message: `the response body is larger than the ${cap}-byte limit`, retryable: false } });
});

it('a refused body leaves no unhandled error behind', async () => {
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(unhandled.seen).toEqual([]);
});
