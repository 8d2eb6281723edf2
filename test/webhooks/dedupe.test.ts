import { describe, expect, it } from 'vitest';
import { MemoryDedupeStore, signWebhook, verifyWebhook, WebhookDeduplicator, type DedupeStore } from '../../src/webhooks/index.js';
import { BODY, SECRET, T } from './fixtures.js';

function clock(start = T) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('WebhookDeduplicator', () => {
  it('processes a delivery once and acknowledges its duplicate', async () => {
    const dedupe = new WebhookDeduplicator();
    const { headers } = signWebhook(BODY, SECRET, { timestamp: T, deliveryId: 'dlv_1' });
    const event = verifyWebhook({ body: BODY, headers, secret: SECRET, now: T });
    expect(await dedupe.claim(headers, event)).toBe(true);
    // The sender's retry: same delivery id, re-signed later.
    const retry = signWebhook(BODY, SECRET, { timestamp: T + 5_000, deliveryId: 'dlv_1' }).headers;
    expect(await dedupe.claim(retry, verifyWebhook({ body: BODY, headers: retry, secret: SECRET, now: T + 5_000 }))).toBe(false);
    expect(dedupe.keys(headers, event)).toEqual(['delivery:dlv_1', 'execution:exec_7']);
  });

  it('catches a sender that makes a new delivery id per attempt, by execution id', async () => {
    const dedupe = new WebhookDeduplicator();
    const event = { data: { executionId: 'exec_7' } };
    expect(await dedupe.claim({ 'svc-delivery-id': 'delivery_a', 'idempotency-key': 'delivery_a' }, event)).toBe(true);
    expect(await dedupe.claim({ 'svc-delivery-id': 'delivery_b', 'idempotency-key': 'delivery_b' }, event)).toBe(false);

    const byIdOnly = new WebhookDeduplicator({ byExecutionId: false });
    expect(await byIdOnly.claim({ 'svc-delivery-id': 'delivery_a' }, event)).toBe(true);
    expect(await byIdOnly.claim({ 'svc-delivery-id': 'delivery_b' }, event)).toBe(true);
    expect(await byIdOnly.claim({ 'Idempotency-Key': 'delivery_b' }, event)).toBe(false);
  });

  it('lets the retry through after a failed delivery is released', async () => {
    const dedupe = new WebhookDeduplicator();
    const headers = { 'svc-delivery-id': 'dlv_1' };
    const event = { data: { executionId: 'exec_7' } };
    expect(await dedupe.claim(headers, event)).toBe(true);
    await dedupe.release(headers, event);
    expect(await dedupe.claim(headers, event)).toBe(true);
    expect(await dedupe.claim(headers, event)).toBe(false);
  });

  it('forgets a delivery after its TTL', async () => {
    const time = clock();
    const dedupe = new WebhookDeduplicator({ store: new MemoryDedupeStore({ now: time.now }), ttlMs: 60_000 });
    const headers = { 'svc-delivery-id': 'dlv_1' };
    expect(await dedupe.claim(headers)).toBe(true);
    time.advance(59_999);
    expect(await dedupe.claim(headers)).toBe(false);
    time.advance(1);
    expect(await dedupe.claim(headers)).toBe(true);
  });

  it('has nothing to dedupe on without ids, and lets such a delivery through', async () => {
    const dedupe = new WebhookDeduplicator();
    expect(dedupe.keys({})).toEqual([]);
    expect(await dedupe.claim({})).toBe(true);
    expect(await dedupe.claim({})).toBe(true);
  });

  it('works with an asynchronous store', async () => {
    const claimed = new Set<string>();
    const store: DedupeStore = {
      claim: async (key) => !claimed.has(key) && claimed.add(key) !== undefined,
      release: async (key) => void claimed.delete(key),
    };
    const dedupe = new WebhookDeduplicator({ store });
    expect(await dedupe.claim({ 'svc-delivery-id': 'x' })).toBe(true);
    expect(await dedupe.claim({ 'svc-delivery-id': 'x' })).toBe(false);
    expect([...claimed]).toEqual(['delivery:x']);
  });
});

describe('MemoryDedupeStore', () => {
  it('sweeps expired keys and keeps at most maxEntries, dropping the oldest', () => {
    const time = clock();
    const store = new MemoryDedupeStore({ now: time.now, maxEntries: 2 });
    expect(store.claim('a', 1_000)).toBe(true);
    expect(store.claim('b', 1_000)).toBe(true);
    expect(store.claim('c', 1_000)).toBe(true);
    expect(store.size).toBe(2);
    expect(store.claim('a', 1_000)).toBe(true);
    expect(store.claim('c', 1_000)).toBe(false);
    time.advance(1_000);
    expect(store.claim('d', 1_000)).toBe(true);
    expect(store.size).toBe(1);
  });
});
