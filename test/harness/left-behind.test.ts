/**
 * Issue 44, item 3: what a call leaves behind, not what it returns. For the long-lived objects
 * a caller shares across calls (an AbortSignal, a pacer), each test asserts what remains once
 * the calls are over: listeners on the signal, timers that keep the process alive (counted as
 * Node counts them, `process.getActiveResourcesInfo()`: an `unref`'d timer is not there), and
 * the pacer's keys.
 */
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { executeTool } from '../../src/index.js';
import { Pacer } from '../../src/harness/pace/pacer.js';
import { mockService } from '../helpers/mock-service.js';

/** Timers that keep this process alive now. */
const aliveTimers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
const OK = { status: 200, headers: {} };
const settle = () => new Promise((resolve) => setImmediate(resolve));

const pacers: Pacer[] = [];
afterEach(() => {
  pacers.splice(0);
});

describe('a pacer whose waiters all abort', () => {
  it('keeps no timer that holds the process, no listener on the waiters\' shared signal, and no waiter', async () => {
    const baseline = aliveTimers();
    const pacer = new Pacer();
    pacers.push(pacer);
    // The one slot of a 30 s window is used: the next calls wait for it, with a timer armed.
    const spec = { key: 'held', limit: 1, windowMs: 30_000 };
    (await pacer.acquire(spec)).done(OK);
    const shared = new AbortController();
    const waiters = Array.from({ length: 3 }, () => pacer.acquire(spec, shared.signal).then(() => 'started', () => 'aborted'));
    await settle();
    expect(pacer.pending('held')).toEqual({ inFlight: 0, queued: 3 });
    expect(aliveTimers()).toBe(baseline + 1);
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(1);
    shared.abort();
    expect(await Promise.all(waiters)).toEqual(['aborted', 'aborted', 'aborted']);
    await settle();
    expect(pacer.pending('held')).toEqual({ inFlight: 0, queued: 0 });
    // The key's clean-up timer may run on, in the background: nothing holds the process.
    expect(aliveTimers()).toBe(baseline);
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
  });

  it('one waiter of two aborting leaves the other its timer, and nothing of its own', async () => {
    const baseline = aliveTimers();
    const pacer = new Pacer();
    const spec = { key: 'half', limit: 1, windowMs: 30_000 };
    (await pacer.acquire(spec)).done(OK);
    const leaving = new AbortController();
    const staying = new AbortController();
    const gone = pacer.acquire(spec, leaving.signal).catch(() => 'aborted');
    const waiting = pacer.acquire(spec, staying.signal).catch(() => 'aborted');
    await settle();
    leaving.abort();
    expect(await gone).toBe('aborted');
    expect(pacer.pending('half').queued).toBe(1);
    expect(getEventListeners(leaving.signal, 'abort')).toHaveLength(0);
    expect(getEventListeners(staying.signal, 'abort')).toHaveLength(1);
    expect(aliveTimers()).toBe(baseline + 1);
    staying.abort();
    expect(await waiting).toBe('aborted');
    await settle();
    expect(aliveTimers()).toBe(baseline);
  });
});

describe('one AbortSignal shared by many calls over time', () => {
  it('500 paced calls one after the other, some retried, leave no listener on it and no timer holding the process', { timeout: 20_000 }, async () => {
    const baseline = aliveTimers();
    const svc = mockService('https://app.loops.so');
    // Every fifth call is answered 503 first, then 200: a retry's backoff wait (1 ms steps) on the signal too.
    const ok = { status: 200, body: { success: true, teamName: 'Acme' } };
    const busy = { status: 503, body: { message: 'busy' } };
    const shared = new AbortController();
    // The shared pacer (the default) paces Loops per key; a pacer of its own keeps this test's keys apart.
    const pacer = new Pacer();
    let most = 0;
    for (let i = 0; i < 500; i++) {
      if (i % 5 === 0) svc.on('GET', '/api/v1/api-key', busy, ok);
      else svc.on('GET', '/api/v1/api-key', ok);
      const result = await executeTool('loops_test_api_key', { apiKey: `key-${i % 100}-0123456789` }, { dispatcher: svc.agent, signal: shared.signal, pacer, retry: { baseDelayMs: 1 } });
      expect(result.success).toBe(true);
      most = Math.max(most, getEventListeners(shared.signal, 'abort').length);
    }
    expect(svc.requests).toHaveLength(600);
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
    expect(most).toBe(0);
    await settle();
    expect(aliveTimers()).toBeLessThanOrEqual(baseline);
    // A hundred keys (Loops allows 10 calls a second per key: none of these waits its turn).
    expect(pacer.keyCount).toBeLessThanOrEqual(100);
  });
});
