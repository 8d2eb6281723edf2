import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_TIMER_MS, sleep } from '../../src/harness/send/sleep.js';

/** Where a promise stands, read without waiting for it. */
function track(promise: Promise<unknown>) {
  const state: { outcome: 'pending' | 'resolved' | 'rejected'; reason?: unknown } = { outcome: 'pending' };
  promise.then(
    () => (state.outcome = 'resolved'),
    (reason: unknown) => Object.assign(state, { outcome: 'rejected', reason }),
  );
  return state;
}

describe('sleep on a fake clock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const fake = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });

  it('waits the whole time, not a millisecond less', async () => {
    fake();
    const wait = track(sleep(100));
    await vi.advanceTimersByTimeAsync(99);
    expect(wait.outcome).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(wait.outcome).toBe('resolved');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('waits a single millisecond too', async () => {
    fake();
    const wait = track(sleep(1));
    await vi.advanceTimersByTimeAsync(0);
    expect(wait.outcome).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(wait.outcome).toBe('resolved');
  });

  it('counts a fraction of a millisecond as done, with no timer', async () => {
    fake();
    await expect(sleep(0.5)).resolves.toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('takes a wait longer than one timer can hold in turns, to the full length', async () => {
    fake();
    const wait = track(sleep(MAX_TIMER_MS + 10_000));
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS);
    expect(wait.outcome).toBe('pending');
    await vi.advanceTimersByTimeAsync(9_999);
    expect(wait.outcome).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(wait.outcome).toBe('resolved');
  });

  it('rejects with the reason the moment the signal aborts, and leaves no timer behind', async () => {
    fake();
    const controller = new AbortController();
    const wait = track(sleep(1000, controller.signal));
    await vi.advanceTimersByTimeAsync(400);
    expect(wait.outcome).toBe('pending');
    const reason = new Error('stop');
    controller.abort(reason);
    await vi.advanceTimersByTimeAsync(0);
    expect(wait).toEqual({ outcome: 'rejected', reason });
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('rejects at once on a signal already aborted, arming nothing', async () => {
    fake();
    const reason = new Error('gone');
    await expect(sleep(1000, AbortSignal.abort(reason))).rejects.toBe(reason);
    await expect(sleep(0, AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stops listening to the signal once it has waited', async () => {
    fake();
    const controller = new AbortController();
    const wait = track(sleep(50, controller.signal));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(50);
    expect(wait.outcome).toBe('resolved');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    // An abort after the wait changes nothing.
    controller.abort(new Error('late'));
    await vi.advanceTimersByTimeAsync(0);
    expect(wait.outcome).toBe('resolved');
  });
});

describe('sleep of no time', () => {
  it('still yields to I/O: what was queued before it runs first', async () => {
    for (const ms of [0, -5, Number.NaN]) {
      let ran = false;
      setImmediate(() => (ran = true));
      await sleep(ms);
      expect(ran, `sleep(${ms})`).toBe(true);
    }
  });
});
