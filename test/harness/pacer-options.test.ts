/**
 * Issue 44, item 2: the pacer's options at their defaults, where a unit or a bound gone wrong
 * shows. Every earlier test set `windowMs` (on the pacer or the request), so a default of 1
 * (seconds written as milliseconds) passed them all; `maxKeys` was tested at 2 and 50 only.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Pacer } from '../../src/harness/pace/pacer.js';
import { onClock } from '../helpers/on-clock.js';

const OK = { status: 200, headers: {} };

/** How long (fake ms) an acquire under `spec` is held before it starts. */
async function heldFor(pacer: Pacer, spec: Parameters<Pacer['acquire']>[0]): Promise<number> {
  const t0 = performance.now();
  (await onClock(pacer.acquire(spec))).done(OK);
  return performance.now() - t0;
}

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
  await vi.advanceTimersByTimeAsync(50_000);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Pacer options at their defaults', () => {
  it('windowMs: a 429 from a service that names no limit holds a request without a window of its own for 1000 ms', async () => {
    const pacer = new Pacer();
    const spec = { key: 'default-window' };
    (await pacer.acquire(spec)).done({ status: 429, headers: {} });
    const held = await heldFor(pacer, spec);
    expect(held).toBeGreaterThanOrEqual(1_000);
    expect(held).toBeLessThanOrEqual(1_002);
  });

  it('windowMs: 250 set on the pacer holds it 250 ms; a request\'s own window wins over both', async () => {
    const pacer = new Pacer({ windowMs: 250 });
    (await pacer.acquire({ key: 'set' })).done({ status: 429, headers: {} });
    const held = await heldFor(pacer, { key: 'set' });
    expect(held).toBeGreaterThanOrEqual(250);
    expect(held).toBeLessThanOrEqual(252);
    (await pacer.acquire({ key: 'own', windowMs: 40 })).done({ status: 429, headers: {} });
    expect(await heldFor(pacer, { key: 'own', windowMs: 40 })).toBeLessThanOrEqual(42);
  });

});

describe('Pacer maxKeys at its default', () => {
  it('keeps 10 000 keys, and the oldest idle one goes for the next', async () => {
    vi.useRealTimers();
    const pacer = new Pacer();
    const spec = (i: number) => ({ key: `k${i}`, limit: 1, windowMs: 60_000 });
    // Each key's one slot counts for a minute: none is forgotten by time while this runs.
    for (let i = 0; i < 10_001; i++) (await pacer.acquire(spec(i))).done(OK);
    expect(pacer.keyCount).toBe(10_000);
    // k0 went (the oldest): its slot is free again at once. k1's is still held: that call waits.
    const stop = new AbortController();
    const k1 = pacer.acquire(spec(1), stop.signal).then(() => 'started', () => 'waited');
    (await pacer.acquire(spec(0))).done(OK);
    stop.abort();
    expect(await k1).toBe('waited');
  });
});
