import { describe, expect, it } from 'vitest';
import { DEDUPE_ENTRY_BYTES, MemoryDedupeStore, MIN_DEDUPE_TTL_MS, WebhookDeduplicator } from '../../src/webhooks/index.js';
import { DEFAULT_TOLERANCE_MS } from '../../src/webhooks/verify.js';
import { EVENT, OTHER_EVENT, signedDelivery } from './fixtures.js';

describe('dedupe: only verified events, at the exact bounds', () => {
  it('refuses an event that did not come from verifyWebhook, even an identical one', async () => {
    const dedupe = new WebhookDeduplicator();
    const parsed = JSON.parse(JSON.stringify(EVENT)) as typeof EVENT;
    const message = 'pass what verifyWebhook or verifyLoopsWebhook returned: only a verified delivery may claim a key';
    expect(() => dedupe.key(parsed as never)).toThrow(new TypeError(message));
    await expect(dedupe.claim(parsed as never)).rejects.toThrow(new TypeError(message));
    await expect(dedupe.release(parsed as never)).rejects.toThrow(new TypeError(message));
  });

  it('keeps different executions apart with either key, and forgets a released one', async () => {
    for (const byExecutionId of [true, false]) {
      const dedupe = new WebhookDeduplicator({ byExecutionId });
      const first = signedDelivery().verified();
      const other = signedDelivery(OTHER_EVENT, 'dlv_2').verified();
      expect(await dedupe.claim(first)).toBe(true);
      expect(await dedupe.claim(other)).toBe(true);
      expect(await dedupe.claim(first)).toBe(false);
      await dedupe.release(first);
      expect(await dedupe.claim(first)).toBe(true);
      expect(dedupe.key(first)).not.toBe(dedupe.key(other));
    }
  });

  it('needs a time-to-live of at least twice the replay window, and a store of at least one entry', () => {
    expect(MIN_DEDUPE_TTL_MS).toBe(2 * DEFAULT_TOLERANCE_MS);
    expect(() => new WebhookDeduplicator({ ttlMs: MIN_DEDUPE_TTL_MS })).not.toThrow();
    expect(() => new WebhookDeduplicator({ ttlMs: MIN_DEDUPE_TTL_MS - 1 })).toThrow(
      new RangeError(`ttlMs must be at least ${MIN_DEDUPE_TTL_MS} ms, or a replay inside the window would be processed again`),
    );
    expect(() => new MemoryDedupeStore({ maxBytes: DEDUPE_ENTRY_BYTES })).not.toThrow();
    expect(() => new MemoryDedupeStore({ maxBytes: DEDUPE_ENTRY_BYTES - 1 })).toThrow(RangeError);
  });

  it('lets a key be claimed again exactly when its time-to-live ends, not a millisecond before', async () => {
    let now = 1_000;
    const store = new MemoryDedupeStore({ now: () => now });
    expect(await store.claim('k', 100)).toBe(true);
    now = 1_099;
    expect(await store.claim('k', 100)).toBe(false);
    now = 1_100;
    expect(await store.claim('k', 100)).toBe(true);
  });
});
