import { sleep as realSleep } from '../../harness/send/sleep.js';

/** Time as the notification code sees it; tests pass a fake one so no test waits for real. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Waits `ms`, or rejects as soon as the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: realSleep,
};
