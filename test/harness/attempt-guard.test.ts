import { afterEach, describe, expect, it, vi } from 'vitest';
import { AttemptGuard, type StopReason } from '../../src/harness/send/attempt-guard.js';

/**
 * The one guard both attempt paths (undici's dispatch, a host's transport) share: it stops an
 * attempt once, for the first reason, and leaves no timer or abort listener behind.
 */
function guarded(settings: { timeoutMs: number; maxResponseBytes?: number; signal?: AbortSignal }) {
  const stops: StopReason[] = [];
  const guard = new AttemptGuard(settings, (reason) => stops.push(reason));
  return { guard, stops };
}

afterEach(() => vi.useRealTimers());

describe('AttemptGuard', () => {
  it('stops on its time limit, once, naming it', () => {
    vi.useFakeTimers();
    const { guard, stops } = guarded({ timeoutMs: 50 });
    vi.advanceTimersByTime(49);
    expect(stops).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(stops).toEqual([{ kind: 'timeout', message: 'no complete response within 50 ms' }]);
    expect(guard.reason).toBe(stops[0]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("stops on the caller's abort, and the first reason wins over a later time-out", () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const { stops } = guarded({ timeoutMs: 50, signal: controller.signal });
    controller.abort();
    vi.advanceTimersByTime(100);
    expect(stops).toEqual([{ kind: 'aborted', message: 'the call was aborted' }]);
  });

  it('stops a body past the cap, counted chunk by chunk, and a declared length over it before any byte', () => {
    const counted = guarded({ timeoutMs: 1000, maxResponseBytes: 10 });
    expect(counted.guard.received(6)).toBe(true);
    expect(counted.guard.received(4)).toBe(true);
    expect(counted.stops).toEqual([]);
    expect(counted.guard.received(1)).toBe(false);
    expect(counted.stops).toHaveLength(1);
    expect(counted.stops[0]).toMatchObject({ error: { code: 'invalid_response', message: 'the response body is larger than the 10-byte limit' } });
    // Stopped once: more bytes, or a declared length, after it add no second reason.
    expect(counted.guard.received(5)).toBe(false);
    counted.guard.declared('99');
    expect(counted.stops).toHaveLength(1);
    counted.guard.release();

    const declared = guarded({ timeoutMs: 1000, maxResponseBytes: 10 });
    declared.guard.declared('10');
    declared.guard.declared(undefined);
    declared.guard.declared('ten');
    expect(declared.stops).toEqual([]);
    declared.guard.declared('11');
    expect(declared.stops).toHaveLength(1);
  });

  it('leaves no timer and no abort listener once released', () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const remove = vi.spyOn(controller.signal, 'removeEventListener');
    const { guard, stops } = guarded({ timeoutMs: 50, signal: controller.signal });
    expect(vi.getTimerCount()).toBe(1);
    guard.release();
    expect(vi.getTimerCount()).toBe(0);
    expect(remove).toHaveBeenCalledWith('abort', expect.any(Function));
    controller.abort();
    expect(stops).toEqual([]);
  });
});
