/**
 * Issue 44, item 4: the n8n package's own clock (`packages/n8n-nodes-flowblocks/src/host-timers.mts`,
 * built in place of `src/harness/timers.ts`) under the unit suite, so `vitest related` and the
 * mutation run reach it: before, only the real-n8n suite loaded it. The host's n8n-workflow is a
 * fake here whose `sleep` the test ends by hand, one for each spelling n8n-workflow has had.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

interface Wait {
  ms: number;
  signal?: AbortSignal;
  end(): void;
}

const waits: Wait[] = [];
/** The host's `sleep`: resolves when the test ends it (a signal it is given aborts nothing by itself). */
const hostSleep = vi.fn((ms: number, signal?: AbortSignal) => new Promise<void>((resolve) => waits.push({ ms, signal, end: resolve })));
const host: { sleep?: typeof hostSleep; sleepWithAbort?: typeof hostSleep } = {};
const hostWorkflow = vi.fn(() => host);

vi.mock('../../packages/n8n-nodes-flowblocks/src/host-workflow.mjs', () => ({ hostWorkflow: () => hostWorkflow() }));

/** A fresh copy of the module: it keeps the host's wait once found. */
async function timers() {
  vi.resetModules();
  return import('../../packages/n8n-nodes-flowblocks/src/host-timers.mjs');
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

beforeEach(() => {
  waits.length = 0;
  hostSleep.mockClear();
  hostWorkflow.mockClear();
  delete host.sleep;
  delete host.sleepWithAbort;
});
afterEach(() => {
  waits.length = 0;
});

describe('n8n package: startTimer over the host\'s sleep', () => {
  it('runs the function once the host\'s wait of exactly `ms` ends, and not before', async () => {
    host.sleep = hostSleep;
    const { startTimer } = await timers();
    const fn = vi.fn();
    startTimer(fn, 1_500);
    expect(waits.map((w) => w.ms)).toEqual([1_500]);
    expect(waits[0]!.signal).toBeInstanceOf(AbortSignal);
    await settle();
    expect(fn).not.toHaveBeenCalled();
    waits[0]!.end();
    await settle();
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('cancel aborts the signal the host was given, and a host that ignores it still never runs the function', async () => {
    host.sleep = hostSleep;
    const { startTimer } = await timers();
    const fn = vi.fn();
    const timer = startTimer(fn, 200);
    timer.cancel();
    expect(waits[0]!.signal!.aborted).toBe(true);
    waits[0]!.end();
    await settle();
    expect(fn).not.toHaveBeenCalled();
    // A second cancel does nothing.
    timer.cancel();
  });

  it('a host wait that rejects (its own abort) runs nothing and leaves no unhandled rejection', async () => {
    const rejected: unknown[] = [];
    const onRejection = (reason: unknown) => void rejected.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      host.sleep = vi.fn(() => Promise.reject(new Error('aborted by the host')));
      const { startTimer } = await timers();
      const fn = vi.fn();
      startTimer(fn, 10);
      await settle();
      await settle();
      expect(fn).not.toHaveBeenCalled();
      expect(rejected).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });

  it('prefers sleepWithAbort (n8n-workflow 1.x, early 2.x) over sleep, and looks the host up once', async () => {
    host.sleep = vi.fn(() => new Promise<void>(() => {}));
    host.sleepWithAbort = hostSleep;
    const { startTimer, nextTurn } = await timers();
    startTimer(() => {}, 5);
    startTimer(() => {}, 7);
    const turn = nextTurn();
    expect(host.sleep).not.toHaveBeenCalled();
    expect(waits.map((w) => w.ms)).toEqual([5, 7, 0]);
    expect(hostWorkflow).toHaveBeenCalledTimes(1);
    waits[2]!.end();
    await expect(turn).resolves.toBeUndefined();
  });

  it('nextTurn is the host\'s wait of 0 ms, with no signal', async () => {
    host.sleep = hostSleep;
    const { nextTurn } = await timers();
    let done = false;
    void nextTurn().then(() => (done = true));
    expect(waits).toHaveLength(1);
    expect(waits[0]).toMatchObject({ ms: 0, signal: undefined });
    await settle();
    expect(done).toBe(false);
    waits[0]!.end();
    await settle();
    expect(done).toBe(true);
  });
});
