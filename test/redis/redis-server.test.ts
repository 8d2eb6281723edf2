import { afterAll, beforeAll, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { startRedisServer, type RedisServer } from './redis-server.js';

let server: RedisServer;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(() => server.stop());

it('runs a real redis-server that keeps its data across a SIGKILL and restart', async () => {
  const client = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await client.connect();
  expect(await client.info('server')).toMatch(/redis_version:\d+/);
  await client.set('flowblocks:probe', '1');
  client.disconnect();
  await server.kill();
  await server.start();
  const again = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await again.connect();
  expect(await again.get('flowblocks:probe')).toBe('1');
  again.disconnect();
});
