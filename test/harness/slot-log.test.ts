import { describe, expect, it } from 'vitest';
import { SlotLog } from '../../src/harness/pace/slot-log.js';

describe('SlotLog', () => {
  it('frees each slot one window after its use, at most 1/32 of a window late, in constant memory', () => {
    const log = new SlotLog(1_000);
    // 10 000 uses spread over one window: far more than the log has entries.
    for (let i = 0; i < 10_000; i++) log.add(i / 10);
    expect(log.total).toBe(10_000);
    for (const n of [1, 2_500, 5_000, 10_000]) {
      const exact = (n - 1) / 10 + 1_000;
      expect(log.freedAt(n)).toBeGreaterThanOrEqual(exact);
      expect(log.freedAt(n)).toBeLessThanOrEqual(exact + 1_000 / 32);
    }
    expect(log.freedAt(10_001)).toBe(Infinity);
    // At 1 500 the uses before 500 have freed (the one at exactly 500 shares a later entry).
    log.prune(1_500);
    expect(log.total).toBe(5_000);
  });

  it('counts many slots at one time as one entry, and forgets them once the window passes', () => {
    const log = new SlotLog(100);
    log.add(10, 1_000_000);
    log.add(10, 0);
    expect(log.total).toBe(1_000_000);
    expect(log.lastFreeAt()).toBe(110);
    log.prune(110);
    expect(log.total).toBe(0);
    expect(log.lastFreeAt()).toBe(0);
  });

  it('without pruning, folds its oldest entries forward instead of growing', () => {
    const log = new SlotLog(32);
    for (let t = 0; t < 1_000; t++) log.add(t);
    expect(log.total).toBe(1_000);
    // The oldest uses now free with later ones: later than exact, never earlier.
    expect(log.freedAt(1)).toBeGreaterThan(32);
    expect(log.freedAt(1_000)).toBe(999 + 32);
  });
});
