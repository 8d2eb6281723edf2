import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runTool } from '../../src/harness/run/execute.js';
import { Pacer, sharedPacer, takeTurn } from '../../src/harness/pace/pacer.js';
import { onClock } from '../helpers/on-clock.js';
import { mockService } from '../helpers/mock-service.js';
import { pacedExampleTool } from './fixtures.js';

const OK = { status: 200, headers: {} };
type Spec = Parameters<Pacer['acquire']>[0];

/**
 * Starts `n` acquires at once and runs the fake clock until all got their turn; resolves with
 * when each did (ms of the fake clock from the start). The clock is fake so that "not held
 * back" means 0 ms, whatever the machine's load, and waits are exact.
 */
async function burst(pacer: Pacer, spec: Spec, n: number, answer = OK) {
  const t0 = performance.now();
  const all = Promise.all(
    Array.from({ length: n }, async () => {
      const turn = await pacer.acquire(spec);
      const at = performance.now() - t0;
      turn.done(answer);
      return at;
    }),
  );
  await vi.runAllTimersAsync();
  return all;
}

/** How long one acquire was held (fake clock), its turn given back with `answer`. */
async function heldFor(pacer: Pacer, spec: Spec, answer = OK) {
  return (await burst(pacer, spec, 1, answer))[0];
}

describe('Pacer', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('never holds back a caller below the limit', async () => {
    const pacer = new Pacer();
    const spec = { key: 'team-a', limit: 10, windowMs: 1000 };
    const times = await burst(pacer, spec, 10);
    for (const at of times) expect(at).toBe(0);
    expect(pacer.pending('team-a')).toEqual({ inFlight: 0, queued: 0 });
  });

  it('queues a burst above the limit until slots free up, one window after they finished', async () => {
    const pacer = new Pacer();
    const times = await burst(pacer, { key: 'team-b', limit: 3, windowMs: 100 }, 7);
    expect(times.slice(0, 3)).toEqual([0, 0, 0]);
    expect(times.slice(3, 6).every((at) => at >= 100 && at <= 102)).toBe(true);
    expect(times[6]).toBeGreaterThanOrEqual(200);
    expect(times[6]).toBeLessThanOrEqual(204);
  });

  it('keeps keys apart: one busy team does not slow another', async () => {
    const pacer = new Pacer();
    const busy = burst(pacer, { key: 'busy', limit: 1, windowMs: 200 }, 3);
    const t0 = performance.now();
    (await pacer.acquire({ key: 'quiet', limit: 1, windowMs: 200 })).done(OK);
    expect(performance.now() - t0).toBe(0);
    expect(pacer.pending('busy')).toEqual({ inFlight: 0, queued: 2 });
    expect((await busy)[2]).toBeGreaterThanOrEqual(400);
  });

  it('learns the limit from x-ratelimit-limit when none is documented', async () => {
    const pacer = new Pacer({ windowMs: 100 });
    const spec = { key: 'team-c' };
    (await pacer.acquire(spec)).done({ status: 200, headers: { 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': '1' } });
    const times = await burst(pacer, spec, 3, { status: 200, headers: { 'x-ratelimit-limit': '2' } });
    // One slot was left in the window; the next two wait for it to pass.
    expect(times[0]).toBe(0);
    expect(times[1]).toBeGreaterThanOrEqual(100);
  });

  it('holds the slots someone else used when remaining is lower than its own count', async () => {
    const pacer = new Pacer();
    const spec = { key: 'shared-key', limit: 10, windowMs: 150 };
    // Another process already spent 8 of the 10: only 1 is left after ours.
    (await pacer.acquire(spec)).done({ status: 200, headers: { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '1' } });
    const times = await burst(pacer, spec, 2);
    expect(times[0]).toBe(0);
    expect(times[1]).toBeGreaterThanOrEqual(150);
  });

  it('after a 429 from a service that names no limit, waits one window', async () => {
    const pacer = new Pacer({ windowMs: 120 });
    const spec = { key: 'team-d' };
    (await pacer.acquire(spec)).done({ status: 429, headers: {} });
    expect(await heldFor(pacer, spec)).toBeGreaterThanOrEqual(120);
  });

  it('after a 429 with a known limit, holds every slot for the window', async () => {
    const pacer = new Pacer();
    const spec = { key: 'team-e', limit: 50, windowMs: 100 };
    (await pacer.acquire(spec)).done({ status: 429, headers: {} });
    expect(await heldFor(pacer, spec)).toBeGreaterThanOrEqual(100);
  });

  it('waits for a reset header when the window is spent', async () => {
    const pacer = new Pacer();
    const spec = { key: 'team-f', limit: 100, windowMs: 10 };
    const resetAt = String(Date.now() + 150);
    (await pacer.acquire(spec)).done({ status: 200, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': resetAt } });
    expect(await heldFor(pacer, spec)).toBeGreaterThanOrEqual(150);
  });

  it('while every slot is in flight, lets the next go as soon as one finishes', async () => {
    const pacer = new Pacer();
    const spec = { key: 'team-g', limit: 1, windowMs: 60_000 };
    const first = await pacer.acquire(spec);
    const stopNext = new AbortController();
    const next = pacer.acquire(spec, stopNext.signal);
    expect(pacer.pending('team-g')).toEqual({ inFlight: 1, queued: 1 });
    // A fault frees the in-flight slot but still counts against the window: the next waits.
    first.done();
    first.done();
    // Up to the last millisecond of the window, not for a guessed stretch of real time.
    await vi.advanceTimersByTimeAsync(59_000);
    expect(pacer.pending('team-g')).toEqual({ inFlight: 0, queued: 1 });
    const abort = new AbortController();
    const aborted = pacer.acquire(spec, abort.signal);
    abort.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
    expect(pacer.pending('team-g')).toEqual({ inFlight: 0, queued: 1 });
    stopNext.abort(new Error('done'));
    await expect(next).rejects.toThrow('done');
    expect(pacer.pending('team-g')).toEqual({ inFlight: 0, queued: 0 });
  });

  it('refuses at once when the signal is already aborted', async () => {
    const pacer = new Pacer();
    const spec = { key: 'team-h', limit: 1, windowMs: 60_000 };
    (await pacer.acquire(spec)).done(OK);
    await expect(pacer.acquire(spec, AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
    expect(pacer.pending('team-h')).toEqual({ inFlight: 0, queued: 0 });
  });

  it('applies an optional fixed cap per second on top', async () => {
    const pacer = new Pacer({ maxPerSecond: 2 });
    const times = await burst(pacer, { key: 'capped' }, 3);
    expect(times.slice(0, 2)).toEqual([0, 0]);
    expect(times[2]).toBeGreaterThanOrEqual(1000);
  });

  it('is off for calls that do not ask for pacing, and the shared one is one instance', async () => {
    expect(await takeTurn(new Pacer(), undefined)).toBeUndefined();
    expect(await takeTurn(undefined, { key: 'x' })).toBeUndefined();
    expect(sharedPacer()).toBeInstanceOf(Pacer);
    expect(sharedPacer()).toBe(sharedPacer());
  });

  it('a reset header with slots remaining holds nothing', async () => {
    const pacer = new Pacer();
    const spec = { key: 'team-f2', limit: 100, windowMs: 10 };
    (await pacer.acquire(spec)).done({ status: 200, headers: { 'x-ratelimit-remaining': '5', 'x-ratelimit-reset': String(Date.now() + 150) } });
    expect(await heldFor(pacer, spec)).toBe(0);
  });

  it('a slot given back after a fault frees one window later, and the queued call then goes', async () => {
    const pacer = new Pacer();
    const spec = { key: 'team-g2', limit: 1, windowMs: 1000 };
    const first = await pacer.acquire(spec);
    const t0 = performance.now();
    const next = pacer.acquire(spec);
    await vi.advanceTimersByTimeAsync(500);
    first.done();
    (await onClock(next)).done(OK);
    const waited = performance.now() - t0;
    expect(waited).toBeGreaterThanOrEqual(1500);
    expect(waited).toBeLessThanOrEqual(1502);
  });

  it('knows nothing pending for a key it has never seen', () => {
    expect(new Pacer().pending('never-seen')).toEqual({ inFlight: 0, queued: 0 });
  });

  it('does not take a limit of 0 from a header: the documented limit stays', async () => {
    const pacer = new Pacer();
    const spec = { key: 'team-zero', limit: 5, windowMs: 100 };
    (await pacer.acquire(spec)).done({ status: 200, headers: { 'x-ratelimit-limit': '0' } });
    expect(await burst(pacer, spec, 4)).toEqual([0, 0, 0, 0]);
  });

  it('a wait of exactly the budget is taken; one millisecond over is refused at once, saying when to come back', async () => {
    const pacer = new Pacer({ windowMs: 100 });
    const spec = { key: 'team-budget' };
    (await pacer.acquire(spec)).done({ status: 429, headers: {} });
    // The window from the 429 is 100 ms: a budget of 99 ms cannot cover it.
    const before = performance.now();
    await expect(pacer.acquire(spec, undefined, 99)).rejects.toMatchObject({ error: { code: 'rate_limited', retryable: true, retryAfterMs: 100 } });
    expect(performance.now()).toBe(before);
    (await onClock(pacer.acquire(spec, undefined, 100))).done(OK);
    expect(performance.now() - before).toBeGreaterThanOrEqual(100);
  });
});

describe('pacing through the harness', () => {
  const ORIGIN = 'https://paced.example.test';
  const tool = pacedExampleTool(ORIGIN, { limit: 1, windowMs: 60_000 });

  it('makes a call wait its turn, and an abort while waiting is an aborted result', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 200, body: { ok: true } });
    const pacer = new Pacer();
    const first = await runTool(tool, { key: 'k1' }, { dispatcher: svc.agent, pacer });
    const abort = new AbortController();
    const second = runTool(tool, { key: 'k1' }, { dispatcher: svc.agent, pacer, signal: abort.signal });
    // Aborted once it is known to be waiting in the queue (not after a guessed real delay).
    await vi.waitFor(() => expect(pacer.pending('k1')).toEqual({ inFlight: 0, queued: 1 }));
    abort.abort();
    expect(first).toMatchObject({ success: true, output: { ok: true } });
    expect(await second).toMatchObject({ success: false, error: { code: 'aborted', message: expect.stringContaining('waiting for its turn') }, meta: { attempts: 0 } });
    expect(svc.requests).toHaveLength(1);
    expect(svc.requests[0]).toMatchObject({ method: 'GET', path: '/items' });
  });

  it('pacer: false sends at once', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 200, body: { ok: true } }, { status: 200, body: { ok: true } });
    const results = await Promise.all([1, 2].map(() => runTool(tool, { key: 'k2' }, { dispatcher: svc.agent, pacer: false })));
    expect(results.every((r) => r.success)).toBe(true);
    expect(svc.requests).toHaveLength(2);
  });
});
