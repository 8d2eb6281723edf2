/**
 * The pacer's promises that pacer.test.ts leaves open, each on a fake clock (exact times, no
 * real waits): when an idle key is forgotten and what it keeps until then, the order of a
 * queue, what an answer's figures hold back, budgets refused at once or at their deadline,
 * the fixed cap per second, and no timer left behind once a key is idle.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Pacer } from '../../src/harness/pace/pacer.js';
import { onClock } from '../helpers/on-clock.js';

const OK = { status: 200, headers: {} };
type Spec = Parameters<Pacer['acquire']>[0];

/** What `promise` has come to once everything that needs no time has run: its value, its failure's `error`, or 'pending'. */
async function outcomeNow<T>(promise: Promise<T>): Promise<T | { refused: unknown } | 'pending'> {
  let outcome: T | { refused: unknown } | 'pending' = 'pending';
  promise.then(
    (value) => (outcome = value),
    (error: { error?: unknown }) => (outcome = { refused: error.error ?? error }),
  );
  await vi.advanceTimersByTimeAsync(0);
  return outcome;
}

/** How long (fake ms) an acquire under `spec` is held before it starts; its turn is given back at once. */
async function heldFor(pacer: Pacer, spec: Spec): Promise<number> {
  const t0 = performance.now();
  (await onClock(pacer.acquire(spec))).done(OK);
  return performance.now() - t0;
}

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
  // Not at 0: a wait computed against the wrong end of the clock must show.
  await vi.advanceTimersByTimeAsync(50_000);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('an idle key is forgotten once its last window has passed, not before', () => {
  it('keeps a key while its slot still counts, forgets it after, and leaves no timer', async () => {
    const pacer = new Pacer();
    (await pacer.acquire({ key: 'idle', limit: 1, windowMs: 100 })).done(OK);
    await vi.advanceTimersByTimeAsync(99);
    expect(pacer.keyCount).toBe(1);
    await vi.advanceTimersByTimeAsync(2);
    expect(pacer.keyCount).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps a key held by a reset (RateLimit-Reset, the IETF spelling) until the reset, so a later call still waits for it', async () => {
    const pacer = new Pacer();
    const spec = { key: 'reset-ietf', windowMs: 100 };
    (await pacer.acquire(spec)).done({ status: 429, headers: { 'ratelimit-reset': '5' } });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(pacer.keyCount).toBe(1);
    const held = await heldFor(pacer, spec);
    expect(held).toBeGreaterThanOrEqual(3_000);
    expect(held).toBeLessThanOrEqual(3_002);
  });

  it('with maxKeys reached, never forgets a key whose call is queued (its call would never start)', async () => {
    const pacer = new Pacer({ maxKeys: 2 });
    const blocked = { key: 'blocked', windowMs: 1_000 };
    // A 429 from a service that names no limit holds the key for a window; the next call queues.
    (await pacer.acquire(blocked)).done({ status: 429, headers: {} });
    const waiting = pacer.acquire(blocked);
    (await pacer.acquire({ key: 'idle', limit: 5 })).done(OK);
    (await pacer.acquire({ key: 'new', limit: 5 })).done(OK);
    expect(pacer.keyCount).toBe(2);
    expect(pacer.pending('blocked')).toEqual({ inFlight: 0, queued: 1 });
    const t0 = performance.now();
    (await onClock(waiting)).done(OK);
    expect(performance.now() - t0).toBeLessThanOrEqual(1_002);
  });

  it('leaves no timer behind once the queue has emptied and the window passed (a waiter’s deadline timer included)', async () => {
    const pacer = new Pacer();
    const spec = { key: 'timers', limit: 1, windowMs: 1_000 };
    const first = await pacer.acquire(spec);
    // Queued while the slot is in flight, with a budget: the pacer wakes at its deadline.
    const next = pacer.acquire(spec, undefined, 60_000);
    first.done(OK);
    (await onClock(next)).done(OK);
    await vi.advanceTimersByTimeAsync(1_002);
    expect(pacer.keyCount).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('the queue keeps its order', () => {
  it('a call that comes the instant a slot frees goes after the one already waiting', async () => {
    const pacer = new Pacer();
    const spec = { key: 'order', limit: 1, windowMs: 1_000 };
    (await pacer.acquire(spec)).done(OK);
    const order: string[] = [];
    const take = (name: string) => async (turn: { done(r?: typeof OK): void }) => {
      order.push(name);
      turn.done(OK);
    };
    const waiting = pacer.acquire(spec).then(take('waiting'));
    // Exactly when the slot frees, before the pacer's own timer has run.
    await vi.advanceTimersByTimeAsync(1_000);
    const late = pacer.acquire(spec).then(take('late'));
    await onClock(Promise.all([waiting, late]));
    expect(order).toEqual(['waiting', 'late']);
  });

  it('an abort shared by two queued calls drops only those two, never the call queued behind them', async () => {
    const pacer = new Pacer();
    const spec = { key: 'shared-abort', limit: 1, windowMs: 1_000 };
    (await pacer.acquire(spec)).done(OK);
    const abort = new AbortController();
    const first = pacer.acquire(spec, abort.signal);
    const second = pacer.acquire(spec, abort.signal).then(
      (turn) => turn.done(OK),
      () => undefined,
    );
    const behind = pacer.acquire(spec);
    // The slot is free now; the pacer's timer has not run yet. The first leaving lets the second start.
    await vi.advanceTimersByTimeAsync(1_000);
    abort.abort(new Error('stop'));
    await expect(first).rejects.toThrow('stop');
    await second;
    expect(pacer.pending('shared-abort').queued).toBe(1);
    (await onClock(behind)).done(OK);
  });
});

describe('what an answer holds back', () => {
  it('a success from a service that names no limit holds nothing', async () => {
    const pacer = new Pacer();
    const spec = { key: 'quiet-service', windowMs: 1_000 };
    (await pacer.acquire(spec)).done(OK);
    expect(await heldFor(pacer, spec)).toBe(0);
  });

  it('a remaining count seen before any limit is ignored, and the limit learned later paces', async () => {
    const pacer = new Pacer();
    const spec = { key: 'remaining-first', windowMs: 1_000 };
    (await pacer.acquire(spec)).done({ status: 200, headers: { 'x-ratelimit-remaining': '5' } });
    (await pacer.acquire(spec)).done({ status: 200, headers: { 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': '0' } });
    // Both slots of the limit are used: the next waits for the first to free, one window on.
    const held = await heldFor(pacer, spec);
    expect(held).toBeGreaterThanOrEqual(1_000);
    expect(held).toBeLessThanOrEqual(1_002);
  });

  it('counts its own running requests when the service reports fewer remaining: the rest is someone else’s', async () => {
    const pacer = new Pacer();
    const spec = { key: 'others', limit: 10, windowMs: 1_000 };
    const a = await pacer.acquire(spec);
    await pacer.acquire(spec);
    // The service counted 8 with a: a and the running one are ours, 6 someone else's. Two are left.
    a.done({ status: 200, headers: { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '2' } });
    const calls = [pacer.acquire(spec), pacer.acquire(spec), pacer.acquire(spec)];
    expect(await outcomeNow(calls[1]!)).not.toBe('pending');
    expect(pacer.pending('others')).toEqual({ inFlight: 3, queued: 1 });
  });

  it('after a 429 with a known limit, the next call goes when the oldest slot frees, not a whole window after the 429', async () => {
    const pacer = new Pacer();
    const spec = { key: 'older-slot', limit: 2, windowMs: 1_000 };
    (await pacer.acquire(spec)).done(OK);
    await vi.advanceTimersByTimeAsync(500);
    (await pacer.acquire(spec)).done({ status: 429, headers: {} });
    const held = await heldFor(pacer, spec);
    expect(held).toBeGreaterThanOrEqual(500);
    expect(held).toBeLessThanOrEqual(502);
  });

  it('when the service lowers the limit below what is in use, a call is told the whole wait at once', async () => {
    const pacer = new Pacer();
    const spec = { key: 'lowered', limit: 3, windowMs: 1_000 };
    (await pacer.acquire(spec)).done(OK);
    await vi.advanceTimersByTimeAsync(300);
    (await pacer.acquire(spec)).done(OK);
    await vi.advanceTimersByTimeAsync(300);
    (await pacer.acquire(spec)).done({ status: 200, headers: { 'x-ratelimit-limit': '1' } });
    // Three slots in use against a limit of 1: all three must free, the last 1000 ms from now.
    expect(await outcomeNow(pacer.acquire(spec, undefined, 500))).toEqual({
      refused: expect.objectContaining({ code: 'rate_limited', retryAfterMs: 1_000 }),
    });
  });
});

describe('budgets', () => {
  it('a queued call is told the wait a finish reveals (a reset longer than the window), at once', async () => {
    const pacer = new Pacer();
    const spec = { key: 'revealed-reset', limit: 1, windowMs: 1_000 };
    const first = await pacer.acquire(spec);
    const hasty = pacer.acquire(spec, undefined, 2_000);
    first.done({ status: 429, headers: { 'x-ratelimit-reset': '5' } });
    expect(await outcomeNow(hasty)).toEqual({ refused: expect.objectContaining({ code: 'rate_limited', retryAfterMs: 5_000 }) });
  });

  it('while every slot is in flight, each waiter is refused at its own deadline, earliest first', async () => {
    const pacer = new Pacer();
    const spec = { key: 'deadlines', limit: 1, windowMs: 3_000 };
    const running = await pacer.acquire(spec);
    for (const budget of [2_000, 6_000, 4_000]) pacer.acquire(spec, undefined, budget).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(0);
    const queued = () => pacer.pending('deadlines').queued;
    expect(queued()).toBe(3);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(queued()).toBe(3);
    await vi.advanceTimersByTimeAsync(2);
    expect(queued()).toBe(2);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(queued()).toBe(2);
    await vi.advanceTimersByTimeAsync(2);
    expect(queued()).toBe(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(queued()).toBe(0);
    running.done();
  });
});

describe('the fixed cap per second', () => {
  it('lets the next call go one second after the oldest start, whatever the clock reads', async () => {
    const pacer = new Pacer({ maxPerSecond: 2 });
    const spec = { key: 'capped' };
    const times: number[] = [];
    const t0 = performance.now();
    for (let i = 0; i < 3; i++) {
      (await onClock(pacer.acquire(spec))).done(OK);
      times.push(performance.now() - t0);
    }
    expect(times.slice(0, 2)).toEqual([0, 0]);
    expect(times[2]).toBeGreaterThanOrEqual(1_000);
    expect(times[2]).toBeLessThanOrEqual(1_002);
  });

  it('a cap below one per second spaces the calls out (0.5: one every 2 s) and never holds one for ever', async () => {
    const pacer = new Pacer({ maxPerSecond: 0.5 });
    const spec = { key: 'slow-cap' };
    const times: number[] = [];
    const t0 = performance.now();
    for (let i = 0; i < 3; i++) {
      (await onClock(pacer.acquire(spec))).done(OK);
      times.push(performance.now() - t0);
    }
    expect(times[0]).toBe(0);
    expect(times[1]).toBeGreaterThanOrEqual(2_000);
    expect(times[1]).toBeLessThanOrEqual(2_002);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(2_000);
    expect(times[2]! - times[1]!).toBeLessThanOrEqual(2_002);
  });
});

describe('Pacer options', () => {
  it('refuses by name a cap, window or key count that would hold every call for ever, and takes any positive figure', () => {
    for (const [name, value] of [
      ['maxPerSecond', 0],
      ['maxPerSecond', -1],
      ['maxPerSecond', Number.NaN],
      ['windowMs', 0],
      ['windowMs', Infinity],
      ['maxKeys', 0],
      ['maxKeys', '5'],
    ] as const) {
      expect(() => new Pacer({ [name]: value } as never), `${name}: ${String(value)}`).toThrow(
        new RangeError(`Pacer: ${name} must be a finite number above 0 (got ${String(value)})`),
      );
    }
    expect(() => new Pacer({ maxPerSecond: 0.001, windowMs: 1, maxKeys: 1 })).not.toThrow();
    expect(() => new Pacer({ maxPerSecond: undefined })).not.toThrow();
  });
});
