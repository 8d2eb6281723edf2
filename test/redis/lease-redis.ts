/** One redis-server per test file for the lease tests, and the clients and leases they open, cleaned up after each test. */
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { MonitorRedis } from '../../src/satellites/notifications/redis/client.js';
import type { Lease } from '../../src/satellites/notifications/redis/lease.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

export interface LeaseRedis {
  server: RedisServer;
  /** A plain client to look at and change what is in Redis. */
  raw: Redis;
  /** Disconnected after each test. */
  clients: MonitorRedis[];
  /** Released after each test. */
  leases: Lease[];
}

export function leaseRedis(): LeaseRedis {
  const env = { clients: [], leases: [] } as unknown as LeaseRedis;
  beforeAll(async () => {
    env.server = await startRedisServer();
    env.raw = new Redis(env.server.url, { maxRetriesPerRequest: 1 });
    env.raw.on('error', () => {}); // Redis is killed on purpose in some tests
  });
  afterEach(async () => {
    await Promise.all(env.leases.splice(0).map((l) => l.release()));
    env.clients.splice(0).forEach((c) => c.disconnect());
    await env.raw.flushall();
  });
  afterAll(async () => {
    env.raw.disconnect();
    await env.server.stop();
  });
  return env;
}
