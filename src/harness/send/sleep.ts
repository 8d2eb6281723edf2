import { onAbort } from './on-abort.js';
import { nextTurn, startTimer, type Timer } from './timers.js';

/** The longest delay setTimeout takes: past it Node warns and fires after 1 ms instead. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  // A zero wait still yields to I/O, so a loop that waits 0 ms cannot starve the process.
  if (!(ms > 0)) return nextTurn();
  const until = performance.now() + ms;
  return new Promise((resolve, reject) => {
    let timer: Timer | undefined;
    // Listening before the first arm: a wait under a millisecond ends inside it, and must find
    // the listener there to remove (else each such wait left one on a long-lived signal).
    const stopListening = signal
      ? onAbort(signal, () => {
          timer?.cancel();
          reject(signal.reason);
        })
      : undefined;
    // A wait longer than one timer can hold is taken in turns.
    const arm = () => {
      const left = until - performance.now();
      // Within a millisecond is done: timers count whole ms, and one more turn would be noise.
      if (left < 1) {
        stopListening?.();
        return resolve();
      }
      timer = startTimer(arm, Math.min(Math.ceil(left), MAX_TIMER_MS));
    };
    arm();
  });
}
