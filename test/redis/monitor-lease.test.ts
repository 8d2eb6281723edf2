/** The lease and its fencing token against a real redis-server: who may write, and when a holder stops. */
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { monitorRedis, type MonitorRedis } from '../../src/notifications/redis/client.js';
import { monitorKeys } from '../../src/notifications/redis/keys.js';
import { Lease, LeaseHeldError } from '../../src/notifications/redis/lease.js';
import { RedisStateStore } from '../../src/notifications/redis/state-store.js';
import { initialRulesState } from '../../src/notifications/rule-engine.js';
import type { NotificationState } from '../../src/notifications/state.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

let server: RedisServer;
let raw: Redis;
const clients: MonitorRedis[] = [];
const leases: Lease[] = [];
beforeAll(async () => {
  server = await startRedisServer();
  raw = new Redis(server.url, { maxRetriesPerRequest: 1 });
  raw.on('error', () => {}); // Redis is killed on purpose below
});
afterEach(async () => {
  await Promise.all(leases.splice(0).map((l) => l.release()));
  clients.splice(0).forEach((c) => c.disconnect());
  await raw.flushall();
});
afterAll(async () => {
  raw.disconnect();
  await server.stop();
});

const keys = monitorKeys('https://platform.example.com', 'ws-1');
const state = (marker: string): NotificationState => ({ version: 1, rules: { ...initialRulesState(0), since: 0 }, queue: { deliveries: [] }, watermark: { startFrom: 0, newest: marker.length, seen: { [marker]: 1 }, running: {} } });

function monitor(leaseMs: number, lines: string[] = []) {
  const redis = monitorRedis({ Redis }, server.url, 500);
  clients.push(redis);
  const options = { redis, keys, leaseMs, log: (line: string) => lines.push(line) };
  return {
    lines,
    redis,
    async take(wait = true, signal = new AbortController().signal) {
      const lease = await Lease.acquire(options, signal, { wait });
      if (lease) leases.push(lease);
      return lease;
    },
  };
}

describe('lease', () => {
  it('has one holder; each acquisition gets a new fencing token', async () => {
    const a = await monitor(5_000).take();
    expect(a?.token).toBe(1);
    await expect(monitor(5_000).take(false)).rejects.toBeInstanceOf(LeaseHeldError);
    const stop = new AbortController();
    const waiting = monitor(5_000).take(true, stop.signal);
    stop.abort();
    expect(await waiting).toBeUndefined();
    await a?.release();
    const b = await monitor(5_000).take(false);
    expect(b?.token).toBe(2);
    expect(await raw.get(keys.lease)).toBe(b?.owner);
  });

  it('is renewed while its holder lives, and taken over within the lease time once it stops', async () => {
    const LEASE = 1_000;
    const a = (await monitor(LEASE).take())!;
    const waiter = monitor(LEASE);
    let takenAt = 0;
    const b = waiter.take().then((lease) => {
      takenAt = performance.now();
      return lease;
    });
    // Three renewals seen in Redis (the TTL going back up), and the waiter still waiting.
    let renewals = 0;
    let last = LEASE;
    while (renewals < 3) {
      const ttl = await raw.pttl(keys.lease);
      if (ttl > last) renewals++;
      last = ttl;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(takenAt).toBe(0);
    expect(a.valid()).toBe(true);
    // The holder dies: it stops renewing, the lease stays in Redis until it expires.
    a.lose(undefined);
    const diedAt = performance.now();
    const ttlAtDeath = await raw.pttl(keys.lease);
    const lease = await b;
    const takeoverMs = takenAt - diedAt;
    expect(lease?.token).toBe(2);
    expect(takeoverMs).toBeGreaterThanOrEqual(ttlAtDeath - 50);
    expect(takeoverMs).toBeLessThanOrEqual(LEASE + 250); // the waiter tries 10 ms after the TTL; the rest is timer latency
  });

  it('stops its holder once it could have expired when Redis cannot be reached to renew it', async () => {
    const LEASE = 1_500;
    const lines: string[] = [];
    const a = (await monitor(LEASE, lines).take())!;
    const tookAt = performance.now();
    await server.kill();
    try {
      // valid() is what every poll, write and delivery checks: watch it turn false.
      let lastValidAt = tookAt;
      while (!a.lost.aborted) {
        const at = performance.now();
        if (a.valid()) lastValidAt = at;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(a.valid()).toBe(false);
      // Never valid later than the lease after the acquisition was sent (no renewal got through).
      expect(lastValidAt - tookAt).toBeLessThanOrEqual(LEASE);
      expect(lastValidAt - tookAt).toBeGreaterThanOrEqual(LEASE / 2);
      expect(lines.filter((l) => l.startsWith('Redis unreachable: cannot renew the lease'))).toHaveLength(1);
      expect(lines.at(-1)).toMatch(/^lease lost: not renewed within the lease time/);
    } finally {
      await server.start();
    }
    // After the restart the lease has expired (its expiry is absolute in the append-only file): another takes it.
    const b = await monitor(LEASE).take();
    expect(b?.token).toBe(2);
  });
});

describe('fencing token', () => {
  it('refuses the writes of a holder whose lease another monitor has taken, and stops it', async () => {
    const linesA: string[] = [];
    const a = (await monitor(30_000, linesA).take())!;
    const storeA = new RedisStateStore(clients[0]!, keys, a, undefined, (l) => linesA.push(l));
    storeA.save(state('from-a'));
    await storeA.flush();
    expect(await raw.get(keys.state)).toContain('from-a');

    // A is paused past its lease (here: the lease expires under it); B takes it over.
    await raw.del(keys.lease);
    const b = (await monitor(30_000).take())!;
    const storeB = new RedisStateStore(clients[1]!, keys, b, undefined, () => {});
    storeB.save(state('from-b'));
    await storeB.flush();

    // A wakes up, still believing its lease valid, and writes: refused in Redis, and A stops.
    expect(a.valid()).toBe(true);
    storeA.save(state('stale-a'));
    await expect(storeA.flush()).rejects.toThrow(/fencing token refused/);
    expect(a.lost.aborted).toBe(true);
    expect(linesA.at(-1)).toMatch(/^lease lost: a write was refused/);
    expect(await raw.get(keys.state)).toContain('from-b');
    // The script itself, called with the old token.
    expect(await clients[0]!.fencedSet(keys.fence, keys.state, a.token, '"stale"')).toBe(0);
    expect(await raw.get(keys.state)).toContain('from-b');
    // Nor can the old holder renew or release B's lease.
    await a.release();
    expect(await raw.get(keys.lease)).toBe(b.owner);
  });
});
