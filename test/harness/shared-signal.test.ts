import { getEventListeners } from 'node:events';
import { createServer } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { executeTool } from '../../src/index.js';
import { onAbort } from '../../src/harness/send/on-abort.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

const server = createServer((_req, res) => {
  // Answers later, so every call is in flight at once.
  setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [], meta: [], rows: 0, statistics: { elapsed: 0, rows_read: 0, bytes_read: 0 } })), 200);
});
let base = '';
beforeAll(async () => {
  const serverAddress = await listenOnLoopback(server);
  base = serverAddress.origin;
});
// undici keeps its connections alive, and the aborted calls leave answers pending: `close()`
// alone waits for those sockets (past the hook's 10 s when this file runs alone).
afterAll(() => {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(resolve));
});

it('one AbortSignal shared by 30 concurrent calls carries one listener and no MaxListenersExceededWarning', async () => {
  const warnings: string[] = [];
  const onWarning = (warning: Error) => void warnings.push(warning.name);
  process.on('warning', onWarning);
  try {
    const controller = new AbortController();
    const calls = Array.from({ length: 30 }, () =>
      executeTool('tinybird_query', { base_url: base, token: 't', query: 'SELECT 1 FORMAT JSON' }, { signal: controller.signal, pacer: false }),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(getEventListeners(controller.signal, 'abort').length).toBeLessThanOrEqual(1);
    const results = await Promise.all(calls);
    expect(results.every((r) => r.success)).toBe(true);
    // Done: nothing left listening.
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);

    // Aborting still ends every call in flight.
    const later = new AbortController();
    const pending = Array.from({ length: 15 }, () =>
      executeTool('tinybird_query', { base_url: base, token: 't', query: 'SELECT 1 FORMAT JSON' }, { signal: later.signal, pacer: false }),
    );
    setTimeout(() => later.abort(), 50);
    expect((await Promise.all(pending)).map((r) => (r.success ? 'ok' : r.error.code))).toEqual(Array(15).fill('aborted'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  } finally {
    process.off('warning', onWarning);
  }
});

it('onAbort: each registration runs once, and unsubscribing the last one removes the listener', () => {
  const controller = new AbortController();
  const ran: number[] = [];
  const off1 = onAbort(controller.signal, () => ran.push(1));
  onAbort(controller.signal, () => ran.push(2));
  expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
  off1();
  controller.abort();
  expect(ran).toEqual([2]);
  const other = new AbortController();
  const off = onAbort(other.signal, () => ran.push(3));
  off();
  expect(getEventListeners(other.signal, 'abort')).toHaveLength(0);
});
