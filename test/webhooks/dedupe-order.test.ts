/**
 * Issue 44, item 3: the order of keys in the bounded dedupe store, under its budget. Room is
 * made from the oldest key; a key claimed again after it expired is the newest, whatever place
 * it held before. Kept at its old place, it stands before older keys: the store then refuses
 * a new delivery as full (its oldest key is young) while a key past its protection could go.
 */
import { describe, expect, it } from 'vitest';
import { DEDUPE_ENTRY_BYTES, DEDUPE_PROTECTED_MS, MemoryDedupeStore } from '../../src/webhooks/dedupe-store.js';

const HOUR = 3_600_000;

describe('MemoryDedupeStore: what it keeps under its budget', () => {
  it('a key claimed again after it expired is the newest: room is made from older keys, and its replay is refused', () => {
    let now = 1_000;
    const store = new MemoryDedupeStore({ now: () => now, maxBytes: 3 * DEDUPE_ENTRY_BYTES });
    // Lifetimes differ (two senders' windows): the short one expires while long ones stand before and after it.
    expect(store.claim('long-1', HOUR)).toBe(true);
    expect(store.claim('x', 100)).toBe(true);
    expect(store.claim('long-2', HOUR)).toBe(true);
    // Past the protection of the long ones; x expired long ago: claimed again, for a whole new window.
    now += DEDUPE_PROTECTED_MS + 1;
    expect(store.claim('x', HOUR)).toBe(true);
    // Two new deliveries: each takes the place of an old key (long-1, then long-2), never of x.
    expect(store.claim('y', HOUR)).toBe(true);
    expect(store.claim('z', HOUR)).toBe(true);
    expect(store.size).toBe(3);
    now += 1_000;
    expect(store.claim('x', HOUR), 'a replay of x inside its window').toBe(false);
    expect(store.claim('y', HOUR)).toBe(false);
    expect(store.claim('z', HOUR)).toBe(false);
  });
});
