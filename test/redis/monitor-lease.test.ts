/** The lease and its fencing token against a real redis-server: who may write, and when a holder stops. */
import { createServer, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { monitorRedis } from '../../src/satellites/notifications/redis/client.js';
import { monitorKeys } from '../../src/satellites/notifications/redis/keys.js';
import { BullDeliveries } from '../../src/satellites/notifications/redis/bull-deliveries.js';
import { Lease, LeaseHeldError, RedisUnreachableError } from '../../src/satellites/notifications/redis/lease.js';
import { loadRedisModules } from '../../src/satellites/notifications/redis/load.js';
import { RedisStateStore } from '../../src/satellites/notifications/redis/state-store.js';
import { initialRulesState } from '../../src/satellites/notifications/rule-engine.js';
import type { NotificationState } from '../../src/satellites/notifications/state.js';
import { leaseRedis } from './lease-redis.js';
import { freePort } from './redis-server.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

const env = leaseRedis();

const keys = monitorKeys('https://platform.example.com', 'ws-1');
const state = (marker: string): NotificationState => ({ version: 1, rules: { ...initialRulesState(0), since: 0 }, queue: { deliveries: [] }, watermark: { startFrom: 0, newest: marker.length, seen: { [marker]: 1 }, running: {} } });

function monitor(leaseMs: number, lines: string[] = []) {
  const redis = monitorRedis({ Redis }, env.server.url, 500);
  env.clients.push(redis);
  const options = { redis, keys, leaseMs, log: (line: string) => lines.push(line) };
  return {
    lines,
    redis,
    async take(wait = true, signal = new AbortController().signal) {
      const lease = await Lease.acquire(options, signal, { wait });
      if (lease) env.leases.push(lease);
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
    expect(await env.raw.get(keys.lease)).toBe(b?.owner);
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
      const ttl = await env.raw.pttl(keys.lease);
      if (ttl > last) renewals++;
      last = ttl;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(takenAt).toBe(0);
    expect(a.valid()).toBe(true);
    // The holder dies: it stops renewing, the lease stays in Redis until it expires.
    a.lose(undefined);
    const diedAt = performance.now();
    const ttlAtDeath = await env.raw.pttl(keys.lease);
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
    await env.server.kill();
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
      await env.server.start();
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
    const storeA = new RedisStateStore(env.clients[0]!, keys, a, undefined, (l) => linesA.push(l));
    storeA.save(state('from-a'));
    await storeA.flush();
    expect(await env.raw.get(keys.state)).toContain('from-a');

    // A is paused past its lease (here: the lease expires under it); B takes it over.
    await env.raw.del(keys.lease);
    const b = (await monitor(30_000).take())!;
    const storeB = new RedisStateStore(env.clients[1]!, keys, b, undefined, () => {});
    storeB.save(state('from-b'));
    await storeB.flush();

    // A wakes up, still believing its lease valid, and writes: refused in Redis, and A stops.
    expect(a.valid()).toBe(true);
    storeA.save(state('stale-a'));
    await expect(storeA.flush()).rejects.toThrow(/fencing token refused/);
    expect(a.lost.aborted).toBe(true);
    expect(linesA.at(-1)).toMatch(/^lease lost: a write was refused/);
    expect(await env.raw.get(keys.state)).toContain('from-b');
    // The script itself, called with the old token.
    expect(await env.clients[0]!.fencedSet(keys.fence, keys.state, a.token, '"stale"')).toBe(0);
    expect(await env.raw.get(keys.state)).toContain('from-b');
    // Nor can the old holder renew or release B's lease.
    await a.release();
    expect(await env.raw.get(keys.lease)).toBe(b.owner);
  });
});

describe('an unreachable Redis', () => {
  const LEASE = 1_000;
  /** Lease.acquire's outcome, or 'still trying' after `ms` (the old code waited forever without waiting). */
  function within(ms: number, acquiring: Promise<Lease | undefined>) {
    const started = performance.now();
    return Promise.race([acquiring.catch((error: unknown) => error), new Promise((resolve) => setTimeout(() => resolve('still trying'), ms))]).then((outcome) => ({
      outcome,
      ms: performance.now() - started,
    }));
  }
  function client(url: string, lines: string[]) {
    const redis = monitorRedis({ Redis }, url, 500);
    env.clients.push(redis);
    return { redis, keys, leaseMs: LEASE, log: (line: string) => lines.push(line) };
  }

  it('--once (wait: false) gives up after one lease time; a long-running monitor keeps trying', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const lines: string[] = [];
    const { outcome, ms } = await within(5_000, Lease.acquire(client(url, lines), new AbortController().signal, { wait: false }));
    expect(outcome).toBeInstanceOf(RedisUnreachableError);
    expect((outcome as Error).name).toBe('RedisUnreachableError');
    expect((outcome as Error).message).toMatch(/^Redis unreachable for 1 s \(connect ECONNREFUSED 127\.0\.0\.1:\d+\)$/);
    expect(ms).toBeGreaterThanOrEqual(LEASE - 20);
    expect(ms).toBeLessThan(LEASE + 1_000); // one retry pause (200 ms) and timer latency on busy cores
    expect(lines).toEqual(['Redis unreachable while waiting for the lease: Connection is closed.; retrying']);

    const stop = new AbortController();
    const waiting = Lease.acquire(client(url, []), stop.signal);
    expect((await within(3 * LEASE, waiting)).outcome).toBe('still trying');
    stop.abort();
    expect(await waiting).toBeUndefined();
  });

  it('--once gives up after one lease time on a Redis that accepts the connection and never answers', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    const { port } = await listenOnLoopback(silent);
    try {
      const url = `redis://127.0.0.1:${port}`;
      const lines: string[] = [];
      const { outcome, ms } = await within(5_000, Lease.acquire(client(url, lines), new AbortController().signal, { wait: false }));
      expect(outcome).toBeInstanceOf(RedisUnreachableError);
      // Neither a socket error nor a command's: the attempt the deadline ended is no error to report.
      expect(outcome).toMatchObject({ name: 'RedisUnreachableError', message: 'Redis unreachable for 1 s (no answer)' });
      expect(lines).toEqual([]);
      expect(ms).toBeLessThan(LEASE + 1_000);
    } finally {
      env.clients.splice(0).forEach((c) => c.disconnect());
      sockets.forEach((s) => s.destroy());
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe('Redis gone after the lease was taken (--once)', () => {
  it('ends the BullMQ hand-over and deliverDue with the lease, though BullMQ\'s connection waits for Redis for ever', async () => {
    const LEASE = 1_500;
    const modules = await loadRedisModules();
    const lines: string[] = [];
    const lease = (await monitor(LEASE, lines).take(false))!;
    // As the backend makes it: BullMQ's commands wait for Redis rather than fail.
    const connection = new Redis(env.server.url, { maxRetriesPerRequest: null, retryStrategy: (times) => Math.min(times * 100, 1_000) });
    connection.on('error', () => {});
    await env.server.kill();
    try {
      const delivery = { id: 'dlv_1', target: 't', eventId: 'e', workflowId: 'w', executionId: 'x', body: '{}', reasons: [], createdAt: 0, attempts: 0, nextAttemptAt: 0, state: 'pending' as const };
      const notifier = { state: { queue: { deliveries: [delivery] } }, save() {}, targetMap: new Map() };
      const store = { onCommit: undefined, flush: () => Promise.resolve() };
      const started = performance.now();
      // The pending delivery is handed over at once (addBulk); deliverDue waits for it, then counts the jobs.
      const deliveries = new BullDeliveries({ bullmq: modules.bullmq, connection, keys, lease, store: store as never, notifier: notifier as never, leaseMs: LEASE, log: (l) => lines.push(l) });
      const outcome = await Promise.race([deliveries.deliverDue(), new Promise((resolve) => setTimeout(() => resolve('still waiting'), 4 * LEASE))]);
      expect(outcome).toBe(0);
      expect(lease.lost.aborted).toBe(true);
      expect(performance.now() - started).toBeLessThan(LEASE + 1_000);
      expect(notifier.state.queue.deliveries).toHaveLength(1); // still in the outbox, for the next holder
    } finally {
      connection.disconnect();
      await env.server.start();
    }
  });
});
