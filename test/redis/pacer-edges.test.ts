/**
 * The Redis pacer's edges, against a real redis-server: the keys it derives (a key that is a
 * secret never reaches Redis), a signal aborted before or while Redis answers, a turn ended
 * twice, its defaults (window, lease, prefix, fallback), the hand-over of waiting calls to the
 * fallback with what is left of their budgets, and the link's up/down rules.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ToolFailure } from '../../src/harness/errors.js';
import type { PacerLike, PacerTurn, PacingSpec } from '../../src/harness/types.js';
import { createRedisPacer, type RedisPacer, type RedisPacerOptions } from '../../src/redis/index.js';
import { RedisLink } from '../../src/redis/redis-link.js';
import { until } from '../helpers/monitor-process.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

let server: RedisServer;
let raw: Redis;
const opened: RedisPacer[] = [];
beforeAll(async () => {
  server = await startRedisServer();
  raw = new Redis(server.url, { maxRetriesPerRequest: 1 });
  raw.on('error', () => {}); // Redis is killed on purpose below
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((p) => p.close()));
});
afterAll(async () => {
  raw.disconnect();
  await server.stop();
});

async function worker(options: Partial<RedisPacerOptions> = {}): Promise<RedisPacer> {
  const pacer = await createRedisPacer({ url: server.url, logger: () => {}, ...options });
  opened.push(pacer);
  return pacer;
}

const freshKey = () => `loops:${randomBytes(8).toString('hex')}`;
const digestOf = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 32);
const ok = { status: 200, headers: {} };

/** A fallback that records what it is asked and grants at once. */
function recordingFallback() {
  const asked: { spec: PacingSpec; signal: AbortSignal | undefined; maxWaitMs: number | undefined }[] = [];
  const fallback: PacerLike = {
    acquire(spec, signal, maxWaitMs) {
      asked.push({ spec, signal, maxWaitMs });
      return Promise.resolve<PacerTurn>({ done: () => {} });
    },
  };
  return { asked, fallback };
}

describe('Redis pacer keys', () => {
  it('keeps the service name of a connection key readable, and hashes the rest into one hash tag', async () => {
    const pacer = await worker();
    const key = `loops:${'ab12'.repeat(8)}`;
    const turn = await pacer.acquire({ key, limit: 5 });
    turn.done(ok);
    await pacer.close();
    const base = `flowblocks:pace:loops:{${digestOf(key)}}`;
    // (The flight set is gone: its only member left when the turn ended.)
    expect((await raw.keys(`*${digestOf(key)}*`)).sort()).toEqual([`${base}:state`, `${base}:used`]);
  });

  it('puts nothing of a key that is not in the service form into Redis: a secret given as key stays out', async () => {
    const pacer = await worker({ keyPrefix: 'app:pace:' });
    const secret = 'sk_live_Secret+/=:@"é-canary';
    for (const key of [secret, `loops:${secret}`, 'Loops:0123456789abcdef']) {
      const turn = await pacer.acquire({ key, limit: 5 });
      turn.done(ok);
    }
    await pacer.close();
    const keys = (await raw.keys('app:pace:*')).sort();
    const bases = [secret, `loops:${secret}`, 'Loops:0123456789abcdef'].map((k) => `app:pace:{${digestOf(k)}}`);
    expect(keys).toEqual(bases.flatMap((b) => [`${b}:state`, `${b}:used`]).sort());
    for (const part of ['canary', 'Secret', 'Loops']) expect(await raw.keys(`*${part}*`)).toEqual([]);
  });
});

describe('Redis pacer turns', () => {
  it('refuses a call whose signal is already aborted, and takes no slot for it', async () => {
    const pacer = await worker();
    const spec = { key: freshKey(), limit: 1 };
    const aborted = AbortSignal.abort(new Error('stopped before'));
    await expect(pacer.acquire(spec, aborted)).rejects.toThrow('stopped before');
    // The only slot is still free.
    (await pacer.acquire(spec, undefined, 100)).done(ok);
  });

  it('gives the slot back when its caller left while Redis answered', async () => {
    const pacer = await worker();
    const spec = { key: freshKey(), limit: 1 };
    const controller = new AbortController();
    const leaving = pacer.acquire(spec, controller.signal);
    controller.abort(new Error('left'));
    await expect(leaving).rejects.toThrow('left');
    // Granted in Redis to nobody, then handed back: the next call gets it at once.
    await until(async () => (await raw.zcard(`flowblocks:pace:loops:{${digestOf(spec.key)}}:flight`)) === 0, 2_000, 'the slot handed back');
    (await pacer.acquire(spec, undefined, 100)).done(ok);
  });

  it('counts a turn ended twice once', async () => {
    const pacer = await worker();
    const spec = { key: freshKey(), limit: 5 };
    const turn = await pacer.acquire(spec);
    turn.done(ok);
    turn.done(ok);
    turn.done({ status: 429, headers: { 'retry-after': '60' } });
    await pacer.close();
    const state = await raw.hgetall(`flowblocks:pace:loops:{${digestOf(spec.key)}}:state`);
    expect(state.used).toBe('1');
    expect(state.blocked).toBe('0');
  });

  it('uses a window of one second and a lease of one minute unless told', async () => {
    const pacer = await worker();
    const spec = { key: freshKey(), limit: 1 };
    const turn = await pacer.acquire(spec);
    const flight = `flowblocks:pace:loops:{${digestOf(spec.key)}}:flight`;
    const ttl = await raw.pttl(flight);
    // A lease of 60 s plus a window of 1 s.
    expect(ttl).toBeGreaterThan(55_000);
    expect(ttl).toBeLessThanOrEqual(61_000);
    const [, expires] = await raw.zrange(flight, 0, -1, 'WITHSCORES');
    const [seconds] = await raw.time();
    expect(Number(expires) - Number(seconds) * 1000).toBeGreaterThan(55_000);
    turn.done(ok);
    await until(async () => (await raw.zcard(flight)) === 0, 2_000, 'the turn done');
    const error = ((await pacer.acquire(spec, undefined, 100).catch((e: unknown) => e)) as ToolFailure).error;
    expect(error.code).toBe('rate_limited');
    expect(error.retryAfterMs).toBeGreaterThan(800);
    expect(error.retryAfterMs).toBeLessThanOrEqual(1_000);
  });
});

describe('Redis pacer waits', () => {
  it('lets a new call of a key be refused at once after every waiter of it left (the sleeping turn is woken, not waited out)', async () => {
    const pacer = await worker();
    const spec = { key: freshKey(), limit: 1, windowMs: 4_000 };
    (await pacer.acquire(spec)).done(ok);
    const controller = new AbortController();
    const waiting = pacer.acquire(spec, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 100)); // asleep until the slot frees, about 4 s
    controller.abort(new Error('left'));
    await expect(waiting).rejects.toThrow('left');
    const started = performance.now();
    const error = ((await pacer.acquire(spec, undefined, 100).catch((e: unknown) => e)) as ToolFailure).error;
    expect(error.code).toBe('rate_limited');
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it('lets a new call of a key be refused at once after the last waiter was refused for its budget', async () => {
    const pacer = await worker();
    const spec = { key: freshKey(), limit: 1, windowMs: 4_000 };
    (await pacer.acquire(spec)).done(ok);
    await expect(pacer.acquire(spec, undefined, 100)).rejects.toBeInstanceOf(ToolFailure);
    const started = performance.now();
    await expect(pacer.acquire(spec, undefined, 100)).rejects.toBeInstanceOf(ToolFailure);
    expect(performance.now() - started).toBeLessThan(1_500);
  });
});

describe('Redis pacer fallback', () => {
  it('hands waiting calls to the fallback it was given, with what is left of their budgets, when Redis goes away', async () => {
    const { asked, fallback } = recordingFallback();
    const pacer = await worker({ fallback, commandTimeoutMs: 300 });
    const spec = { key: freshKey(), limit: 1, windowMs: 800 };
    (await pacer.acquire(spec)).done(ok);
    const signal = new AbortController().signal;
    const started = performance.now();
    const waiting = pacer.acquire(spec, signal, 5_000);
    // The waiting call sleeps until the slot frees; Redis goes away meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await server.kill();
    try {
      await waiting;
      const waited = performance.now() - started;
      expect(asked).toHaveLength(1);
      expect(asked[0]!.spec).toBe(spec);
      expect(asked[0]!.signal).toBe(signal);
      expect(asked[0]!.maxWaitMs).toBeLessThanOrEqual(5_000 - waited + 50);
      expect(asked[0]!.maxWaitMs).toBeGreaterThan(3_000);
      // Down now: the next call goes straight to the fallback, with its own budget.
      expect(pacer.shared).toBe(false);
      await pacer.acquire(spec, undefined, 1_234);
      expect(asked[1]?.maxWaitMs).toBe(1_234);
    } finally {
      await server.start();
    }
  });

  it('tries Redis again at once when the connection is back, however long retryMs is', async () => {
    const { asked, fallback } = recordingFallback();
    const lines: string[] = [];
    const pacer = await worker({ fallback, retryMs: 600_000, commandTimeoutMs: 300, logger: (l) => lines.push(l) });
    const spec = { key: freshKey(), limit: 10 };
    await server.kill();
    try {
      await pacer.acquire(spec);
      await until(() => asked.length === 1, 2_000, 'the fallback');
    } finally {
      await server.start();
    }
    await until(() => pacer.client.status === 'ready', 10_000, 'the connection back');
    (await pacer.acquire(spec)).done(ok);
    expect(asked).toHaveLength(1);
    expect(pacer.shared).toBe(true);
    expect(lines).toEqual([expect.stringMatching(/does not answer/), expect.stringMatching(/answers again/)]);
  });

  it("goes to the fallback once closed, even on a caller's client that is still open", async () => {
    const { asked, fallback } = recordingFallback();
    const client = new Redis(server.url, { enableOfflineQueue: false });
    try {
      const pacer = await createRedisPacer({ client, fallback, logger: () => {} });
      await pacer.close();
      await pacer.acquire({ key: freshKey(), limit: 1 });
      expect(asked).toHaveLength(1);
      expect(await client.ping()).toBe('PONG');
    } finally {
      client.disconnect();
    }
  });

  it("falls back at once on a caller's client that queues commands while Redis is away, naming the connection's state", async () => {
    const { asked, fallback } = recordingFallback();
    const lines: string[] = [];
    const client = new Redis(server.url); // ioredis' defaults: an offline queue
    client.on('error', () => {});
    try {
      const pacer = await createRedisPacer({ client, fallback, commandTimeoutMs: 3_000, logger: (l) => lines.push(l) });
      expect(client.listenerCount('error')).toBe(1); // the caller's own: the pacer adds none to a client it does not own
      await server.kill();
      try {
        await until(() => client.status !== 'ready', 2_000, 'the client to notice');
        const started = performance.now();
        await pacer.acquire({ key: freshKey(), limit: 1 });
        expect(performance.now() - started).toBeLessThan(1_500); // not the 3 s command limit
        expect(asked).toHaveLength(1);
        expect(lines).toEqual([expect.stringMatching(new RegExp(`^flowblocks: Redis at 127\\.0\\.0\\.1:${server.port} does not answer \\(connection (connecting|reconnecting|close)\\)`))]);
      } finally {
        await server.start();
      }
      await pacer.close();
    } finally {
      client.disconnect();
    }
  });

  it('takes a caller\'s client that is connecting without waiting out the connection limit', async () => {
    const client = new Redis(server.url, { enableOfflineQueue: false });
    try {
      const started = performance.now();
      const pacer = await createRedisPacer({ client, commandTimeoutMs: 3_000, logger: () => {} });
      expect(performance.now() - started).toBeLessThan(1_500);
      expect(pacer.shared).toBe(true);
      await pacer.close();
      // Connected already: taken at once too.
      const again = performance.now();
      await (await createRedisPacer({ client, commandTimeoutMs: 3_000, logger: () => {} })).close();
      expect(performance.now() - again).toBeLessThan(1_500);
    } finally {
      client.disconnect();
    }
  });

  it('needs a URL or a client; says so on console.warn by default; 500 ms per command by default', async () => {
    await expect(createRedisPacer({})).rejects.toThrow('createRedisPacer needs url or client');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const pacer = await createRedisPacer({ url: 'redis://:pw-canary@127.0.0.1:1' });
      expect(pacer.client.options.commandTimeout).toBe(500);
      (await pacer.acquire({ key: freshKey(), limit: 1 })).done(ok);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]![0])).toMatch(/^flowblocks: Redis at redis:\/\/127\.0\.0\.1:1 does not answer/);
      await new Promise((resolve) => setTimeout(resolve, 300)); // reconnection attempts fail meanwhile
      await pacer.close();
      // Its own client's errors are heard (ioredis prints unheard ones on console.error).
      expect(error).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
      error.mockRestore();
    }
  });

  it('goes to the fallback once closed, and closes once', async () => {
    const { asked, fallback } = recordingFallback();
    const pacer = await createRedisPacer({ url: server.url, fallback, logger: () => {} });
    await pacer.close();
    await pacer.close();
    expect(pacer.shared).toBe(false);
    await pacer.acquire({ key: freshKey(), limit: 1 });
    expect(asked).toHaveLength(1);
    // The connection it opened is closed.
    await until(() => pacer.client.status === 'end', 2_000, 'the connection closed');
  });
});

describe('Redis link', () => {
  it('masks the URL password in what it logs, written and decoded, and logs a fall and a return once each', async () => {
    const client = new Redis(server.url, { enableOfflineQueue: false });
    const lines: string[] = [];
    const link = new RedisLink(client, 'redis://127.0.0.1', ['p%40ss', 'p@ss'], false, { logger: (l) => lines.push(l) });
    try {
      await link.connect();
      expect(link.up).toBe(true);
      await expect(link.run(() => Promise.reject(new Error('auth p@ss and p%40ss refused')))).rejects.toThrow();
      await expect(link.run(() => Promise.reject(new Error('again')))).rejects.toThrow();
      expect(link.up).toBe(false);
      // Down: not tried again before retryMs (1 s by default).
      expect(link.usable()).toBe(false);
      // Tried again once retryMs has passed, on the ready connection.
      await until(() => link.usable(), 3_000, 'retryMs to pass');
      expect(await link.run(() => client.ping())).toBe('PONG');
      expect(link.up).toBe(true);
      expect(link.usable()).toBe(true);
      expect(lines).toEqual([
        'flowblocks: Redis at redis://127.0.0.1 does not answer (auth *** and *** refused); pacing falls back to this process alone until it does',
        'flowblocks: Redis at redis://127.0.0.1 answers again; pacing is shared across processes again',
      ]);
      // A command that never answers is bounded by the time limit.
      const started = performance.now();
      await expect(link.run(() => new Promise(() => {}), 150)).rejects.toThrow('no answer within 150 ms');
      expect(performance.now() - started).toBeLessThan(1_000);
      await link.close();
      expect(link.up).toBe(false);
      expect(link.usable()).toBe(false);
      expect(await client.ping()).toBe('PONG'); // the caller's client stays open
    } finally {
      client.disconnect();
    }
  });
});
