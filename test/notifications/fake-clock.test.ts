import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { fakeClock } from './fake-clock.js';

describe('the fake clock the notification tests run on', () => {
  it('forgets the abort listener of every sleep that ends, as the real sleep does', async () => {
    const clock = fakeClock(0);
    const stop = new AbortController();
    for (let i = 0; i < 20; i++) {
      const slept = clock.sleep(1_000, stop.signal);
      expect(getEventListeners(stop.signal, 'abort')).toHaveLength(1);
      await clock.advance(1_000);
      await slept;
    }
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
    expect(clock.now()).toBe(20_000);
  });

  it('rejects a sleep on abort and drops its timer', async () => {
    const clock = fakeClock(0);
    const stop = new AbortController();
    const slept = clock.sleep(1_000, stop.signal);
    stop.abort(new Error('stopped'));
    await expect(slept).rejects.toThrow('stopped');
    expect(clock.pending()).toBe(0);
  });
});
