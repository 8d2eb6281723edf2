/**
 * The lease's and the fenced state store's edges, against a real redis-server, in this
 * process (so the Redis mutation run sees them): who logs what and when, a renewal refused,
 * Redis away while waiting, reading or writing, a newer snapshot while one is being written,
 * and the outbox each commit hands over.
 */
import { Redis } from 'ioredis';
import { describe, expect, it, vi } from 'vitest';
import type { Delivery } from '../../src/satellites/notifications/queue.js';
import { monitorRedis } from '../../src/satellites/notifications/redis/client.js';
import { monitorKeys } from '../../src/satellites/notifications/redis/keys.js';
import { Lease, LeaseHeldError, RedisUnreachableError } from '../../src/satellites/notifications/redis/lease.js';
import { ACQUIRE, RENEW } from '../../src/satellites/notifications/redis/scripts.js';
import { RedisStateStore } from '../../src/satellites/notifications/redis/state-store.js';
import { initialRulesState } from '../../src/satellites/notifications/rule-engine.js';
import type { NotificationState } from '../../src/satellites/notifications/state.js';
import { until } from '../helpers/monitor-process.js';
import { leaseRedis } from './lease-redis.js';

const env = leaseRedis();

const keys = monitorKeys('https://platform.example.com', 'ws-lease-store');

function delivery(id: string, state: Delivery['state']): Delivery {
  return { id, target: 'hook', eventId: `evt-${id}`, workflowId: 'wf', executionId: `exec-${id}`, body: '{}', reasons: [], createdAt: 1, attempts: 0, nextAttemptAt: 1, state };
}

function doc(marker: string, deliveries: Delivery[] = []): NotificationState {
  return { version: 1, rules: { ...initialRulesState(0), since: 0 }, queue: { deliveries }, watermark: { startFrom: 0, newest: 0, seen: { [marker]: 1 }, running: {} } };
}

function monitor(leaseMs: number) {
  const lines: string[] = [];
  const redis = monitorRedis({ Redis }, env.server.url, 300);
  env.clients.push(redis);
  const options = { redis, keys, leaseMs, log: (line: string) => lines.push(line) };
  return {
    lines,
    redis,
    log: options.log,
    async take(signal = new AbortController().signal) {
      const lease = await Lease.acquire(options, signal);
      if (lease) env.leases.push(lease);
      return lease;
    },
  };
}

/** Redis down for `ms`, then back (same port, same data). */
async function outage(ms: number): Promise<void> {
  await env.server.kill();
  await new Promise((resolve) => setTimeout(resolve, ms));
  await env.server.start();
}

describe('lease', () => {
  it('ends a hold once, says why only when it ends against its will, and "released" on release', async () => {
    const m = monitor(5_000);
    const a = (await m.take())!;
    a.lose('first reason');
    a.lose('second reason');
    expect(m.lines).toEqual(['lease lost: first reason; no more polls or deliveries until it is taken again']);
    expect((a.lost.reason as Error).message).toBe('first reason');
    expect(a.valid()).toBe(false);
    // Still ours in Redis (a lost hold does not delete it): release deletes it, and says nothing more.
    expect(await env.raw.get(keys.lease)).toBe(a.owner);
    await a.release();
    expect(m.lines).toHaveLength(1);

    const n = monitor(5_000);
    const b = (await n.take())!;
    expect(b.token).toBe(2);
    await b.release();
    expect(n.lines).toEqual([]);
    expect((b.lost.reason as Error).message).toBe('released');
    expect(await env.raw.exists(keys.lease)).toBe(0);
  });

  it('stops its holder at the next renewal once another monitor holds the lease', async () => {
    const m = monitor(600);
    const a = (await m.take())!;
    // The lease expires under A (a pause past it) and B takes it before A renews.
    await env.raw.set(keys.lease, 'monitor-b', 'PX', 60_000);
    const started = performance.now();
    await until(() => a.lost.aborted, 2_000, 'A to notice at its renewal');
    // Renewals come every third of the lease; A's own deadline (600 ms) would say something else.
    expect(performance.now() - started).toBeLessThan(550);
    expect(m.lines).toEqual(['lease lost: another monitor took the lease (or it expired); no more polls or deliveries until it is taken again']);
    expect(await env.raw.get(keys.lease)).toBe('monitor-b');
  });

  it('refuses a renewal by the same owner with an old fencing token', async () => {
    const m = monitor(600);
    const a = (await m.take())!;
    await env.raw.incr(keys.fence); // someone else's acquisition counted since
    await until(() => a.lost.aborted, 2_000, 'A to notice at its renewal');
    expect(m.lines.at(-1)).toMatch(/^lease lost: another monitor took the lease/);
  });

  it('logs once that it waits for another holder, and takes the lease when that one releases it', async () => {
    const holder = (await monitor(400).take())!;
    const w = monitor(400);
    const waiting = w.take();
    // Several tries while the holder renews: one line.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(w.lines).toEqual(['another monitor holds the lease: waiting to take over']);
    await holder.release();
    const lease = await waiting;
    expect(lease?.token).toBe(2);
  });

  it('keeps trying while Redis is away when it waits for the lease: one line when it starts, one when it is over', async () => {
    const w = monitor(1_000);
    await env.server.kill();
    const waiting = w.take();
    await new Promise((resolve) => setTimeout(resolve, 400));
    await env.server.start();
    const lease = await waiting;
    expect(lease?.token).toBe(1);
    expect(w.lines).toHaveLength(2);
    expect(w.lines[0]).toMatch(/^Redis unreachable while waiting for the lease: .+; retrying$/);
    expect(w.lines[1]).toMatch(/^Redis unreachable while waiting for the lease: recovered after \d+\.\d s$/);
  });

  it('keeps its lease through a Redis outage shorter than the lease, retrying the renewal soon', async () => {
    const m = monitor(3_000);
    const a = (await m.take())!;
    // Renewals every second: down from just after the first to past the second.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await outage(1_200);
    await until(() => m.lines.length >= 2 || a.lost.aborted, 5_000, 'the renewal to get through again');
    expect(a.lost.aborted).toBe(false);
    expect(a.valid()).toBe(true);
    expect(m.lines[0]).toMatch(/^Redis unreachable: cannot renew the lease: .+; retrying$/);
    expect(m.lines[1]).toMatch(/^Redis unreachable: cannot renew the lease: recovered after/);
  });

  it('refuses at once, by name, when asked not to wait for another holder', async () => {
    await monitor(5_000).take();
    const redis = monitorRedis({ Redis }, env.server.url, 300);
    env.clients.push(redis);
    const error = await Lease.acquire({ redis, keys, leaseMs: 5_000, log: () => {} }, new AbortController().signal, { wait: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LeaseHeldError);
    expect(error).toMatchObject({ name: 'LeaseHeldError', message: 'another monitor holds the lease of this workspace' });
  });

  it('is not valid past its deadline even before the expiry timer has run', async () => {
    const m = monitor(600);
    const a = (await m.take())!;
    const tookAt = performance.now();
    await env.server.kill();
    try {
      // Block the event loop past the deadline: no timer can run, only the clock tells.
      while (performance.now() < tookAt + 700) {
        /* busy */
      }
      expect(a.lost.aborted).toBe(false);
      expect(a.valid()).toBe(false);
    } finally {
      await env.server.start();
    }
  });

  it('ends the hold with the lease time in its reason when no renewal gets through', async () => {
    const m = monitor(900);
    const a = (await m.take())!;
    await env.server.kill();
    try {
      await until(() => a.lost.aborted, 3_000, 'the lease to run out');
    } finally {
      await env.server.start();
    }
    expect(m.lines.at(-1)).toBe('lease lost: not renewed within the lease time (0.9 s); no more polls or deliveries until it is taken again');
  });
});

/** How many lease scripts Redis has run (EVAL/EVALSHA calls, failed ones included) since its last restart. */
async function scriptCalls(): Promise<number> {
  const info = await env.raw.info('commandstats');
  return [...info.matchAll(/^cmdstat_eval(?:sha)?:calls=(\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
}

/** Redis refuses every write (OOM) until the returned function is called; reads still work. */
async function writesRefused(): Promise<() => Promise<unknown>> {
  // Loaded beforehand: ioredis's EVALSHA-then-EVAL on a missing script would count one attempt twice.
  await env.raw.script('LOAD', ACQUIRE);
  await env.raw.script('LOAD', RENEW);
  await env.raw.config('SET', 'maxmemory', '1');
  return () => env.raw.config('SET', 'maxmemory', '0');
}

describe('lease acquisition and renewal timing', () => {
  it('--once on a Redis that answers with an error: gives up after one lease time naming that error, retrying every fifth of the lease, its error listener gone', async () => {
    const restore = await writesRefused();
    try {
      const m = monitor(1_000);
      const listeners = m.redis.listenerCount('error');
      const before = await scriptCalls();
      const error = await Lease.acquire({ redis: m.redis, keys, leaseMs: 1_000, log: m.log }, new AbortController().signal, { wait: false }).catch((e: unknown) => e);
      const attempts = (await scriptCalls()) - before;
      expect(error).toBeInstanceOf(RedisUnreachableError);
      expect(error).toMatchObject({ name: 'RedisUnreachableError', ms: 1_000 });
      // No socket error here: the last command's error is what the message names.
      expect((error as Error).message).toMatch(/^Redis unreachable for 1 s \(OOM command not allowed when used memory > 'maxmemory'\..*\)$/);
      expect(m.lines).toEqual([expect.stringMatching(/^Redis unreachable while waiting for the lease: OOM command not allowed.*; retrying$/)]);
      // A try every 200 ms (a fifth of the lease, under the 500 ms cap) within the second: 5, fewer on busy cores; a 500 ms pause gives 2 or 3.
      expect(attempts).toBeGreaterThanOrEqual(4);
      expect(attempts).toBeLessThanOrEqual(6);
      expect(m.redis.listenerCount('error')).toBe(listeners);
    } finally {
      await restore();
    }
  });

  it('--once stops at once, mid-pause, when its caller aborts while Redis refuses', async () => {
    const restore = await writesRefused();
    try {
      const m = monitor(10_000);
      const stop = new AbortController();
      const started = performance.now();
      const acquiring = Lease.acquire({ redis: m.redis, keys, leaseMs: 10_000, log: m.log }, stop.signal, { wait: false });
      setTimeout(() => stop.abort(), 100);
      expect(await acquiring).toBeUndefined();
      // The pause between tries is 500 ms here: the abort ends it.
      expect(performance.now() - started).toBeLessThan(350);
    } finally {
      await restore();
    }
  });

  it('tries again when the other holder\'s lease could have expired, and at least every fifth of the lease', async () => {
    await env.raw.script('LOAD', ACQUIRE);
    await env.raw.set(keys.lease, 'monitor-b', 'PX', 700);
    const w = monitor(1_000);
    const before = await scriptCalls();
    const started = performance.now();
    const lease = await w.take();
    const ms = performance.now() - started;
    const attempts = (await scriptCalls()) - before;
    expect(lease?.token).toBe(1);
    expect(ms).toBeGreaterThanOrEqual(650);
    expect(ms).toBeLessThan(1_500);
    // At 0, 200, 400, 600 (every fifth of 1 s), then right after the 700 ms time-to-live: 5 tries, fewer
    // when timers run late; waiting the whole time-to-live at once gives 2, trying before it ran out more.
    expect(attempts).toBeGreaterThanOrEqual(3);
    expect(attempts).toBeLessThanOrEqual(5);
    expect(w.lines).toEqual(['another monitor holds the lease: waiting to take over']);
  });

  it('retries a failed renewal every tenth of the lease', async () => {
    const m = monitor(900);
    const a = (await m.take())!;
    await env.raw.script('LOAD', RENEW);
    // The fencing token's key of the wrong type: every renewal fails with an error, and changes nothing.
    await env.raw.del(keys.fence);
    await env.raw.hset(keys.fence, 'token', '1');
    const before = await scriptCalls();
    await new Promise((resolve) => setTimeout(resolve, 750));
    const attempts = (await scriptCalls()) - before;
    // At 300 ms (a third of the lease), then every 90 ms: about 6 by 750 ms; a 250 ms retry gives 2 or 3.
    expect(attempts).toBeGreaterThanOrEqual(4);
    expect(m.lines).toEqual([expect.stringMatching(/^Redis unreachable: cannot renew the lease: WRONGTYPE .*; retrying$/)]);
    await until(() => a.lost.aborted, 2_000, 'the lease to run out');
  });

  it('does not renew a hold it has lost', async () => {
    const m = monitor(60_000);
    const a = (await m.take())!;
    await env.raw.pexpire(keys.lease, 30_000);
    a.lose('gone');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await env.raw.pttl(keys.lease)).toBeLessThanOrEqual(30_000);
  });

  it('is no longer valid at exactly the lease time after the acquisition was sent', async () => {
    const T = 1_000_000;
    const now = vi.spyOn(performance, 'now').mockReturnValue(T);
    try {
      const a = (await monitor(60_000).take())!;
      now.mockReturnValue(T + 60_000 - 1);
      expect(a.valid()).toBe(true);
      now.mockReturnValue(T + 60_000);
      expect(a.valid()).toBe(false);
    } finally {
      now.mockRestore();
    }
  });
});

describe('state store', () => {
  it('reads nothing, a document, or refuses a document that is not JSON', async () => {
    const m = monitor(5_000);
    const lease = (await m.take())!;
    expect(await RedisStateStore.read(m.redis, keys, lease, m.log)).toBeUndefined();
    await env.raw.set(keys.state, JSON.stringify(doc('x')));
    expect(await RedisStateStore.read(m.redis, keys, lease, m.log)).toEqual(doc('x'));
    await env.raw.set(keys.state, '{not json');
    await expect(RedisStateStore.read(m.redis, keys, lease, m.log)).rejects.toThrow(`the monitor state in Redis (${keys.state}) is not JSON: it was changed by something other than the monitor`);
    expect(m.lines).toEqual([]);
  });

  it('retries a read while Redis is away, and gives up when the lease is lost', async () => {
    const m = monitor(5_000);
    const lease = (await m.take())!;
    await env.raw.set(keys.state, JSON.stringify(doc('kept')));
    await env.server.kill();
    const reading = RedisStateStore.read(m.redis, keys, lease, m.log);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await env.server.start();
    expect(await reading).toEqual(doc('kept'));
    expect(m.lines[0]).toMatch(/^Redis unreachable: cannot read the state: .+; retrying$/);
    expect(m.lines[1]).toMatch(/^Redis unreachable: cannot read the state: recovered after/);

    lease.lose('gone');
    expect(await RedisStateStore.read(m.redis, keys, lease, m.log)).toBeUndefined();
  });

  it('load() gives a copy each time: a change to one does not reach the next', async () => {
    const m = monitor(5_000);
    const lease = (await m.take())!;
    const store = new RedisStateStore(m.redis, keys, lease, doc('loaded'), m.log);
    const first = store.load()!;
    first.watermark!.seen.changed = 2;
    expect(store.load()).toEqual(doc('loaded'));
    expect(new RedisStateStore(m.redis, keys, lease, undefined, m.log).load()).toBeUndefined();
  });

  it('writes the newest snapshot last, and hands each commit its pending deliveries as they were saved', async () => {
    const m = monitor(5_000);
    const lease = (await m.take())!;
    const store = new RedisStateStore(m.redis, keys, lease, undefined, m.log);
    const commits: Delivery[][] = [];
    store.onCommit = (outbox) => commits.push(outbox);
    const first = doc('first', [delivery('a', 'pending'), delivery('done', 'delivered')]);
    store.save(first);
    // A newer snapshot while the first is on its way: written after it, not lost.
    store.save(doc('second', [delivery('a', 'pending'), delivery('b', 'pending'), delivery('f', 'failed')]));
    first.queue.deliveries[0]!.body = 'changed after the save';
    await store.flush();
    expect(JSON.parse((await env.raw.get(keys.state))!)).toEqual(doc('second', [delivery('a', 'pending'), delivery('b', 'pending'), delivery('f', 'failed')]));
    expect(commits).toEqual([[delivery('a', 'pending')], [delivery('a', 'pending'), delivery('b', 'pending')]]);
  });

  it('refuses to write once the lease is lost, and writes nothing more', async () => {
    const m = monitor(5_000);
    const lease = (await m.take())!;
    const store = new RedisStateStore(m.redis, keys, lease, undefined, m.log);
    lease.lose('taken');
    store.save(doc('late'));
    await expect(store.flush()).rejects.toThrow('the lease was lost before the state could be written');
    store.save(doc('later'));
    await expect(store.flush()).rejects.toThrow('the lease was lost before the state could be written');
    expect(await env.raw.get(keys.state)).toBeNull();
  });

  it('waits for Redis to write a snapshot saved while it is away: one line when it starts, one when it is over', async () => {
    const m = monitor(10_000);
    const lease = (await m.take())!;
    const store = new RedisStateStore(m.redis, keys, lease, undefined, m.log);
    await env.server.kill();
    store.save(doc('while-away'));
    await new Promise((resolve) => setTimeout(resolve, 400));
    await env.server.start();
    await store.flush();
    expect(JSON.parse((await env.raw.get(keys.state))!)).toEqual(doc('while-away'));
    expect(m.lines.filter((l) => l.startsWith('Redis unreachable: the state waits to be written'))).toEqual([
      expect.stringMatching(/: .+; retrying$/),
      expect.stringMatching(/: recovered after \d+\.\d s$/),
    ]);
  });
});
