import type { Clock } from '../../src/satellites/notifications/clock.js';

interface Timer {
  at: number;
  resolve: () => void;
}

/** Lets pending promise chains (and undici's mock replies) run. */
export const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A clock that only moves when told. `advance` fires due sleeps in time order; with
 * `autoAdvance`, every sleep moves the clock at once (for code that waits in a loop).
 */
export function fakeClock(start = Date.UTC(2026, 0, 5, 12), options: { autoAdvance?: boolean } = {}) {
  let now = start;
  let timers: Timer[] = [];
  const sleeps: number[] = [];
  const clock: Clock & { sleeps: number[]; advance(ms: number): Promise<void>; set(ms: number): void; pending(): number } = {
    now: () => now,
    sleeps,
    sleep(ms, signal) {
      sleeps.push(ms);
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (options.autoAdvance) {
        now += Math.max(0, ms);
        return Promise.resolve();
      }
      return new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          timers = timers.filter((t) => t !== timer);
          reject(signal!.reason);
        };
        // A sleep that ends forgets its abort listener, as the real one does: a long-lived signal
        // otherwise collects one per sleep (Node's MaxListenersExceededWarning past ten).
        const timer: Timer = {
          at: now + Math.max(0, ms),
          resolve: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        timers.push(timer);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    async advance(ms) {
      const target = now + ms;
      for (;;) {
        await flush();
        const next = timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at)[0];
        if (!next) break;
        timers = timers.filter((t) => t !== next);
        now = next.at;
        next.resolve();
      }
      now = target;
      await flush();
    },
    set(ms) {
      now = ms;
    },
    pending: () => timers.length,
  };
  return clock;
}
