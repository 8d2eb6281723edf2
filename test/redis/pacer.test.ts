import { createHash, randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Pacer } from '../../src/harness/pace/pacer.js';
import { ToolFailure } from '../../src/harness/errors.js';
import type { PacerLike, PacingSpec } from '../../src/harness/types.js';
import { createRedisPacer, type RedisPacer, type RedisPacerOptions } from '../../src/redis/index.js';
import { mostAtOnce, type Busy } from './busy-slots.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

let server: RedisServer;
const opened: RedisPacer[] = [];
beforeAll(async () => {
  server = await startRedisServer();
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((p) => p.close()));
});
afterAll(() => server.stop());

/** A pacer on a connection of its own: another worker of the fleet. */
async function worker(options: Partial<RedisPacerOptions> = {}): Promise<RedisPacer> {
  const pacer = await createRedisPacer({ url: server.url, logger: () => {}, ...options });
  opened.push(pacer);
  return pacer;
}

const freshKey = () => `loops:${randomBytes(8).toString('hex')}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `sends` requests per pacer, `concurrency` at a time each, each taking 0–15 ms; every slot's busy interval. */
async function load(pacers: PacerLike[], spec: PacingSpec, sends: number, concurrency: number): Promise<Busy[]> {
  const busy: Busy[] = [];
  const windowMs = spec.windowMs ?? 1000;
  await Promise.all(
    pacers.flatMap((pacer) => {
      let left = sends;
      return Array.from({ length: concurrency }, async () => {
        while (left-- > 0) {
          const turn = await pacer.acquire(spec);
          const start = Date.now();
          await sleep(Math.random() * 15);
          const end = Date.now();
          turn.done({ status: 200, headers: {} });
          busy.push({ start, end: end + windowMs });
        }
      });
    }),
  );
  return busy;
}

describe('the Redis pacer', () => {
  it('never lets a fleet hold more slots than the limit at once (4 connections, 8 callers each)', async () => {
    const spec = { key: freshKey(), limit: 5, windowMs: 300 };
    const fleet = await Promise.all([worker(), worker(), worker(), worker()]);
    const started = Date.now();
    const busy = await load(fleet, spec, 10, 8);
    expect(busy).toHaveLength(40);
    expect(mostAtOnce(busy)).toBeLessThanOrEqual(5);
    // 40 requests at 5 per 300 ms take at least 7 windows, and the fleet keeps close to that pace.
    expect(Date.now() - started).toBeGreaterThanOrEqual(7 * 300);
    expect(Date.now() - started).toBeLessThan(12 * 300 + 2_000);
  });

  it('(the check itself) catches four processes that pace alone', async () => {
    const spec = { key: freshKey(), limit: 5, windowMs: 300 };
    const busy = await load([new Pacer(), new Pacer(), new Pacer(), new Pacer()], spec, 5, 5);
    expect(mostAtOnce(busy)).toBeGreaterThan(5);
  });

  it('holds every worker off after one sees x-ratelimit-remaining: 0 with a reset', async () => {
    const spec = { key: freshKey(), limit: 10 };
    const [a, b] = await Promise.all([worker(), worker()]);
    (await a.acquire(spec)).done({ status: 200, headers: { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '2' } });
    await a.close();
    const refused = await b.acquire(spec, undefined, 500).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ToolFailure);
    const { error } = refused as ToolFailure;
    expect(error.code).toBe('rate_limited');
    expect(error.retryable).toBe(true);
    expect(error.retryAfterMs).toBeGreaterThan(1_500);
    expect(error.retryAfterMs).toBeLessThanOrEqual(2_000);
  });

  it("holds every worker off for a 429's Retry-After, and learns the service's own limit", async () => {
    const spec = { key: freshKey(), limit: 10 };
    const [a, b] = await Promise.all([worker(), worker()]);
    (await a.acquire(spec)).done({ status: 429, headers: { 'retry-after': '3', 'x-ratelimit-limit': '4' } });
    await a.close();
    const started = Date.now();
    const error = ((await b.acquire(spec, undefined, 2_000).catch((e: unknown) => e)) as ToolFailure).error;
    // At once: well before the 2 s budget it would otherwise have waited out.
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(error.code).toBe('rate_limited');
    expect(error.retryAfterMs).toBeGreaterThan(2_500);
    expect(error.retryAfterMs).toBeLessThanOrEqual(3_000);
    const [state] = await stateOf(b, spec);
    expect(state.limit).toBe('4');
  });

  it('counts what the service says was used by someone else: remaining 2 of 5 leaves two slots', async () => {
    const spec = { key: freshKey(), limit: 5, windowMs: 2_000 };
    const [a, b] = await Promise.all([worker(), worker()]);
    (await a.acquire(spec)).done({ status: 200, headers: { 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '2' } });
    await b.acquire(spec);
    await a.acquire(spec);
    const third = await b.acquire(spec, undefined, 200).catch((e: unknown) => e);
    expect((third as ToolFailure).error.code).toBe('rate_limited');
  });

  it('clamps hostile figures: a limit of 10¹², a Retry-After of 1e400, a negative remaining', async () => {
    const spec = { key: freshKey() };
    const pacer = await worker();
    (await pacer.acquire(spec)).done({ status: 200, headers: { 'x-ratelimit-limit': '1e12', 'x-ratelimit-remaining': '-5' } });
    const [state] = await stateOf(pacer, spec);
    expect(state.limit).toBe('1000000');
    // remaining -5 reads as 0, with no reset: no hold; the other 999 999 slots are someone else's, in one bucket.
    expect(Number(state.used)).toBe(1_000_000);
    expect(Object.keys(state).filter((f) => f.startsWith('b')).length).toBeLessThanOrEqual(2);

    const other = { key: freshKey() };
    (await pacer.acquire(other)).done({ status: 429, headers: { 'retry-after': '1e400', 'x-ratelimit-reset': '99999999999999' } });
    const error = ((await pacer.acquire(other, undefined, 1_000).catch((e: unknown) => e)) as ToolFailure).error;
    expect(error.retryAfterMs).toBeGreaterThan(86_000_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(86_400_000);
    const [, keys] = await stateOf(pacer, other);
    for (const key of keys) expect(await pacer.client.pttl(key)).toBeLessThanOrEqual(86_400_000 + 60_000 + 1_000);
  });

  it("takes a client of the caller's, waits for it to connect, and leaves it open on close", async () => {
    const { Redis } = await import('ioredis');
    const client = new Redis(server.url, { enableOfflineQueue: false });
    const lines: string[] = [];
    try {
      const pacer = await createRedisPacer({ client, logger: (line) => lines.push(line) });
      (await pacer.acquire({ key: freshKey(), limit: 2 })).done({ status: 200, headers: {} });
      expect(pacer.shared).toBe(true);
      await pacer.close();
      expect(lines).toEqual([]);
      expect(await client.ping()).toBe('PONG');
    } finally {
      client.disconnect();
    }
  });

  it('sets a time to live on every key it writes', async () => {
    const spec = { key: freshKey(), limit: 3 };
    const pacer = await worker({ leaseMs: 5_000 });
    const turn = await pacer.acquire(spec);
    const [, keys] = await stateOf(pacer, spec);
    expect(keys.some((k) => k.endsWith(':flight'))).toBe(true);
    turn.done({ status: 200, headers: {} });
    await pacer.close();
    const reader = await worker();
    const [, after] = await stateOf(reader, spec);
    expect(after.length).toBeGreaterThanOrEqual(2);
    for (const key of after) {
      const ttl = await reader.client.pttl(key);
      expect(ttl, key).toBeGreaterThan(0);
      expect(ttl, key).toBeLessThanOrEqual(6_000);
    }
  });

  it('refuses at once a call it would hold past its budget, with retryAfterMs', async () => {
    const spec = { key: freshKey(), limit: 1, windowMs: 5_000 };
    const pacer = await worker();
    (await pacer.acquire(spec)).done({ status: 200, headers: {} });
    const started = Date.now();
    const error = ((await pacer.acquire(spec, undefined, 3_000).catch((e: unknown) => e)) as ToolFailure).error;
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(error).toMatchObject({ code: 'rate_limited', retryable: true });
    expect(error.retryAfterMs).toBeGreaterThan(4_000);
  });

  it('asks Redis for the first waiting call of a key only, not for every waiting call', async () => {
    const spec = { key: freshKey(), limit: 1, windowMs: 100 };
    const pacer = await worker();
    const first = await pacer.acquire(spec);
    const before = await scriptCalls(pacer);
    const waiting = Array.from({ length: 10 }, () => pacer.acquire(spec));
    first.done({ status: 200, headers: {} });
    for (const turn of waiting) (await turn).done({ status: 200, headers: {} });
    await pacer.close();
    const calls = (await scriptCalls(await worker())) - before;
    // 11 "done" scripts, and for each of the 10 grants a few asks: when every slot is in
    // flight, when the slot frees, maybe once more for jitter. Every waiter asking on its own
    // would be over a hundred.
    expect(calls).toBeLessThanOrEqual(11 + 10 * 4);
  });

  it('lets a waiting call go when its signal aborts, and the next one still gets the slot', async () => {
    const spec = { key: freshKey(), limit: 1, windowMs: 200 };
    const pacer = await worker();
    const first = await pacer.acquire(spec);
    const controller = new AbortController();
    const waiting = pacer.acquire(spec, controller.signal);
    const behind = pacer.acquire(spec);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    first.done({ status: 200, headers: {} });
    const started = Date.now();
    (await behind).done({ status: 200, headers: {} });
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
  });
});

/** The state hash of a pacing key, and every Redis key the pacer wrote for it (they share the hash tag of its digest). */
async function stateOf(pacer: RedisPacer, spec: PacingSpec): Promise<[Record<string, string>, string[]]> {
  const digest = createHash('sha256').update(spec.key).digest('hex').slice(0, 32);
  const mine = await pacer.client.keys(`flowblocks:pace:*{${digest}}*`);
  const state = mine.find((k) => k.endsWith(':state'));
  return [state ? await pacer.client.hgetall(state) : {}, mine];
}

/** Scripts Redis has run so far (EVALSHA and EVAL), from its command statistics. */
async function scriptCalls(pacer: RedisPacer): Promise<number> {
  const stats = await pacer.client.info('commandstats');
  return [...stats.matchAll(/^cmdstat_eval(?:sha)?:calls=(\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
}
