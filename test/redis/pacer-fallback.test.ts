import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRedisPacer } from '../../src/redis/index.js';
import { until } from '../helpers/monitor-process.js';
import { startRedisServer, type RedisServer } from './redis-server.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

let server: RedisServer;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(() => server.stop());

const PASSWORD = 'canary-redis-password-7f3a';

it('falls back to an in-process pacer when Redis dies mid-run (one log line, no hang), and uses Redis again once it is back', async () => {
  const lines: string[] = [];
  // A password the server does not ask for: ioredis sends it, so it could end up in a message.
  const url = `redis://:${PASSWORD}@127.0.0.1:${server.port}`;
  const pacer = await createRedisPacer({ url, logger: (line) => lines.push(line), commandTimeoutMs: 300 });
  const spec = { key: 'loops:00000000000000a1', limit: 4, windowMs: 200 };
  expect(pacer.shared).toBe(true);

  let granted = 0;
  let killed: Promise<void> | undefined;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let i = 0; i < 10; i++) {
        const turn = await pacer.acquire(spec, undefined, 10_000);
        if (++granted === 12) killed = server.kill();
        turn.done({ status: 200, headers: {} });
      }
    }),
  );
  await killed;
  // 40 calls at 4 per 200 ms: about 2 s; a hang on Redis would be the test's own 60 s.
  expect(granted).toBe(40);
  expect(Date.now() - started).toBeLessThan(6_000);
  expect(pacer.shared).toBe(false);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^flowblocks: Redis at redis:\/\/127\.0\.0\.1:\d+ does not answer \(.+\); pacing falls back to this process alone/);

  await server.start();
  const back = { key: 'loops:00000000000000b2', limit: 100 };
  await until(
    async () => {
      (await pacer.acquire(back)).done({ status: 200, headers: {} });
      return pacer.shared;
    },
    10_000,
    'the pacer to use Redis again',
  );
  expect(lines).toHaveLength(2);
  expect(lines[1]).toMatch(/answers again; pacing is shared across processes again$/);
  (await pacer.acquire(back)).done({ status: 200, headers: {} });
  await pacer.close();
  expect(lines.join('\n')).not.toContain(PASSWORD);

  const { Redis } = await import('ioredis');
  const reader = new Redis(server.url, { maxRetriesPerRequest: 1 });
  expect((await reader.keys('flowblocks:pace:loops:*')).length).toBeGreaterThan(0);
  reader.disconnect();
});

it('does not hang on a server that accepts connections and never answers', async () => {
  const sockets: Socket[] = [];
  const silent: Server = createServer((socket) => sockets.push(socket));
  const silentAddress = await listenOnLoopback(silent);
  const port = silentAddress.port;
  const lines: string[] = [];
  try {
    const started = Date.now();
    const pacer = await createRedisPacer({ url: `redis://127.0.0.1:${port}`, logger: (line) => lines.push(line), commandTimeoutMs: 200 });
    const turns = await Promise.all([1, 2, 3].map(() => pacer.acquire({ key: 'loops:00000000000000c3', limit: 10 })));
    for (const turn of turns) turn.done();
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(pacer.shared).toBe(false);
    expect(lines).toEqual([expect.stringMatching(/does not answer \(no answer within 1000 ms\)/)]);
    await pacer.close();
  } finally {
    for (const socket of sockets) socket.destroy();
    silent.close();
  }
});
