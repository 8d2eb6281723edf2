import { describe, expect, it } from 'vitest';
import {
  DEDUPE_ENTRY_BYTES,
  DEFAULT_DEDUPE_REPLAY_WINDOW_MS,
  DedupeStoreFullError,
  MemoryDedupeStore,
  MIN_DEDUPE_TTL_MS,
  WebhookDeduplicator,
} from '../../src/webhooks/index.js';
import { EVENT, signedDelivery, T } from './fixtures.js';

// Issue 41 item 10: a full store never forgets a delivery that could still be replayed.

/** A verified delivery of execution `n`, signed at the clock's time. */
const delivery = (n: number, at: number) => signedDelivery({ ...EVENT, id: `evt_${n}`, data: { ...EVENT.data, executionId: `exec_${n}` } }, `dlv_${n}`, at).verified();

describe('MemoryDedupeStore under its budget, inside the replay window', () => {
  it('refuses a new delivery (fail closed) rather than evicting one a replay could still match', async () => {
    let now = T;
    const store = new MemoryDedupeStore({ now: () => now, maxBytes: 3 * DEDUPE_ENTRY_BYTES });
    const dedupe = new WebhookDeduplicator({ store });
    const first = delivery(1, now);
    expect(await dedupe.claim(first)).toBe(true);
    expect(await dedupe.claim(delivery(2, now))).toBe(true);
    expect(await dedupe.claim(delivery(3, now))).toBe(true);
    now += 60_000;
    // The budget holds three; all are inside the window, so the fourth is refused, not the first forgotten.
    await expect(dedupe.claim(delivery(4, now))).rejects.toThrow(DedupeStoreFullError);
    await expect(dedupe.claim(delivery(4, now))).rejects.toThrow(
      `the dedupe store is full (maxBytes ${3 * DEDUPE_ENTRY_BYTES}) of deliveries claimed in the last ${DEFAULT_DEDUPE_REPLAY_WINDOW_MS} ms, which could still be replayed`,
    );
    // A replay of the first, still inside the window, is still caught.
    expect(await dedupe.claim(first)).toBe(false);
    expect(store.size).toBe(3);
    expect(store.bytes).toBe(3 * DEDUPE_ENTRY_BYTES);
  });

  it('drops the oldest key once it is past the window, and takes the new delivery', async () => {
    let now = T;
    const store = new MemoryDedupeStore({ now: () => now, maxBytes: 2 * DEDUPE_ENTRY_BYTES });
    const dedupe = new WebhookDeduplicator({ store });
    expect(await dedupe.claim(delivery(1, now))).toBe(true);
    now += 1_000;
    expect(await dedupe.claim(delivery(2, now))).toBe(true);
    now = T + DEFAULT_DEDUPE_REPLAY_WINDOW_MS;
    expect(await dedupe.claim(delivery(3, now))).toBe(true);
    expect(store.size).toBe(2);
    // The second, claimed later, is still inside the window and still held.
    expect(await dedupe.claim(delivery(2, now))).toBe(false);
  });

  it('keeps the window the verifier needs by default, and takes a wider one', () => {
    expect(DEFAULT_DEDUPE_REPLAY_WINDOW_MS).toBe(MIN_DEDUPE_TTL_MS);
    expect(new MemoryDedupeStore().replayWindowMs).toBe(10 * 60_000);
    expect(new MemoryDedupeStore({ replayWindowMs: 20 * 60_000 }).replayWindowMs).toBe(20 * 60_000);
  });
});
