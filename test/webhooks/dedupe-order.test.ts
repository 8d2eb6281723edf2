/**
 * Issue 44, item 3: the order of keys in the bounded dedupe store, under its budget. Eviction
 * takes the oldest key first; a key claimed again after it expired is the newest, whatever
 * place it held before. Kept at its old place, it would be evicted before keys claimed after
 * it, and a replay inside its new window would be accepted.
 */
import { describe, expect, it } from 'vitest';
import { DEDUPE_ENTRY_BYTES, MemoryDedupeStore } from '../../src/webhooks/dedupe-store.js';

describe('MemoryDedupeStore: what it keeps under its budget', () => {
  it('a key claimed again after it expired is kept as the newest: a replay inside its new window is refused', () => {
    let now = 1_000;
    const store = new MemoryDedupeStore({ now: () => now, maxBytes: 3 * DEDUPE_ENTRY_BYTES });
    // Lifetimes differ (two senders' windows): the short one expires while the long ones stand before and after it.
    expect(store.claim('long-1', 60_000)).toBe(true);
    expect(store.claim('x', 100)).toBe(true);
    expect(store.claim('long-2', 60_000)).toBe(true);
    now += 200;
    // x expired: claimed again, for a whole new window.
    expect(store.claim('x', 60_000)).toBe(true);
    // Two more deliveries push the budget: whatever the store does then, x is the newest of the three it held.
    store.claim('y', 60_000);
    store.claim('z', 60_000);
    expect(store.size).toBeLessThanOrEqual(3);
    now += 1_000;
    expect(store.claim('x', 60_000), 'a replay of x inside its window').toBe(false);
  });
});
