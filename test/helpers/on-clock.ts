import { vi } from 'vitest';

/** Settles `promise` on vitest's fake clock, timer by timer (what settles without time passing, first). */
export async function onClock<T>(promise: Promise<T>): Promise<T> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await vi.advanceTimersByTimeAsync(0);
  for (let step = 0; !settled; step++) {
    if (step > 1000) throw new Error('the promise never settles: no timer left to run');
    await vi.advanceTimersToNextTimerAsync();
  }
  return promise;
}
