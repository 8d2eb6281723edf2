import { createServer, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSharedDispatcher, sharedDispatcher } from '../../src/harness/send/dispatcher.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

/** The shared Agent's promises that a caller can see: a bounded number of sockets per origin, and a close that is safe to repeat. */
describe('the shared dispatcher (src/harness/send/dispatcher.ts)', () => {
  const LIMIT = 128;
  const ports = new Set<number>();
  const held: ServerResponse[] = [];
  let open = 0;
  let mostOpen = 0;
  let released = false;
  const server = createServer((req, res) => {
    ports.add(req.socket.remotePort!);
    open++;
    mostOpen = Math.max(mostOpen, open);
    res.on('finish', () => open--);
    // Hold every request until as many as the Agent may send at once are open, then answer them all.
    if (released) return void res.end('ok');
    held.push(res);
    if (held.length === LIMIT) {
      released = true;
      for (const r of held.splice(0)) r.end('ok');
    }
  });
  let origin = '';
  beforeAll(async () => {
    server.keepAliveTimeout = 60_000;
    const serverAddress = await listenOnLoopback(server);
    origin = serverAddress.origin;
  });
  afterAll(async () => {
    await closeSharedDispatcher();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it(`opens at most ${LIMIT} connections to one origin: a burst past it waits for a free socket`, async () => {
    const dispatcher = await sharedDispatcher();
    const burst = Array.from({ length: LIMIT + 2 }, (_, i) =>
      dispatcher.request({ origin, path: `/r${i}`, method: 'GET' }).then(async (res) => {
        await res.body.text();
        return res.statusCode;
      }),
    );
    expect(await Promise.all(burst)).toEqual(Array(LIMIT + 2).fill(200));
    // The two past the limit went out on sockets the first answers freed, never on sockets of their own.
    expect(mostOpen).toBe(LIMIT);
    expect(ports.size).toBe(LIMIT);
  });

  it('closes safely when there is nothing to close, and twice in a row', async () => {
    await closeSharedDispatcher();
    await expect(closeSharedDispatcher()).resolves.toBeUndefined();
  });

  it('closes the Agent it handed out: a later call gets a new one, the old one refuses work', async () => {
    const before = await sharedDispatcher();
    await closeSharedDispatcher();
    await expect(before.request({ origin, path: '/late', method: 'GET' })).rejects.toThrow(/closed|destroyed/i);
    const after = await sharedDispatcher();
    expect(after).not.toBe(before);
    const res = await after.request({ origin, path: '/again', method: 'GET' });
    expect(res.statusCode).toBe(200);
    await res.body.text();
  });
});
